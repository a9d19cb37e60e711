/**
 * Every LaTeX table runlens writes compiles with pdflatex in a plain `\documentclass{article}`
 * (with the packages each file lists at its top) and fits `\textwidth`: no error, no
 * `Overfull \hbox`, no float taller than a page, no bitmap font (issue 24, item 2). Checked on
 * the committed `results/` tables, the notebooks' tables re-rendered from their CSV by the
 * same writer, `runlens report` on logs with hostile run names, and tables built to be
 * hostile (Unicode, TeX specials, 120-character names, 60 columns, 500 rows). Also: the
 * glyph metrics the layout uses are pdflatex's own.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { latexTable } from "@runlens/render/table.ts";
import { ensureLatex } from "@runlens/setup/latex.ts";
import { compileTables, measureMetrics, metricsSource, type TexFile } from "./_latex.ts";
import { runCli } from "./_cli.ts";
import { dataTest } from "./_data.ts";
import { withTempDir } from "./_tmp.ts";

const ROOT = new URL("..", import.meta.url).pathname;

/** Every `.tex` under `dir` (recursively), named by its path relative to the repository. */
function texFiles(dir: string): TexFile[] {
  const out: TexFile[] = [];
  for (const e of [...Deno.readDirSync(dir)].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = join(dir, e.name);
    if (e.isDirectory) out.push(...texFiles(p));
    else if (e.name.endsWith(".tex")) {
      out.push({ name: p.replace(ROOT, ""), tex: Deno.readTextFileSync(p) });
    }
  }
  return out;
}

async function assertCompiles(files: TexFile[]): Promise<void> {
  assert.ok(files.length > 0, "no table to compile");
  const problems = await compileTables(files);
  assert.deepEqual(problems, [], `pdflatex on ${files.length} tables:\n${problems.join("\n")}`);
}

/** ASCII only (tab, newline, printable), labels of at most 40 characters. */
function assertPortable(f: TexFile): void {
  const bad = [...f.tex].find((c) => !/[\t\n\x20-\x7E]/.test(c));
  assert.equal(
    bad,
    undefined,
    `${f.name}: non-ASCII character U+${bad?.codePointAt(0)?.toString(16)}`,
  );
  for (const m of f.tex.matchAll(/\\label\{([^}]*)\}/g)) {
    assert.ok(m[1].length <= 40, `${f.name}: label ${m[1]} has ${m[1].length} characters`);
  }
}

Deno.test("latex: the glyph metrics of the layout are pdflatex's own", async () => {
  await ensureLatex();
  const path = join(ROOT, "lib/render/latex/metrics.ts");
  assert.equal(
    metricsSource(await measureMetrics()),
    Deno.readTextFileSync(path),
    "lib/render/latex/metrics.ts is stale: deno run --allow-all tests/_latex.ts",
  );
});

Deno.test("latex: the committed results/ tables compile in a plain article and fit", async () => {
  await ensureLatex();
  const files = texFiles(join(ROOT, "results"));
  files.forEach(assertPortable);
  await assertCompiles(files);
});

/** A CSV file's rows (RFC 4180, as `lib/render/table.ts` writes it). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [], field = "", quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c !== '"') field += c;
      else if (text[i + 1] === '"') field += text[++i];
      else quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === ",") row.push(field), field = "";
    else if (c === "\n") row.push(field), rows.push(row), row = [], field = "";
    else field += c;
  }
  return rows;
}

Deno.test("latex: every notebook table, re-rendered from its CSV by the writer, compiles and fits", async () => {
  await ensureLatex();
  const dir = join(ROOT, "results");
  const files: TexFile[] = [];
  for (
    const name of [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.endsWith(".csv"))
      .sort()
  ) {
    const [columns, ...rows] = parseCsv(Deno.readTextFileSync(join(dir, name)));
    // The CSV holds the formatted cells: numbers as numbers keep their digits, the rest text.
    const records = rows.map((r) =>
      Object.fromEntries(
        columns.map((c, j) => [c, r[j] === "" ? null : /^-?\d+$/.test(r[j]) ? Number(r[j]) : r[j]]),
      )
    );
    const md = Deno.readTextFileSync(join(dir, name.replace(/\.csv$/, ".md"))).split("\n");
    const caption = md[0].startsWith("|") ? undefined : md[0];
    const tex = latexTable(records, { caption, label: `tab:${name.replace(/\.csv$/, "")}` });
    files.push({ name: `results/${name}`, tex });
  }
  files.forEach(assertPortable);
  await assertCompiles(files);
});

/** Names a paper's tables meet: Unicode, TeX specials, row-end look-alikes, 120 characters. */
const HOSTILE = [
  "模型-α/β_v2 (测试) & 50% #1",
  "Café naïve São Paulo Łódź Ærø straße ą ḁ",
  "a\\b & c % d $ e # f _ g { h } i ~ j ^ k | l < m > n ` o \" p ' q",
  "[exp] *star* run--2 −5 – 6 — 7 … “quoted” ‘single’ « guillemets » ≤ ≥ × ±",
  "rocket 🚀 \u202Eevil\u200B \u0007bell \uD800 Ωμ ß ﬁ ½ ² €",
  "meta-llama__Llama-3.1-70B-Instruct,dtype=bfloat16,trust_remote_code=True,max_length=8192," +
  "parallelize=True,revision=main",
  "\\input{/etc/passwd}\\def\\x{y}",
  "*".repeat(3),
];

