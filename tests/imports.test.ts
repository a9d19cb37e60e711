/**
 * The house plan of the repository, checked on its real module graph: every module of lib/
 * and tests/ and the code cells of every notebook, with type-only imports, literal dynamic
 * imports and module URLs built at run time counted as edges (tests/_layers.ts).
 *
 * - no import cycle, and none between benchmark folders;
 * - lib/ imports go down the layers of `LAYERS`: cli → entries (lib/mod.ts) → notebook/report →
 *   analyses → pipeline → benchmarks → logs/scorers → render → stats/data/setup/codecs → core,
 *   and lib/bench/ (a dev tool) above all; nothing in lib/ imports tests or notebooks;
 * - notebooks and tests/public/ import only the public entries;
 * - a module is loaded through a specifier computed at run time only in the `LOADERS`;
 * - nothing outside lib/benchmarks/ (and the dev tool lib/bench/) names a benchmark in code.
 *
 * What breaks a rule today is listed in an `ALLOWED_*` list, with where it is meant to go
 * (design23.md §1.3, §3.2). A finding not in its list fails, and so does a list entry that is
 * no longer found: the lists only shrink. The last tests run the same checks on a planted tree
 * (tests/fixtures/layers/) and require exactly the planted violations.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { benchmarks } from "@runlens/benchmarks/registry.ts";
import { lex, words } from "./_lex.ts";
import {
  againstAllowed,
  benchmarkNames,
  cycles,
  folderCycles,
  type Graph,
  LAYERS,
  merged,
  moduleGraph,
  nonEntryImports,
  REPO,
  runtimeEdges,
  targets,
  unranked,
  upwardEdges,
  WORK_DIR,
} from "./_layers.ts";

/** Edges that go up the layers (`from → to (kind)`). None today. */
const ALLOWED_UPWARD: readonly string[] = [];

/** Import cycles, each as its sorted modules joined by " ↔ ". None today. */
const ALLOWED_CYCLES: readonly string[] = [];

/** Imports of notebooks and tests/public/ that reach a non-entry module. None today. */
const ALLOWED_NON_ENTRY: readonly string[] = [];

/**
 * The modules that may load a module whose specifier is computed at run time (`import(x)`,
 * `new Worker(x)`), which no graph can follow. Anywhere else such a load fails the test.
 */
const LOADERS: Readonly<Record<string, string>> = {
  "lib/pipeline/scoring_state.ts": "imports each planned benchmark's scoring module by URL",
  "lib/core/parallel_map_worker.ts": "imports the module whose function it maps",
  // `lazy(name)` keeps command modules out of `score`'s start-up graph; design23.md §4 turns
  // it into one literal `new URL("./<command>.ts", import.meta.url)` per command.
  "lib/cli/runlens.ts": "imports the command modules lazily",
  "lib/cli/benchmark_command.ts": "imports each benchmark command by the URL its benchmark gives",
  "lib/scorers/user_rule.ts": "imports a user's rule module from the path the user gave",
  "lib/pipeline/pool.ts": "starts the Worker script it is given (default worker.ts; the " +
    "counting prototype of lib/bench/counts/ gives its own)",
  "tests/scoring_modules.test.ts": "imports the registered scoring modules, in a Worker too",
};

/**
 * The files outside lib/benchmarks/ that name a benchmark in code today, with the names, and
 * where the code is meant to go (design23.md §1.3, by its row number).
 */
const ALLOWED_NAMES: Readonly<Record<string, readonly string[]>> = {};

/**
 * How the registry's benchmarks may be spelled: name, label and data folder (tools' aliases such
 * as `bbeh_mini` hold the name, which already finds them).
 */
const spellings = () =>
  benchmarks().flatMap((b) => [b.name, b.label, ...b.data ? [b.data.folder] : []]);

/** Each finding against its allowed list: the new ones and the stale entries both fail. */
function assertOnly(found: readonly string[], allowed: readonly string[], what: string) {
  const { unexpected, stale } = againstAllowed(found, allowed);
  assert.deepEqual(unexpected, [], `new ${what}`);
  assert.deepEqual(stale, [], `${what} listed as allowed but no longer found: remove them`);
}

/** A file → names map as `file: name` lines. */
const nameLines = (m: Iterable<readonly [string, readonly string[]]>) =>
  [...m].flatMap(([file, names]) => names.map((n) => `${file}: ${n}`));

/** The checks of this file on the tree at `root` (the real one, or the planted one). */
function check(root: string, work: string) {
  const runtime = runtimeEdges(root, work);
  const graph: Graph = merged(moduleGraph(root, work), runtime.edges);
  return {
    graph,
    computed: runtime.computed,
    unranked: unranked(graph),
    upward: upwardEdges(graph),
    cycles: cycles(targets(graph)).map((c) => c.join(" ↔ ")),
    folderCycles: folderCycles(graph).map((c) => c.join(" ↔ ")),
    nonEntry: nonEntryImports(graph),
    names: nameLines(benchmarkNames(root, spellings())),
  };
}

const repo = check(REPO, WORK_DIR);

Deno.test("the graph covers lib/, tests/ and the notebooks, with type and URL edges", () => {
  const modules = [...repo.graph.keys()];
  const count = (prefix: string) => modules.filter((m) => m.startsWith(prefix)).length;
  assert.ok(count("lib/") > 200, `${count("lib/")} lib/ modules`);
  assert.ok(count("tests/") > 100, `${count("tests/")} tests/ modules`);
  assert.ok(count("notebooks/") >= 5, `${count("notebooks/")} notebooks`);
  const edges = [...repo.graph.values()].flat();
  for (const kind of ["import", "type", "dynamic", "url"]) {
    assert.ok(edges.some((e) => e.kind === kind), `no ${kind} edge`);
  }
  // the edges the old test missed: a Worker's module and a type-only import
  assert.ok(
    repo.graph.get("lib/pipeline/pool.ts")!.some((e) =>
      e.to === "lib/pipeline/worker.ts" && e.kind === "url"
    ),
  );
  assert.ok(
    repo.graph.get("notebooks/01_bbeh_leaderboard.ipynb")!.some((e) =>
      e.to === "lib/benchmarks/mod.ts"
    ),
  );
});

