/**
 * Test helper: the checks of the layer test (tests/imports.test.ts), as functions of a
 * repository root, so that they run unchanged on the real tree and on the planted one in
 * tests/fixtures/layers/.
 *
 * - {@link moduleGraph}: one `deno info --json` over every module of `lib/` and `tests/` and
 *   each notebook's code cells; type-only and literal dynamic imports are edges too.
 * - {@link runtimeEdges}: module URLs built at run time (`new URL("x.ts", import.meta.url)`,
 *   `import.meta.resolve`), and the places that import or start a module whose name is not
 *   written in the source.
 * - {@link benchmarkNames}: which files outside `lib/benchmarks/` name a benchmark in code.
 * - {@link upwardEdges}, {@link cycles}, {@link folderCycles}, {@link nonEntryImports}: the
 *   rules, on the graph.
 * @module
 */
import assert from "node:assert/strict";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { existsSync } from "node:fs";
import { lex, type Lexed, words } from "./_lex.ts";
import { notebookCode } from "./_notebook.ts";
import { docEntries } from "@runlens/setup/api_doc.ts";

/** The repository this checkout is. */
export const REPO = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Where the generated entry module and notebook modules go (git-ignored). */
export const WORK_DIR = join(REPO, ".runlens", "layers");

/**
 * Rank of each top folder of lib/: a module imports its own folder and lower ranks only;
 * folders of one rank do not import each other (benchmark folders may, without a cycle).
 * `analyses` holds the analyses of loaded runs across benchmarks (format sensitivity, paired
 * comparisons, headline tables), above the pipeline, which loads and scores. `(entries)` are
 * the files directly in lib/ (`lib/mod.ts`). `bench` is a dev tool: it may import any lib
 * module and no lib module imports it.
 */
export const LAYERS: Readonly<Record<string, number>> = {
  core: 0,
  codecs: 1,
  stats: 1,
  data: 1,
  setup: 1,
  render: 2,
  logs: 3,
  scorers: 3,
  benchmarks: 4,
  pipeline: 5,
  analyses: 6,
  notebook: 7,
  report: 7,
  "(entries)": 8,
  cli: 9,
  bench: 10,
};

/** deno.json's `exports`: `"."` or `"./<entry>"` → `"./lib/<path>"`. */
const EXPORTS: Readonly<Record<string, string>> =
  JSON.parse(Deno.readTextFileSync(join(REPO, "deno.json"))).exports ?? {};

/**
 * The public entry modules, read from deno.json's `exports` (the one place that says so): the
 * only repository modules notebooks and tests/public/ may import (npm and `node:` modules
 * aside), as `runlens/<entry>` (or `@runlens/mod.ts`, `lib/mod.ts` through the import map).
 */
export const PUBLIC_ENTRIES: readonly string[] = docEntries({ exports: EXPORTS });

/** How one module reaches another. */
export type EdgeKind = "import" | "type" | "dynamic" | "url";

/** An edge of the module graph; paths are relative to the root. */
export interface Edge {
  to: string;
  kind: EdgeKind;
}

/** A graph: each module (root-relative path; a notebook as `notebooks/x.ipynb`) → its edges. */
export type Graph = Map<string, Edge[]>;

/** A module of the graph: its root-relative name and the file `deno` reads. */
interface Source {
  name: string;
  file: string;
}

/**
 * Every module under `root`: `lib/**\/*.ts`, `tests/**\/*.ts` (but not the planted tree
 * tests/fixtures/layers/) and each `notebooks/*.ipynb`, whose code cells are written to
 * `<work>/nb_<name>.ts`.
 */
export function sources(root: string, work = WORK_DIR): Source[] {
  const found: Source[] = [];
  const walk = (dir: string) => {
    for (const e of readDir(dir)) {
      const path = join(dir, e.name);
      const name = relative(root, path);
      if (e.isDirectory && name !== "tests/fixtures/layers") walk(path);
      else if (e.isFile && name.endsWith(".ts")) found.push({ name, file: path });
    }
  };
  walk(join(root, "lib"));
  walk(join(root, "tests"));
  Deno.mkdirSync(work, { recursive: true });
  for (const { name } of readDir(join(root, "notebooks"))) {
    if (!name.endsWith(".ipynb")) continue;
    const file = join(work, `nb_${name.replace(/\.ipynb$/, "")}.ts`);
    Deno.writeTextFileSync(file, notebookCode(join(root, "notebooks", name)));
    found.push({ name: `notebooks/${name}`, file });
  }
  return found;
}

