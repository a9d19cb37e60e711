/**
 * What a scoring Worker (or the main thread, for a one-Worker load) holds to score units: the
 * benchmarks' scoring parts loaded by module URL (`Benchmark.scoringModule`, polars-free), one
 * {@link ExampleIndex} over their released examples, the scorer of each benchmark's rows, the
 * sources and the limits. Built from a {@link ScoringSetup}, which is plain data, so it can be
 * posted to Workers.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { DEFAULT_LIMITS } from "@runlens/logs/limits.ts";
 * const module = new URL("../benchmarks/bbeh/scoring.ts", import.meta.url).href;
 * const { state, unavailable } = await buildScoringState({
 *   dataDir: resolveDataDir(),
 *   benchmarks: [{ module, scorer: "bbeh-official" }],
 *   limits: DEFAULT_LIMITS,
 * });
 * assert.deepEqual([state.scorers.get("bbeh")?.name, unavailable], ["bbeh-official", []]);
 * ```
 * @module
 */
import type { BenchmarkScoring, ExampleSet } from "../benchmarks/types.ts";
import { sourceFor } from "../logs/sources/all.ts";
import type { SourceLimits } from "../logs/sources/types.ts";
import { isCanonicalField } from "../logs/mapped.ts";
import { GENERIC_SCORERS } from "../scorers/generic.ts";
import type { ScalarScorer } from "../scorers/types.ts";
import { loadRule, type RuleSpec } from "../scorers/user_rule.ts";
import { ExampleIndex } from "./examples.ts";
import { Labels } from "./labels.ts";
import { slotOf } from "./record_fields.ts";
import type { ScoringState } from "./score_unit.ts";

/** Plain data from which every Worker builds the same {@link ScoringState}. */
export interface ScoringSetup {
  /** The data directory holding the released data sets. */
  dataDir: string;
  /**
   * Each planned benchmark: its scoring module (exports `scoring`) and the scorer of its rows
   * (`load_plan.ts`), or null and why it has none.
   */
  benchmarks: readonly { module: string; scorer: string | null; unscored?: string | null }[];
  /** Rows of a benchmark without a scorer: stop the load (`error`) or `quarantine` them. */
  unscored?: "error" | "quarantine";
  /** Only these benchmarks (the user's `--benchmark`); absent: all of them. */
  only?: readonly string[];
  limits: SourceLimits;
  /** A user's rule (`--answer-pattern`, `--scorer ./rule.ts`), scoring rows under its name. */
  rule?: RuleSpec;
  /**
   * The benchmarks whose `prepare` runs before scoring (a costly library: ARB's computer
   * algebra), those the load's rows may be of (`engine.ts` `preparedFor`); absent: none.
   */
  prepare?: readonly string[];
}

/** A benchmark whose data set could not be read, and why. */
export interface Unavailable {
  benchmark: string;
  reason: string;
}

/**
 * Load the scoring parts and index their examples. A benchmark whose data set is missing is
 * left out and listed in `unavailable` (the caller decides whether that is fatal); an unknown
 * scorer name throws. Task files are read and indexed when a record first needs them (a small
 * load of a few tasks reads a few files), so a task file that is present but malformed is the
 * error of the log file whose record needed it. `examplesOf` gives a benchmark's examples
 * (the main thread: the load's data sets, read once, `data_sets.ts`); default: its
 * `readExamples` (a Worker).
 */
