/**
 * The house plan of lib/, checked on the real module graph (`deno info --json`):
 * - no import cycle between modules, and none between benchmark folders;
 * - imports only go down the layers: cli/bench → notebook/report → pipeline → benchmarks →
 *   logs/scorers → render → stats/data/setup → core. A layer may import its own folder and any
 *   layer below; folders of one layer do not import each other (benchmark folders may, without
 *   a cycle).
 */
import assert from "node:assert/strict";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Rank of each top folder of lib/ (and of lib/mod.ts): a module imports only ranks ≤ its own. */
const LAYERS: Record<string, number> = {
  core: 0,
  stats: 1,
  data: 1,
  setup: 1,
  render: 2,
  logs: 3,
  scorers: 3,
  benchmarks: 4,
  pipeline: 5,
  notebook: 6,
  report: 6,
  "mod.ts": 7,
  cli: 8,
  bench: 8,
};

/** lib/ modules and the lib/ modules each imports (paths relative to the repository). */
function moduleGraph(): Map<string, string[]> {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of Deno.readDirSync(dir)) {
      const p = join(dir, e.name);
      if (e.isDirectory) walk(p);
      else if (p.endsWith(".ts")) files.push(p);
    }
  };
  walk(join(ROOT, "lib"));
  const entry = join(ROOT, ".runlens", "imports_entry.ts");
  Deno.mkdirSync(dirname(entry), { recursive: true });
  Deno.writeTextFileSync(
    entry,
    files.map((f) => `import ${JSON.stringify("../" + relative(ROOT, f))};`).join("\n"),
  );
  const out = new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", entry],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).outputSync();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    modules: { specifier: string; dependencies?: { code?: { specifier: string } }[] }[];
  };
  const lib = `file://${join(ROOT, "lib")}/`;
  const graph = new Map<string, string[]>();
  for (const m of info.modules) {
    if (!m.specifier.startsWith(lib)) continue;
    const deps = (m.dependencies ?? []).map((d) => d.code?.specifier)
      .filter((s): s is string => s !== undefined && s.startsWith(lib))
      .map((s) => "lib/" + s.slice(lib.length));
    graph.set("lib/" + m.specifier.slice(lib.length), deps);
  }
  return graph;
}

/** Strongly connected components with more than one node (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
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

/** The layer folder of a module: `lib/<folder>/…` → folder; `lib/mod.ts` → "mod.ts". */
function layerOf(path: string): string {
  return path.split("/")[1];
}

/** The benchmark folder of a module under lib/benchmarks/ (null for other modules). */
function benchmarkOf(path: string): string | null {
  const parts = path.split("/");
  return parts[1] === "benchmarks" && parts.length > 3 ? parts[2] : null;
}

const graph = moduleGraph();

Deno.test("lib/: every module lies in a known layer", () => {
  const unknown = [...graph.keys()].filter((m) => !(layerOf(m) in LAYERS));
  assert.deepEqual(unknown, [], `modules outside the layers ${Object.keys(LAYERS).join(", ")}`);
});

Deno.test("lib/: no import cycle between modules", () => {
  assert.deepEqual(cycles(graph), []);
});

Deno.test("lib/: imports only go down the layers", () => {
  const upward: string[] = [];
  for (const [from, deps] of graph) {
    for (const to of deps) {
      const a = layerOf(from);
      const b = layerOf(to);
      if (LAYERS[b] > LAYERS[a] || (LAYERS[b] === LAYERS[a] && a !== b)) {
        upward.push(`${from} → ${to}`);
      }
    }
  }
  assert.deepEqual(upward, []);
});

Deno.test("lib/benchmarks/: no cycle between benchmark folders", () => {
  const folders = new Map<string, string[]>();
  for (const [from, deps] of graph) {
    const a = benchmarkOf(from);
    if (a === null) continue;
    for (const to of deps) {
      const b = benchmarkOf(to);
      if (b !== null && b !== a) folders.set(a, [...new Set([...(folders.get(a) ?? []), b])]);
    }
  }
  assert.deepEqual(cycles(folders), []);
});

Deno.test("the graph checks can fail: a planted cycle and an upward import are found", () => {
  const planted = new Map([
    ["lib/logs/a.ts", ["lib/logs/b.ts"]],
    ["lib/logs/b.ts", ["lib/logs/a.ts", "lib/pipeline/c.ts"]],
  ]);
  assert.deepEqual(cycles(planted), [["lib/logs/a.ts", "lib/logs/b.ts"]]);
  assert.ok(LAYERS[layerOf("lib/pipeline/c.ts")] > LAYERS[layerOf("lib/logs/b.ts")]);
});