/** The entries of `dir` by name; none when it does not exist. */
function readDir(dir: string): Deno.DirEntry[] {
  try {
    return [...Deno.readDirSync(dir)].sort((a, b) => a.name < b.name ? -1 : 1);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return [];
    throw e;
  }
}

/** deno info's view of one module (the fields read here). */
interface InfoModule {
  specifier: string;
  error?: string;
  dependencies?: {
    specifier: string;
    code?: { specifier?: string; error?: string };
    type?: { specifier?: string; error?: string };
    isDynamic?: boolean;
  }[];
}

/**
 * The static module graph of `root` (see {@link sources}) from one `deno info --json` run:
 * an edge per import whose target lies under `root` — `import type` included (deno info lists
 * it under `type`, not `code`), and literal `import("…")` as `dynamic`. `@runlens/` resolves to
 * `<root>/lib/`, as the import map of deno.json does for the repository. Throws when a module
 * or an import cannot be resolved.
 */
export function moduleGraph(root: string, work = WORK_DIR): Graph {
  const all = sources(root, work);
  const entry = join(work, "entry.ts");
  Deno.writeTextFileSync(
    entry,
    all.map((s) => `import ${JSON.stringify(pathToFileURL(s.file).href)};`).join("\n") + "\n",
  );
  const info = denoInfo(entry, importMap(root, work));
  const names = new Map(all.map((s) => [pathToFileURL(s.file).href, s.name]));
  const nameOf = (url: string) => {
    if (names.has(url)) return names.get(url)!;
    if (!url.startsWith("file:")) return null;
    const path = relative(root, fileURLToPath(url));
    return path.startsWith("..") ? null : path;
  };
  const graph: Graph = new Map(all.map((s) => [s.name, []]));
  const problems: string[] = [];
  for (const m of info.modules) {
    const from = nameOf(m.specifier);
    if (from === null || !graph.has(from)) continue;
    if (m.error) problems.push(`${from}: ${m.error}`);
    for (const d of m.dependencies ?? []) {
      const target = d.code ?? d.type;
      if (target?.error) problems.push(`${from}: ${d.specifier}: ${target.error}`);
      const to = target?.specifier ? nameOf(target.specifier) : null;
      if (to === null) continue;
      const kind: EdgeKind = d.isDynamic ? "dynamic" : d.code ? "import" : "type";
      graph.get(from)!.push({ to, kind });
    }
  }
  assert.deepEqual(problems, [], "modules deno info could not resolve");
  return graph;
}

/**
 * deno.json's import map with `@runlens/` pointing at `<root>/lib/` and each `runlens/<entry>`
 * of its `exports` at `<root>/<path>` (what deno resolves by the package's name), written to
 * `work`.
 */
function importMap(root: string, work: string): string {
  const config = JSON.parse(Deno.readTextFileSync(join(REPO, "deno.json")));
  const entries = Object.entries(EXPORTS).map(([name, path]) => [
    "runlens" + name.slice(1),
    pathToFileURL(join(root, path)).href,
  ]);
  const imports = {
    ...config.imports,
    ...Object.fromEntries(entries),
    "@runlens/": pathToFileURL(join(root, "lib")).href + "/",
  };
  const path = join(work, "import_map.json");
  Deno.writeTextFileSync(path, JSON.stringify({ imports }, null, 2));
  return path;
}

function denoInfo(entry: string, map: string): { modules: InfoModule[] } {
  const out = new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "--import-map", map, entry],
    cwd: REPO,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).outputSync();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

/** The modules found by reading the source: run-time URL edges, and the unreadable loads. */
export interface RuntimeEdges {
  /** `new URL("<x>.ts", import.meta.url)` and `import.meta.resolve("<x>")` targets. */
  edges: Graph;
  /**
   * `import(x)` and `new Worker(x)` whose `x` is neither a string literal nor a literal
   * `new URL(…, import.meta.url)`: `module:line: text`. What they load is decided at run time
   * and no graph shows it.
   */
  computed: string[];
}

/**
 * The run-time module edges of `root`'s modules (see {@link RuntimeEdges}), read from their
 * source with comments stripped (a commented-out URL is no edge, a URL inside a string is no
 * code). Relative URLs resolve against the module, `@runlens/x` against `<root>/lib/`.
 */