export async function buildScoringState(
  setup: ScoringSetup,
  examplesOf: (scoring: BenchmarkScoring) => ExampleSet = (s) => s.readExamples(setup.dataDir),
): Promise<{ state: ScoringState; unavailable: Unavailable[] }> {
  const loaded: BenchmarkScoring[] = [];
  const indexed: { scoring: BenchmarkScoring; examples: ExampleSet }[] = [];
  const scorers = new Map<string, ScalarScorer>();
  const unscored = new Map<string, string>();
  const unavailable: Unavailable[] = [];
  const rule = setup.rule ? await loadRule(setup.rule) : null;
  await prepareScoring(setup);
  for (const { module, scorer, unscored: why } of setup.benchmarks) {
    const scoring = (await import(module)).scoring as BenchmarkScoring;
    loaded.push(scoring);
    if (scorer !== null) scorers.set(scoring.name, scorerNamed(scoring, scorer, rule));
    else unscored.set(scoring.name, why ?? `no scorer for ${scoring.name} rows`);
    try {
      indexed.push({ scoring, examples: examplesOf(scoring) });
    } catch (e) {
      unavailable.push({ benchmark: scoring.name, reason: (e as Error).message });
    }
  }
  const formats = loaded.flatMap((s) => s.formats ?? []); // the benchmarks' own log formats
  const scorings = indexed.map((x) => x.scoring);
  const state: ScoringState = {
    identifier: new ExampleIndex(indexed),
    ...recordRules(scorings),
    scorers,
    unscored,
    unscoredRows: setup.unscored ?? "error",
    sourceFor: (file) => sourceFor(file, formats),
    limits: setup.limits,
    benchmarks: setup.only,
    defaultBenchmark: indexed.find((x) => x.scoring.canonicalDefault)?.scoring.name,
    labels: new Labels(loaded),
  };
  return { state, unavailable };
}

/**
 * Run the `prepare` of the setup's benchmarks listed in `setup.prepare`, in this thread (a
 * module already imported is not imported again).
 */
export async function prepareScoring(setup: Pick<ScoringSetup, "benchmarks" | "prepare">) {
  for (const { module } of setup.benchmarks) {
    const scoring = (await import(module)).scoring as BenchmarkScoring;
    if (setup.prepare?.includes(scoring.name)) await scoring.prepare?.();
  }
}

/**
 * What the check step needs of the benchmarks' records: each record field's `parse` (by where
 * it goes; a canonical field's other name is read as that field, and not parsed), and the
 * benchmarks whose rows may lack a response or a verdict.
 */
function recordRules(
  scorings: readonly BenchmarkScoring[],
): Pick<ScoringState, "recordParsers" | "nullResponse" | "nullVerdict"> {
  // by benchmark: two benchmarks may parse one slot otherwise (ARB's answer type and a toy's
  // level are both `subset`); "" for files no benchmark's fields name: the first one's parse
  const parsers = new Map<string, Map<string, (value: unknown) => unknown>>([["", new Map()]]);
  for (const s of scorings) {
    const own = new Map<string, (value: unknown) => unknown>();
    for (const f of s.recordFields ?? []) {
      const slot = slotOf(f);
      if (!f.parse || isCanonicalField(slot)) continue;
      if (!own.has(slot)) own.set(slot, f.parse);
      if (!parsers.get("")!.has(slot)) parsers.get("")!.set(slot, f.parse);
    }
    parsers.set(s.name, own);
  }
  const nullResponse = new Set(scorings.filter((s) => s.nullResponse === "row").map((s) => s.name));
  const nullVerdict = new Set(scorings.filter((s) => s.nullVerdict === "row").map((s) => s.name));
  return {
    ...parsers.get("")!.size > 0 ? { recordParsers: parsers } : {},
    ...nullResponse.size > 0 ? { nullResponse } : {},
    ...nullVerdict.size > 0 ? { nullVerdict } : {},
  };
}

/**
 * A benchmark's own scorer, a generic one or the user's rule, by name: the plan chose it
 * (`load_plan.ts`), so one that is not there is an internal error.
 */
function scorerNamed(
  scoring: BenchmarkScoring,
  name: string,
  rule: ScalarScorer | null,
): ScalarScorer {
  const all = [...scoring.scorers, ...GENERIC_SCORERS, ...rule ? [rule] : []];
  const found = all.find((s) => s.name === name);
  if (!found) throw new Error(`internal error: scorer ${name} is not a scorer of ${scoring.name}`);
  return found;
}
