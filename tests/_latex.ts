/**
 * Test helpers for LaTeX output: run pdflatex on tables inside a plain `article` and read its
 * log, naming the table behind every error, `Overfull \hbox` or too-large float; measure glyph
 * widths for `lib/render/latex/metrics.ts`.
 *
 * Run as a script it rewrites the metrics file from pdflatex's own measurements:
 * `deno run --allow-all tests/_latex.ts`.
 *
 * @example In a test (not run as a doc test: it runs pdflatex)
 * ```ts ignore
 * const problems = await compileTables([{ name: "acc", tex: latexTable(rows) }]);
 * assert.deepEqual(problems, []);
 * ```
 * @module
 */
import { join } from "node:path";
import { LATEX_SIZES, type LatexSize } from "@runlens/render/latex/metrics.ts";
import { latexWidthKeys } from "@runlens/render/latex/text.ts";
import { withTempDir } from "./_tmp.ts";

/** A table file to compile: its name (unique, safe as a file name) and its LaTeX. */
export interface TexFile {
  name: string;
  tex: string;
}

/** Run pdflatex twice at most (longtable settles its widths on the second run); the log. */
async function pdflatex(dir: string, job: string): Promise<{ ok: boolean; log: string }> {
  let result = { ok: false, log: "" };
  for (let pass = 0; pass < 2; pass++) {
    const out = await new Deno.Command("pdflatex", {
      args: ["-interaction=nonstopmode", "-halt-on-error", `${job}.tex`],
      cwd: dir,
      stdout: "null",
      stderr: "null",
    }).output();
    let log = "";
    try {
      log = Deno.readTextFileSync(join(dir, `${job}.log`));
    } catch {
      log = "(no log)";
    }
    result = { ok: out.success, log };
    if (!out.success || !/Rerun LaTeX|Table widths have changed/.test(log)) break;
  }
  return result;
}

/** The packages a table file lists in its `% Packages:` comment. */
export function listedPackages(tex: string): string[] {
  const m = /^% Packages: (.*)$/m.exec(tex);
  return m ? m[1].split(/[,\s]+/).filter(Boolean) : [];
}