export function runtimeEdges(root: string, work = WORK_DIR): RuntimeEdges {
  const edges: Graph = new Map();
  const computed: string[] = [];
  for (const s of sources(root, work)) {
    if (!MAY_LOAD.test(Deno.readTextFileSync(s.file))) continue; // most modules: no need to lex
    const { source, code, literals } = lexFile(s.file);
    const at = new Map(literals.map((l) => [l.start, l]));
    const literalAt = (offset: number) => {
      const l = at.get(offset);
      return l && (l.kind === "string" || (l.kind === "template" && !l.computed)) ? l : null;
    };
    const base = s.name.startsWith("notebooks/") ? join(root, "notebooks") : dirname(s.name);
    const target = (spec: string) =>
      relative(
        root,
        spec.startsWith("@runlens/")
          ? join(root, "lib", spec.slice("@runlens/".length))
          : resolve(root, base, spec),
      );
    const found: Edge[] = [];
    for (const m of code.matchAll(/new\s+URL\(\s*(?=["'`])/g)) {
      const l = literalAt(m.index + m[0].length);
      if (l && /\.ts$/.test(l.text) && importMetaUrlFollows(code, l.start)) {
        found.push({ to: target(l.text), kind: "url" });
      }
    }
    for (const m of code.matchAll(/import\.meta\.resolve\(\s*(?=["'`])/g)) {
      const l = literalAt(m.index + m[0].length);
      if (l) found.push({ to: target(l.text), kind: "url" });
    }
    for (const m of code.matchAll(/(?<![\w$.])(import|new\s+Worker)\s*\(\s*/g)) {
      const start = m.index + m[0].length;
      if (literalAt(start) || literalUrlAt(code, start, literalAt)) continue;
      const line = code.slice(0, m.index).split("\n").length;
      computed.push(`${s.name}:${line}: ${source.split("\n")[line - 1].trim()}`);
    }
    if (found.length > 0) edges.set(s.name, found);
  }
  return { edges, computed };
}

/** What a module that builds a module URL or loads a module at run time contains. */
const MAY_LOAD = /import\s*\(|URL\s*\(|Worker\s*\(|import\.meta\.resolve/;

/** Whether `, import.meta.url)` follows the literal that opens at `start` in `code`. */
function importMetaUrlFollows(code: string, start: number): boolean {
  const end = code.indexOf(code[start], start + 1);
  return /^\s*,\s*import\.meta\.url\s*\)/.test(code.slice(end + 1));
}

/** Whether `code` at `start` is `new URL(<literal>, import.meta.url)`. */
function literalUrlAt(
  code: string,
  start: number,
  literalAt: (offset: number) => unknown,
): boolean {
  const m = /^new\s+URL\(\s*/.exec(code.slice(start));
  return m !== null && literalAt(start + m[0].length) !== null &&
    importMetaUrlFollows(code, start + m[0].length);
}

/** The union of graphs, edges in order and without repeats. */
export function merged(...graphs: Graph[]): Graph {
  const out: Graph = new Map();
  for (const g of graphs) {
    for (const [from, edges] of g) {
      const list = out.get(from) ?? [];
      for (const e of edges) {
        if (!list.some((x) => x.to === e.to && x.kind === e.kind)) list.push(e);
      }
      out.set(from, list);
    }
  }
  return out;
}

/** The lib/ layer of a module (`(entries)` for a file directly in lib/), or null outside lib/. */
export function layerOf(path: string): string | null {
  const parts = path.split("/");
  if (parts[0] !== "lib") return null;
  return parts.length === 2 ? "(entries)" : parts[1];
}

/** The lib/ modules whose folder has no rank in {@link LAYERS}. */
export function unranked(graph: Graph): string[] {
  return [...graph.keys()].filter((m) => {
    const layer = layerOf(m);
    return layer !== null && !(layer in LAYERS);
  });
}

/**
 * Every edge from a lib/ module that does not go down the layers: to a higher rank, to
 * another folder of its rank, or out of lib/ (tests, notebooks). `from → to (kind)`.
 */
export function upwardEdges(graph: Graph): string[] {
  const found: string[] = [];
  for (const [from, edges] of graph) {
    const a = layerOf(from);
    if (a === null) continue;
    for (const { to, kind } of edges) {
      const b = layerOf(to);
      const up = b === null || LAYERS[b] > LAYERS[a] || (LAYERS[b] === LAYERS[a] && a !== b);
      if (up) found.push(`${from} → ${to} (${kind})`);
    }
  }
  return found;
}

/** Strongly connected components of more than one node (Tarjan), each sorted. */
export function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let index = 0;
  const stack: string[] = [];
  const onStack = new Set<string>();
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const found: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return found;
}

/** The graph's targets only (for {@link cycles}). */
export function targets(graph: Graph): Map<string, string[]> {
  return new Map([...graph].map(([from, edges]) => [from, edges.map((e) => e.to)]));
}

/** The benchmark folder of a module under lib/benchmarks/ (null for other modules). */
export function benchmarkOf(path: string): string | null {
  const parts = path.split("/");
  return parts[0] === "lib" && parts[1] === "benchmarks" && parts.length > 3 ? parts[2] : null;
}

/** Cycles between benchmark folders (a folder's modules taken as one node). */
export function folderCycles(graph: Graph): string[][] {
  const folders = new Map<string, string[]>();
  for (const [from, edges] of graph) {
    const a = benchmarkOf(from);
    if (a === null) continue;
    for (const { to } of edges) {
      const b = benchmarkOf(to);
      if (b !== null && b !== a) folders.set(a, [...new Set([...(folders.get(a) ?? []), b])]);
    }
  }
  return cycles(folders);
}

/**
 * Imports of notebooks and of tests/public/** that reach a repository module other than a
 * public entry ({@link PUBLIC_ENTRIES}; tests/public/ may also import its own helpers).
 * `from → to (kind)`.
 */
export function nonEntryImports(graph: Graph): string[] {
  const found: string[] = [];
  for (const [from, edges] of graph) {
    const publicTest = from.startsWith("tests/public/");
    if (!publicTest && !from.startsWith("notebooks/")) continue;
    for (const { to, kind } of edges) {
      if (PUBLIC_ENTRIES.includes(to) || publicTest && to.startsWith("tests/public/")) continue;
      found.push(`${from} → ${to} (${kind})`);
    }
  }
  return found;
}

/**
 * The files that name a benchmark in code, each with the names it uses: the `.ts` modules of
 * `<root>/lib/` outside lib/benchmarks/ and lib/bench/, read with comments stripped (string,
 * template and regex literals kept), plus deno.json and lib/**\/*.json as plain text. A name
 * is found when its words (see `words`) occur in a row among a file's code words or a
 * literal's words: `"bbeh"`, `loadBbehDataset`, `/bbh_(?<task>\w+)/`, `"BIG-Bench Mistake"`.
 * Each name is reported as its words joined by spaces.
 */
export function benchmarkNames(root: string, names: readonly string[]): Map<string, string[]> {
  const wanted = [...new Set(names.map((n) => words(n).join(" ")))].map((n) => n.split(" "));
  const files = [join(root, "deno.json")];
  const walk = (dir: string) => {
    for (const e of readDir(dir)) {
      const path = join(dir, e.name);
      const name = relative(root, path);
      if (name === "lib/benchmarks" || name === "lib/bench") continue;
      if (e.isDirectory) walk(path);
      else if (/\.(ts|json)$/.test(e.name)) files.push(path);
    }
  };
  walk(join(root, "lib"));
  const found = new Map<string, string[]>();
  for (const file of files) {
    if (!existsSync(file)) continue;
    const runs = (file.endsWith(".ts") ? codeAndLiterals(file) : [Deno.readTextFileSync(file)])
      .map(words);
    const hits = wanted.filter((w) => runs.some((r) => containsRun(r, w)));
    if (hits.length > 0) found.set(relative(root, file), hits.map((w) => w.join(" ")).sort());
  }
  return found;
}

/** A module's code (comments and literal bodies blanked) and each literal's text. */
function codeAndLiterals(file: string): string[] {
  const { code, literals } = lexFile(file);
  return [code, ...literals.map((l) => l.text)];
}

const lexed = new Map<string, Lexed & { source: string }>();

/** The source of `file` and its {@link lex}ing, once per file and process. */
function lexFile(file: string): Lexed & { source: string } {
  if (!lexed.has(file)) {
    const source = Deno.readTextFileSync(file);
    lexed.set(file, { source, ...lex(source) });
  }
  return lexed.get(file)!;
}

/** Whether `run` occurs in `list` as consecutive items. */
function containsRun(list: readonly string[], run: readonly string[]): boolean {
  for (let i = 0; i + run.length <= list.length; i++) {
    if (run.every((w, j) => list[i + j] === w)) return true;
  }
  return false;
}

/**
 * What a check found against what its allowed list expects: the findings not allowed (new
 * violations), and the allowed entries no longer found (stale: the list only shrinks).
 */
export function againstAllowed(
  found: readonly string[],
  allowed: readonly string[],
): { unexpected: string[]; stale: string[] } {
  return {
    unexpected: found.filter((f) => !allowed.includes(f)),
    stale: allowed.filter((a) => !found.includes(a)),
  };
}
