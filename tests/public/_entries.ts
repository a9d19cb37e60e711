/**
 * Test helper for tests/public/: the public entries of deno.json's `exports`, what each
 * exports by `deno doc --json`, and what `deno doc --lint` finds wrong in it.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository (tests/public/ imports only entries and its own helpers, not tests/). */
export const REPO: string = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** One public entry: its import name (`runlens/load`) and its repository-relative file. */
export interface Entry {
  name: string;
  file: string;
}

/** The entries of deno.json's `exports`, in the map's order. */
export function entries(): Entry[] {
  const exports: Record<string, string> =
    JSON.parse(Deno.readTextFileSync(join(REPO, "deno.json"))).exports;
  return Object.entries(exports).map(([key, path]) => ({
    name: "runlens" + key.slice(1),
    file: path.replace(/^\.\//, ""),
  }));
}

function deno(args: string[]): { code: number; stdout: string; stderr: string } {
  const out = new Deno.Command(Deno.execPath(), {
    args,
    cwd: REPO,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).outputSync();
  const text = new TextDecoder();
  return { code: out.code, stdout: text.decode(out.stdout), stderr: text.decode(out.stderr) };
}

interface DocSymbol {
  name: string;
  declarations: { kind: string; def?: { elements?: DocSymbol[] } }[];
}

/**
 * What `file` exports, one `name (kind)` line each, sorted; a namespace's members follow it
 * as `namespace.member (kind)`. A name declared twice (a function and its type, say) lists
 * its kinds joined by `+`.
 */
export function exportedNames(file: string): string[] {
  const out = deno(["doc", "--json", file]);
  if (out.code !== 0) throw new Error(`deno doc --json ${file}: ${out.stderr}`);
  const doc = JSON.parse(out.stdout) as { nodes: Record<string, { symbols: DocSymbol[] }> };
  const [module] = Object.values(doc.nodes);
  const line = (prefix: string, s: DocSymbol) =>
    `${prefix}${s.name} (${[...new Set(s.declarations.map((d) => d.kind))].join("+")})`;
  const lines: string[] = [];
  for (const s of module.symbols) {
    lines.push(line("", s));
    for (const d of s.declarations) {
      for (const m of d.def?.elements ?? []) lines.push(line(`${s.name}.`, m));
    }
  }
  return [...new Set(lines)].sort();
}

/** One finding of `deno doc --lint`: its rule, message and where (`file:line`). */
export interface DocProblem {
  rule: string;
  message: string;
  at: string;
}

/**
 * What `deno doc --lint <files>` reports (an empty list when it passes). Given every entry at
 * once, a type one entry exports is public for all (a package's API is the union).
 */
export function docLint(files: readonly string[]): DocProblem[] {
  const out = deno(["doc", "--lint", ...files]);
  const problems: DocProblem[] = [];
  const text = out.stderr + out.stdout;
  for (const m of text.matchAll(/^error\[([\w-]+)\]: (.*)\n\s*--> (\S+)/gm)) {
    problems.push({ rule: m[1], message: m[2], at: m[3].replace(`${REPO}/`, "") });
  }
  if (out.code !== 0 && problems.length === 0) {
    throw new Error(`deno doc --lint ${files.join(" ")}: ${text}`);
  }
  return problems;
}

/**
 * Whether a `private-type-ref` finding is about a type of another package (nodejs-polars'
 * `DataFrame`, say), which `deno doc --lint` of Deno 2.9 still reports
 * (denoland/deno#27364): the type it names is declared nowhere under lib/.
 */
export function foreignTypeRef(p: DocProblem, libSource: string): boolean {
  const m = /references private type '([\w$]+)'/.exec(p.message);
  if (p.rule !== "private-type-ref" || m === null) return false;
  const declared = new RegExp(
    `^\\s*(?:export\\s+)?(?:declare\\s+)?` +
      `(?:interface|type|class|enum|function|namespace|const|let|var)\\s+${m[1]}\\b`,
    "m",
  );
  return !declared.test(libSource);
}

/** Every module under lib/, concatenated (for {@link foreignTypeRef}). */
export function libSource(): string {
  const parts: string[] = [];
  const walk = (dir: string) => {
    for (const e of Deno.readDirSync(dir)) {
      const path = join(dir, e.name);
      if (e.isDirectory) walk(path);
      else if (e.name.endsWith(".ts")) parts.push(Deno.readTextFileSync(path));
    }
  };
  walk(join(REPO, "lib"));
  return parts.join("\n");
}