/** Packages a file evidently uses (to check its comment lists them). */
function usedPackages(tex: string): string[] {
  const used = ["booktabs"];
  if (/\\begin\{longtable\}/.test(tex)) used.push("longtable");
  if (/>\{|\bp\{[\d.]+pt\}/.test(tex)) used.push("array");
  if (/\\begin\{tabularx\}/.test(tex)) used.push("tabularx");
  if (/\\resizebox/.test(tex)) used.push("graphicx");
  return used;
}

/**
 * Compile every table in one plain `article` (10 pt, the packages the files list) and return
 * the problems found, each naming its table: a LaTeX error, an `Overfull \hbox`, a float too
 * large for the page, a package used but not listed, a bitmap (Type 3) font. Empty: all clean.
 */
export async function compileTables(
  files: TexFile[],
  opts: { pdf?: string } = {},
): Promise<string[]> {
  const problems: string[] = [];
  for (const f of files) {
    const missing = usedPackages(f.tex).filter((p) => !listedPackages(f.tex).includes(p));
    if (missing.length) problems.push(`${f.name}: uses ${missing.join(", ")} but does not list it`);
  }
  const packages = [...new Set(files.flatMap((f) => listedPackages(f.tex)))].sort();
  return await withTempDir(async (dir) => {
    const body = files.map((f, i) => {
      Deno.writeTextFileSync(join(dir, `t${i}.tex`), f.tex);
      return `\\typeout{RUNLENS-TABLE ${i}}\n\\input{t${i}}\n\\clearpage`;
    });
    Deno.writeTextFileSync(
      join(dir, "doc.tex"),
      [
        "\\documentclass{article}",
        ...packages.map((p) => `\\usepackage{${p}}`),
        "\\begin{document}",
        // The list of tables reads every caption back: fragile commands in one fail here.
        "\\listoftables",
        ...body,
        "\\typeout{RUNLENS-TABLE end}",
        "\\end{document}",
        "",
      ].join("\n"),
    );
    const { ok, log } = await pdflatex(dir, "doc");
    // To look at the tables: RUNLENS_LATEX_PDF=/tmp/x.pdf deno test … keeps the last document.
    const pdf = opts.pdf ?? Deno.env.get("RUNLENS_LATEX_PDF");
    if (pdf && ok) Deno.copyFileSync(join(dir, "doc.pdf"), pdf);
    // Before the first table: the list of tables, whose lines are LaTeX's to break.
    let current = "(list of tables)";
    const lines = log.split("\n");
    for (const [i, line] of lines.entries()) {
      const m = /^RUNLENS-TABLE (\S+)/.exec(line);
      if (m) current = m[1] === "end" ? "(end of document)" : files[Number(m[1])].name;
      else if (
        /^! /.test(line) || (m === null && /^Overfull \\hbox|Float too large/.test(line) &&
          current !== "(list of tables)")
      ) {
        problems.push(`${current}: ${line.trim()} ${lines[i + 1]?.trim() ?? ""}`.trim());
      }
    }
    if (!ok && !problems.some((p) => / ! /.test(p))) {
      problems.push(`${current}: pdflatex failed\n${lines.slice(-20).join("\n")}`);
    }
    if (/\.pk>|mktexpk/.test(log)) problems.push("a bitmap font was used (a textcomp glyph?)");
    return problems;
  }, "runlens_latex_");
}

/** Whether `pdflatex` runs. */
export async function hasPdflatex(): Promise<boolean> {
  try {
    return (await new Deno.Command("pdflatex", { args: ["--version"], stdout: "null" }).output())
      .success;
  } catch {
    return false;
  }
}

/** Glyph widths and positive kerns by size (pt), as `metrics.ts` stores them. */
export interface Metrics {
  widths: Record<LatexSize, Record<string, number>>;
  kerns: Record<LatexSize, Record<string, number>>;
}

/** Printable ASCII characters set as themselves (no command): the ones TeX may kern. */
const PLAIN = [...Array(0x7F - 0x21).keys()].map((i) => String.fromCharCode(0x21 + i))
  .filter((c) => !'\\&%$#_{}~^|<>`"'.includes(c));

/**
 * The width (pt) of every atom key at every size, as pdflatex measures it in a plain article
 * (`" "` is the interword space and `". "` the extra space after a sentence's end), and the
 * positive kerns between two plain characters (Computer Modern has a few, e.g. `po`).
 */
export async function measureMetrics(): Promise<Metrics> {
  const keys = latexWidthKeys().filter((k) => k !== " ");
  const probes: [string, string][] = [
    ...keys.map((k): [string, string] => [k, k]),
    // Spaces, measured between letters (names that no glyph key can take).
    ["probe a b", "a b"],
    ["probe ab", "ab"],
    ["probe a. b", "a. b"],
    ["probe a.b", "a.b"],
    ...PLAIN.flatMap((a) => PLAIN.map((b): [string, string] => [`${a}${b}`, `${a}${b}`])),
  ];
  return await withTempDir(async (dir) => {
    const lines = ["\\documentclass{article}", "\\begin{document}"];
    for (const size of LATEX_SIZES) {
      for (const [i, [, probe]] of probes.entries()) {
        lines.push(`\\setbox0\\hbox{\\${size} ${probe}}\\typeout{W ${size} ${i} \\the\\wd0}`);
      }
    }
    lines.push("\\end{document}", "");
    Deno.writeTextFileSync(join(dir, "m.tex"), lines.join("\n"));
    const { ok, log } = await pdflatex(dir, "m");
    if (!ok) throw new Error(`pdflatex failed measuring widths:\n${log.slice(-2000)}`);
    const raw = {} as Record<LatexSize, Record<string, number>>;
    for (const m of log.matchAll(/^W (\S+) (\d+) ([\d.]+)pt$/gm)) {
      (raw[m[1] as LatexSize] ??= {})[probes[Number(m[2])][0]] = Number(m[3]);
    }
    const widths = {} as Metrics["widths"];
    const kerns = {} as Metrics["kerns"];
    for (const size of LATEX_SIZES) {
      const w = raw[size];
      widths[size] = Object.fromEntries(keys.map((k) => [k, w[k]]));
      widths[size][" "] = w["probe a b"] - w["probe ab"];
      widths[size][". "] = w["probe a. b"] - w["probe a.b"] - widths[size][" "];
      kerns[size] = {};
      for (const a of PLAIN) {
        for (const b of PLAIN) {
          const k = w[`${a}${b}`] - w[a] - w[b];
          if (k > 0.001) kerns[size][`${a}${b}`] = k;
        }
      }
    }
    return { widths, kerns };
  }, "runlens_latex_");
}

/** The source of `lib/render/latex/metrics.ts` with the measured metrics. */
export function metricsSource(m: Metrics): string {
  const round = (x: number) => Math.ceil(x * 1000) / 1000;
  const table = (t: Record<LatexSize, Record<string, number>>) =>
    LATEX_SIZES.map((size) => {
      const entries = Object.keys(t[size]).sort()
        .map((k) => `    ${JSON.stringify(k)}: ${round(t[size][k])},`);
      return `  ${size}: {\n${entries.join("\n")}\n  },`;
    }).join("\n");
  const fill = (src: string, name: string, t: Record<LatexSize, Record<string, number>>) =>
    src.replace(
      new RegExp(`(// BEGIN ${name}\\n)[\\s\\S]*(\\n\\s*// END ${name})`),
      (_, begin, end) => `${begin}${table(t)}${end}`,
    );
  const src = Deno.readTextFileSync(new URL("../lib/render/latex/metrics.ts", import.meta.url));
  return fill(fill(src, "WIDTHS", m.widths), "KERNS", m.kerns);
}

if (import.meta.main) {
  const path = new URL("../lib/render/latex/metrics.ts", import.meta.url);
  Deno.writeTextFileSync(path, metricsSource(await measureMetrics()));
  console.log(`wrote ${path.pathname}`);
}
