/**
 * The scoring parts Workers load are polars-free (importing polars costs a Worker ~0.4 s):
 * the run-time module graph (`deno info --json`, code dependencies only; `import type` is
 * erased) of each benchmark's `scoringModule` and of the generic scorers reaches no
 * `nodejs-polars`, while a frame module does (so the check cannot pass vacuously). Each
 * `scoring` export agrees with its registered benchmark, and a Worker can import one and
 * score with it.
 *
 * @module
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { benchmarks, getScorer } from "@runlens/benchmarks/registry.ts";
import type { BenchmarkScoring } from "@runlens/benchmarks/types.ts";
import { GENERIC_SCORERS, GENERIC_SCORERS_MODULE } from "@runlens/scorers/generic.ts";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

interface Info {
  roots: string[];
  redirects?: Record<string, string>;
  modules: { specifier: string; dependencies?: { code?: { specifier: string } }[] }[];
}

/** Every module loaded at run time by importing `url` (code dependencies, transitively). */
function runtimeModules(url: string): string[] {
  const out = new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", url],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).outputSync();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as Info;
  const redirects = info.redirects ?? {};
  const bySpecifier = new Map(info.modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const stack = [...info.roots];
  while (stack.length > 0) {
    const s0 = stack.pop()!;
    const s = redirects[s0] ?? s0;
    if (seen.has(s)) continue;
    seen.add(s);
    for (const d of bySpecifier.get(s)?.dependencies ?? []) {
      if (d.code) stack.push(d.code.specifier);
    }
  }
  return [...seen];
}

const polars = (mods: string[]) => mods.filter((m) => m.includes("nodejs-polars"));
const lib = (path: string) => new URL(`../lib/${path}`, import.meta.url).href;

const WORKER_MODULES = () => [
  ...benchmarks().flatMap((b) => b.scoringModule ? [b.scoringModule] : []),
  GENERIC_SCORERS_MODULE,
];

Deno.test("scoring modules and the generic scorers load no polars at run time", () => {
  const modules = WORKER_MODULES();
  assert.deepEqual(modules, [
    lib("benchmarks/bbeh/scoring.ts"),
    lib("benchmarks/bbh/scoring.ts"),
    lib("benchmarks/bbm/scoring.ts"),
    lib("benchmarks/arb/scoring.ts"),
    lib("benchmarks/gsm8k/scoring.ts"),
    lib("scorers/generic.ts"),
  ]);
  for (const url of modules) {
    const mods = runtimeModules(url);
    assert.ok(mods.length > 1, `${url}: ${mods.length} modules`);
    assert.deepEqual(polars(mods), [], `${url} loads polars`);
  }
  // the control: a frame module does load it, and the walk sees that
  assert.deepEqual(polars(runtimeModules(lib("scorers/frame.ts"))), ["npm:/nodejs-polars@0.25.2"]);
});

Deno.test("each scoring export agrees with its registered benchmark", async () => {
  for (const b of benchmarks().filter((x) => x.scoringModule)) {
    const { scoring } = await import(b.scoringModule!) as { scoring: BenchmarkScoring };
    assert.equal(scoring.name, b.name);
    assert.equal(scoring.label, b.label);
    assert.equal(scoring.defaultScorer, b.defaultScorer);
    assert.deepEqual(scoring.tasks, b.tasks);
    assert.deepEqual(scoring.truncatedInputs, b.truncatedInputs);
    assert.deepEqual(scoring.scorers.map((s) => s.name), b.scorers.map((s) => s.name));
    for (const s of scoring.scorers) assert.equal(getScorer(s.name), s, s.name);
    assert.equal(scoring.canonicalTask(b.tasks[0].name), b.tasks[0].name);
  }
  for (const s of GENERIC_SCORERS) assert.equal(getScorer(s.name), s);
});

Deno.test("a Worker imports a scoring module and scores with it", async () => {
  const source = `
    self.onmessage = async (e) => {
      const { scoring } = await import(e.data.module);
      const { GENERIC_SCORERS } = await import(e.data.generic);
      const s = scoring.scorers.find((x) => x.name === scoring.defaultScorer);
      self.postMessage({
        name: scoring.name,
        verdict: s.score("Thinking…\\nThe answer is: (B)", "(B)"),
        generic: GENERIC_SCORERS.map((x) => x.name),
      });
    };`;
  const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
  const worker = new Worker(url, { type: "module" });
  try {
    const reply = new Promise((resolve, reject) => {
      worker.onmessage = (e) => resolve(e.data);
      worker.onerror = (e) => reject(e);
    });
    worker.postMessage({
      module: lib("benchmarks/bbeh/scoring.ts"),
      generic: GENERIC_SCORERS_MODULE,
    });
    assert.deepEqual(await reply, {
      name: "bbeh",
      verdict: { extracted: "(b)", correct: true, found: true },
      generic: ["stored", "lenient"],
    });
  } finally {
    worker.terminate();
    URL.revokeObjectURL(url);
  }
});