/** Tables built to break a layout: every shape the writer must still fit. */
function hostileTables(): TexFile[] {
  const tasks = Array.from({ length: 23 }, (_, i) => `task_${i}_with_a_long_name`);
  const board = HOSTILE.map((run, i) => ({
    run,
    ...Object.fromEntries(tasks.map((t, j) => [t, ((i * 37 + j * 11) % 1000) / 10])),
    harmonic_mean: i - 3.25,
  }));
  const long = Array.from({ length: 500 }, (_, i) => ({
    run: HOSTILE[i % HOSTILE.length],
    model: `${HOSTILE[(i + 1) % HOSTILE.length]} model`,
    task: tasks[i % tasks.length],
    n: 200 + i,
    accuracy: ((i * 7919) % 1000) / 10 - 50,
    interval: `[${-(i % 9)}.5, ${i % 7}.25]`,
  }));
  const prose = HOSTILE.map((h, i) => ({
    run: h,
    response_tail: `${h} `.repeat(8),
    target: i % 2 ? "(B)" : null,
    extracted: "x".repeat(40 * (i + 1)),
    sha256: "0123456789abcdef".repeat(4),
  }));
  const wide = Array.from({ length: 50 }, (_, i) => ({
    key: `row ${i} ${HOSTILE[i % HOSTILE.length]}`,
    ...Object.fromEntries(Array.from({ length: 60 }, (_, j) => [`metric_number_${j}`, i * j])),
  }));
  const constant = Array.from({ length: 5 }, (_, i) => ({
    run: HOSTILE[i],
    model: HOSTILE[i],
    scorer: "bbeh-official",
    benchmark: "bbeh",
    accuracy: i,
  }));
  const long120 = `tab:${"x".repeat(60)}-${HOSTILE[0]}-${"y".repeat(60)}`;
  const opts = (name: string) => ({
    caption: `${name}: ${HOSTILE.join(" ")}`,
    label: long120 + name,
    note: HOSTILE.join("; "),
  });
  const tables: [string, Record<string, unknown>[]][] = [
    ["leaderboard", board],
    ["long", long],
    ["prose", prose],
    ["wide", wide],
    ["constant", constant],
    ["one-cell", [{ [HOSTILE[5]]: "w".repeat(500) }]],
    ["first-cells", HOSTILE.map((h, i) => ({ name: h, n: i }))],
    ["hostile-headers", [Object.fromEntries(HOSTILE.map((h, i) => [h, i]))]],
    ["empty", []],
  ];
  return tables.map(([name, rows]) => ({ name, tex: latexTable(rows, opts(name)) }));
}

Deno.test("latex: hostile tables are ASCII, deterministic, and compile and fit", async () => {
  await ensureLatex();
  const files = hostileTables();
  assert.deepEqual(hostileTables(), files, "the same tables twice gave different LaTeX");
  files.forEach(assertPortable);
  const labels = files.flatMap((f) => [...f.tex.matchAll(/\\label\{([^}]*)\}/g)].map((m) => m[1]));
  assert.equal(new Set(labels).size, files.length, "labels not unique");
  const leaderboard = files.find((f) => f.name === "leaderboard")!.tex;
  assert.match(leaderboard, /R1 = /, "run names as codes with a legend");
  assert.match(files.find((f) => f.name === "long")!.tex, /\\begin\{longtable\}/);
  assert.match(
    files.find((f) => f.name === "constant")!.tex,
    /Same on every row: scorer = bbeh-official/,
  );
  await assertCompiles(files);
});