Deno.test("lib/: every module lies in a known layer", () => {
  assert.deepEqual(repo.unranked, [], `folders without a rank in ${Object.keys(LAYERS)}`);
});

Deno.test("no import cycle between modules, type imports and run-time URLs included", () => {
  assertOnly(repo.cycles, ALLOWED_CYCLES, "import cycles");
});

Deno.test("lib/: imports only go down the layers, type imports and run-time URLs included", () => {
  assertOnly(repo.upward, ALLOWED_UPWARD, "upward imports");
});

Deno.test("lib/benchmarks/: no cycle between benchmark folders", () => {
  assert.deepEqual(repo.folderCycles, []);
});

Deno.test("notebooks and tests/public/ import only the public entries", () => {
  assertOnly(repo.nonEntry, ALLOWED_NON_ENTRY, "imports of non-entry modules");
});

Deno.test("a module is loaded by a computed specifier only in the listed loaders", () => {
  const modules = [...new Set(repo.computed.map((c) => c.slice(0, c.indexOf(":"))))];
  const elsewhere = repo.computed.filter((c) => !(c.slice(0, c.indexOf(":")) in LOADERS));
  assert.deepEqual(elsewhere, [], "computed imports outside the loaders (make them literal)");
  assertOnly(modules, Object.keys(LOADERS), "loaders");
});

Deno.test("nothing outside lib/benchmarks/ names a benchmark, but the listed files", () => {
  assertOnly(
    repo.names,
    nameLines(Object.entries(ALLOWED_NAMES)),
    "benchmark names outside lib/benchmarks/",
  );
});

Deno.test("each benchmark's scoring module lies in its own folder", () => {
  for (const b of benchmarks().filter((x) => x.scoringModule)) {
    const folder = new URL(`../lib/benchmarks/${b.name}/`, import.meta.url).href;
    assert.ok(b.scoringModule!.startsWith(folder), `${b.name}: ${b.scoringModule}`);
  }
});

Deno.test("the checks find exactly the violations planted in tests/fixtures/layers/", () => {
  const planted = check(join(REPO, "tests/fixtures/layers"), join(WORK_DIR, "fixture"));
  assert.deepEqual(planted.upward, [
    "lib/pipeline/b.ts → lib/report/c.ts (type)",
    "lib/pipeline/b.ts → lib/cli/d.ts (url)",
  ]);
  assert.deepEqual(planted.cycles, ["lib/logs/cycle_a.ts ↔ lib/logs/cycle_b.ts"]);
  assert.deepEqual(planted.folderCycles, ["p ↔ q"]);
  assert.deepEqual(planted.nonEntry, [
    "tests/public/api.ts → lib/core/a.ts (import)",
    "notebooks/n.ipynb → lib/pipeline/b.ts (import)",
  ]);
  assert.deepEqual(planted.computed, [
    "lib/cli/d.ts:1: export const load = (module: string) => import(module); // planted: a computed import",
  ]);
  // the string "bbeh", not the comments naming BBEH, BBH and BBM, nor lib/benchmarks/p/
  assert.deepEqual(planted.names, ["lib/pipeline/b.ts: bbeh"]);
  assert.deepEqual(planted.unranked, []);
  // the allowed lists catch both a new finding and a stale entry
  assert.deepEqual(againstAllowed(["a", "b"], ["b", "c"]), { unexpected: ["a"], stale: ["c"] });
});

Deno.test("lex: comments go, string, template and regex literals stay", () => {
  const source = [
    'const a = "bbeh // not a comment"; // bbh',
    "/** JSDoc with a quote ' and `tick */",
    "const r = /['\"\\/]bbm[/]/g, half = x / 2 / y;",
    "const t = `arb ${cond ? `in ${'nested'}` : { k: 1 }.k} end`; /* gone */ const z = 1;",
  ].join("\n");
  const { code, literals } = lex(source);
  assert.equal(code.length, source.length);
  assert.equal(code.split("\n").length, 4);
  assert.deepEqual(
    literals.map((l) => [l.kind, l.text, l.computed]),
    [
      ["string", "bbeh // not a comment", false],
      ["regex", "['\"\\/]bbm[/]", false],
      ["template", "arb ${} end", true],
      ["template", "in ${}", true],
      ["string", "nested", false],
    ],
  );
  assert.deepEqual(words(code), [
    "const",
    "a",
    "const",
    "r",
    "g",
    "half",
    "x",
    "2",
    "y",
    "const",
    "t",
    "cond",
    "k",
    "1",
    "k",
    "const",
    "z",
    "1",
  ]);
});

Deno.test("words: split on case, separators and digits", () => {
  assert.deepEqual(words("loadBbehDataset"), ["load", "bbeh", "dataset"]);
  assert.deepEqual(words("BBEHLeaderboard bbh_cot-fewshot/x"), [
    "bbeh",
    "leaderboard",
    "bbh",
    "cot",
    "fewshot",
    "x",
  ]);
  assert.deepEqual(words("gsm8k BIG-Bench Mistake"), ["gsm", "8", "k", "big", "bench", "mistake"]);
  assert.deepEqual(words("arbitrary barb"), ["arbitrary", "barb"]);
});
