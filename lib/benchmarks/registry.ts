/**
 * The registered benchmarks and scorers. Adding a benchmark = its folder (with a
 * `benchmark.ts` exporting a {@link Benchmark}) and one line in `built_in.ts` (plus its
 * namespace in `mod.ts`); a test or a script can add one at run time with
 * {@link registerBenchmark}.
 *
 * Benchmarks are listed by their `listOrder`. Scorers are the benchmarks' own (in that order)
 * followed by the rules that apply to any benchmark (`stored`, `lenient`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(getBenchmark("bbeh")?.label, "BBEH");
 * assert.deepEqual(getScorer("last-line").benchmarks, ["bbh"]);
 * assert.deepEqual(scoredBenchmarks().map((b) => b.name), ["bbeh", "bbh", "arb", "gsm8k"]);
 * assert.deepEqual(SCORER_NAMES.slice(-2), ["stored", "lenient"]); // the generic rules come last
 * ```
 * @module
 */
import * as builtIn from "./built_in.ts";
import type { Benchmark } from "./types.ts";
import { GENERIC_SCORERS } from "../scorers/generic.ts";
import type { Scorer } from "../scorers/types.ts";
import type { LogFormat } from "../logs/discover.ts";

/** Listing order: by `listOrder`, those without one after, by name. */
function byListOrder(a: Benchmark, b: Benchmark): number {
  const order = (x: Benchmark) => x.listOrder ?? Number.MAX_SAFE_INTEGER;
  return order(a) - order(b) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

/** The benchmarks runlens ships, in the order they are listed. */
const BUILT_IN: readonly Benchmark[] = Object.values(builtIn).sort(byListOrder);

const registered: Benchmark[] = [...BUILT_IN];

/**
 * Every registered scorer: each benchmark's own (in registry order), then the generic ones.
 * Kept up to date by {@link registerBenchmark}.
 */
export const SCORERS: readonly Scorer[] = [];
/** The names of {@link SCORERS}, in order. */
export const SCORER_NAMES: readonly string[] = [];

function refreshScorers(): void {
  const all = [...registered.flatMap((b) => b.scorers), ...GENERIC_SCORERS];
  const unique = all.filter((s, i) => all.findIndex((t) => t.name === s.name) === i);
  (SCORERS as Scorer[]).splice(0, SCORERS.length, ...unique);
  (SCORER_NAMES as string[]).splice(0, SCORER_NAMES.length, ...unique.map((s) => s.name));
}
refreshScorers();

/**
 * Every registered benchmark, in registry order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(benchmarks().map((b) => b.name), ["bbeh", "bbh", "bbm", "arb", "gsm8k"]);
 * ```
 */
export function benchmarks(): readonly Benchmark[] {
  return registered;
}

/**
 * The benchmarks whose rows the pipeline scores: those with a data set, a default scorer and
 * aggregates.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(scoredBenchmarks().map((b) => b.name), ["bbeh", "bbh", "arb", "gsm8k"]);
 * ```
 */
export function scoredBenchmarks(): readonly Benchmark[] {
  return registered.filter((b) => b.readExamples && b.defaultScorer && b.aggregate);
}

/**
 * The benchmark registered under `name` (compared trimmed and lower-cased); undefined if none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(getBenchmark(" BBH ")?.name, "bbh");
 * assert.equal(getBenchmark("bbx"), undefined);
 * ```
 */
export function getBenchmark(name: string): Benchmark | undefined {
  const key = name.trim().toLowerCase();
  return registered.find((b) => b.name === key);
}

/**
 * Add a benchmark (and its scorers) to the registry. Throws when the name, or one of its
 * scorers' names, is taken.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { Benchmark } from "@runlens/benchmarks/types.ts";
 * const toy: Benchmark = {
 *   name: "toy",
 *   label: "Toy",
 *   description: "One task of arithmetic questions.",
 *   tasks: [{ name: "add", size: null }],
 *   canonicalTask: (label) => label.trim() === "add" ? "add" : null,
 *   scorers: [],
 * };
 * registerBenchmark(toy); // rows with benchmark "toy" now find it
 * assert.equal(getBenchmark("Toy"), toy);
 * assert.throws(() => registerBenchmark(toy), /a benchmark named "toy" is already registered/);
 * // with readExamples, defaultScorer and aggregate it is scored by loadRuns too: see
 * // tests/benchmark_registry.test.ts
 * ```
 */
export function registerBenchmark(benchmark: Benchmark): void {
  if (getBenchmark(benchmark.name)) {
    throw new Error(`a benchmark named "${benchmark.name}" is already registered`);
  }
  const taken = benchmark.scorers.filter((s) => SCORER_NAMES.includes(s.name));
  if (taken.length > 0) {
    throw new Error(`scorer name(s) already registered: ${taken.map((s) => s.name).join(", ")}`);
  }
  const canonical = registered.find((b) => b.canonicalDefault);
  if (benchmark.canonicalDefault && canonical) {
    throw new Error(`${canonical.name} is already the canonical default benchmark`);
  }
  registered.push(benchmark);
  refreshScorers();
}

/**
 * The log formats the registered benchmarks contribute (detectors and readers), in registry
 * order: what discovery and the readers add to the built-in formats.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(logFormats().map((f) => f.name), ["bbh-release-outputs"]);
 * ```
 */
export function logFormats(): LogFormat[] {
  return registered.flatMap((b) => b.formats ?? []);
}

/**
 * The scorer with this name; throws listing the registered names otherwise.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(getScorer("lm-eval-strict").needs, []);
 * assert.throws(() => getScorer("exact"), /unknown scorer "exact"; scorers are: bbeh-official, /);
 * ```
 */
export function getScorer(name: string): Scorer {
  const s = SCORERS.find((x) => x.name === name);
  if (!s) throw new Error(`unknown scorer "${name}"; scorers are: ${SCORER_NAMES.join(", ")}`);
  return s;
}