/** Canonical JSONL of runs with hostile names over real BBEH and BBH examples. */
async function writeHostileLogs(data: string, dir: string): Promise<void> {
  const { loadBbehDataset } = await import("@runlens/benchmarks/bbeh/dataset.ts");
  const { loadBbhDataset } = await import("@runlens/benchmarks/bbh/dataset.ts");
  type Ex = { task: string; example_index: number; target: string };
  const pickTasks = (ds: Ex[], tasks: string[]) =>
    ds.filter((e) => tasks.includes(e.task) && e.example_index < 20);
  const bbeh = pickTasks(loadBbehDataset(data).toRecords() as Ex[], [
    "nycc",
    "boardgame_qa",
    "zebra_puzzles",
    "hyperbaton",
  ]);
  const bbh = pickTasks(loadBbhDataset(data).toRecords() as Ex[], [
    "snarks",
    "navigate",
    "boolean_expressions",
  ]);
  const runs: [string, Ex[], number][] = [
    [HOSTILE[0], bbeh, 2],
    [HOSTILE[5], bbeh, 3],
    [HOSTILE[3], bbeh, 5],
    [HOSTILE[2], bbh, 2],
    [HOSTILE[1], bbh, 3],
  ];
  for (const [k, [run, examples, every]] of runs.entries()) {
    const benchmark = examples === bbeh ? "bbeh" : "bbh";
    const lines = examples.map((e, i) =>
      JSON.stringify({
        run,
        model: `${run} (model)`,
        benchmark,
        task: e.task,
        example_index: e.example_index,
        response: benchmark === "bbeh"
          ? `Thinking.\nThe answer is: ${i % every === 0 ? e.target : "no idea"}`
          : `Step by step. So the answer is ${i % every === 0 ? e.target : "zzz"}.`,
      })
    );
    Deno.writeTextFileSync(join(dir, `run_${k}.jsonl`), lines.join("\n") + "\n");
  }
}

dataTest(
  "latex: runlens report on runs with hostile names writes tables that compile and fit",
  async (data) => {
    await ensureLatex();
    await withTempDir(async (dir) => {
      const logs = join(dir, "logs");
      Deno.mkdirSync(logs);
      await writeHostileLogs(data, logs);
      const outs = ["r1", "r2"].map((r) => join(dir, r));
      for (const out of outs) {
        const r = await runCli(["report", logs, "--out", out, "--data", data, "--no-cache"]);
        assert.equal(r.code, 0, r.stderr);
      }
      const [first, second] = outs.map((o) => texFiles(join(o, "tables")));
      assert.deepEqual(second, first.map((f) => ({ ...f, name: f.name.replace("/r1/", "/r2/") })));
      const names = first.map((f) => f.name.replace(/^.*\//, "").replace(/\.tex$/, ""));
      for (const n of names) assert.ok(n.length <= 36, `file name ${n}.tex too long`);
      assert.ok(names.includes("accuracy-by-task-bbeh") && names.includes("accuracy-by-task-bbh"));
      assert.deepEqual(names.filter((n) => n.startsWith("pair-")).sort(), [
        "pair-r1-vs-r3-bbh",
        "pair-r2-vs-r4-bbeh",
        "pair-r2-vs-r5-bbeh",
        "pair-r4-vs-r5-bbeh",
      ]);
      // The Table 2 shape: a row per task, a column per run (codes of the runs summary's order).
      const table2 = first.find((f) => f.name.endsWith("/accuracy-by-task-bbeh.tex"))!.tex;
      assert.match(table2, /^ & R2 & R4 & R5 \\\\$/m);
      assert.match(table2, /^boardgame\\_qa & [\d.]+ & [\d.]+ & [\d.]+ \\\\$/m);
      assert.ok(table2.includes("Runs: R2 = [exp]"), "the legend of the codes");
      first.forEach(assertPortable);
      await assertCompiles(first);
    });
  },
);
