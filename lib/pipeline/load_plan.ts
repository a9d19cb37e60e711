/**
 * The load plan: every option of a load resolved ONCE, at the top, before any log is read
 * ({@link resolveLoadPlan}) — which benchmarks are planned and the scorer of each one's rows
 * (its own rule, a registered scorer chosen for every benchmark it applies to, one chosen per
 * benchmark, or the user's rule), the lm-eval filter kept, how the logs are read, the cache.
 * Below it only the plan travels: discovery and planning, the scoring Workers (`engine.ts`),
 * the cache key and the summaries read it and never resolve a scorer again.
 *
 * A wrong choice is a {@link ScorerChoiceError} (the CLI's exit 2), thrown here when the options
 * alone show it: an unknown scorer or benchmark, a module that is no rule, a scorer that
 * applies to none of the planned benchmarks, or — when `--benchmark` names them — to one of
 * them. Which benchmarks the logs hold is known only once their rows are tied to examples, so
 * a planned benchmark without a scorer carries the reason in {@link PlannedBenchmark.unscored}:
 * its first tied row stops the load with that reason ({@link UnscoredRowsError}), before
 * anything is summarised or cached — or, with `unscored: "quarantine"`, its rows are
 * quarantined with it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const plan = await resolveLoadPlan(resolveDataDir(), { scorer: "last-line" });
 * assert.deepEqual(plan.benchmarks.map((p) => [p.benchmark.name, p.scorer?.name ?? null]), [
 *   ["bbeh", null], // last-line is a BBH rule: BBEH rows would stop the load
 *   ["bbh", "last-line"],
 *   ["bbm", null],
 *   ["arb", null],
 *   ["gsm8k", null],
 * ]);
 * assert.match(plan.benchmarks[0].unscored!, /^scorer last-line does not apply to the bbeh rows/);
 * // named with --benchmark, the same choice is an error before any file is read
 * await assert.rejects(resolveLoadPlan(resolveDataDir(), { scorer: "last-line", benchmarks: ["bbeh"] }),
 *   /^Error: scorer last-line does not apply to bbeh \(--benchmark bbeh\); scorers for bbeh: /);
 * ```
 * @module
 */
import { benchmarks, getBenchmark, SCORER_NAMES, SCORERS } from "../benchmarks/registry.ts";
import type { Benchmark } from "../benchmarks/types.ts";
import type { Format } from "../logs/discover.ts";
import { withLimits } from "../logs/limits.ts";
import { type ColumnMap, isCanonicalField } from "../logs/mapped.ts";
import { fromColumnMap } from "../logs/sources/fields.ts";
import type { FieldMapping, RecordSource, SourceLimits } from "../logs/sources/types.ts";
import { appliesTo, type Scorer } from "../scorers/types.ts";
import type { RuleSpec } from "../scorers/user_rule.ts";
import { cacheDir } from "./cache.ts";
import { DataSets } from "./data_sets.ts";
import { type RecordPlan, recordPlan } from "./record_fields.ts";
import type { RunBy } from "./plan.ts";
import { chooseScorer, ScorerChoiceError, scorersFor } from "./scorer_choice.ts";
import { UnscoredRowsError } from "./score_unit.ts";

export { ScorerChoiceError, UnscoredRowsError };

/** The options a plan is resolved from (`LoadOptions` of `load.ts`, which extends these). */
export interface PlanOptions {
  /** A forced reader format, or `auto` (detect each file; the default). */
  format?: Format | "auto";
  /** `--map`: fields of generic JSONL/CSV logs, over the detected ones. */
  map?: ColumnMap;
  /** A scorer for every planned benchmark it applies to: a registered name or a module path. */
  scorer?: string;
  /** A registered scorer per benchmark (`--scorer bbh=lm-eval-strict`), over `scorer`. */
  scorers?: Readonly<Record<string, string>>;
  /**
   * Per benchmark without a default scorer, how the caller lets the user choose one (a
   * command's own flag, an environment variable): the reason its rows are not scored says so
   * (default: `--scorer <benchmark>=NAME`).
   */
  scorerHints?: Readonly<Record<string, string>>;
  /** The user's rule as a regular expression (not together with `scorer`). */
  answerPattern?: string;
  /** The lm-eval filter kept when a file has several (default: the chosen scorer's). */
  lmEvalFilter?: string;
  /** Only these benchmarks (`--benchmark`). */
  benchmarks?: readonly string[];
  /**
   * Rows of a planned benchmark without a scorer: `error` (default) stops the load at the
   * first one with the reason; `quarantine` sets them apart with it.
   */
  unscored?: "error" | "quarantine";
  /** How records get their run (`--run-by`; default `auto`). */
  runBy?: RunBy;
  /** Scoring Workers (default: one per core; small loads are scored in this thread). */
  workers?: number;
  /** The readers' limits (`--max-depth` and the like), over the defaults. */
  limits?: Partial<SourceLimits>;
  /** Throw at the first file that cannot be read (`--strict`), rather than list it in `errors`. */
  strict?: boolean;
  /** The cache folder, true for the default one; false or absent: none. */
  cache?: string | boolean;
}

/** One benchmark of a plan, with the scorer of its rows. */
export interface PlannedBenchmark {
  benchmark: Benchmark;
  /** The scorer of its rows; null: {@link unscored} says why. */
  scorer: Scorer | null;
  /** Why its rows have no scorer (null: they have one). */
  unscored: string | null;
}

/** A load resolved: what every stage below reads instead of the options. */
export interface LoadPlan {
  dataDir: string;
  /** The benchmarks rows may be tied to, in registry order (filtered by `--benchmark`). */
  benchmarks: readonly PlannedBenchmark[];
  /** The benchmarks `--benchmark` named (null: not given). */
  only: readonly string[] | null;
  /** What rows of a benchmark without a scorer become. */
  unscored: "error" | "quarantine";
  /** The user's rule as plain data, which Workers load (null: none). */
  rule: RuleSpec | null;
  read: {
    format: Format | "auto";
    /** `--map`'s canonical fields (null: none). */
    map: FieldMapping | null;
    /** The planned benchmarks' record fields and `--map`'s items of them (null: none). */
    records: RecordPlan | null;
    runBy: RunBy | undefined;
    limits: SourceLimits;
    strict: boolean;
    workers: number | undefined;
    /** The lm-eval filter kept when a file has several (null: each file's first). */
    lmEvalFilter: string | null;
  };
  /** The cache folder (null: no cache). */
  cache: { dir: string } | null;
  /** The data sets of `dataDir`, each read once for the whole load (`data_sets.ts`). */
  dataSets: DataSets;
}

/**
 * Resolve `options` into a {@link LoadPlan} for the data in `dataDir`. Loads and checks the
 * user's rule module; throws {@link ScorerChoiceError} for every choice the options alone show
 * wrong (see the module doc). Reads no log.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const plan = await resolveLoadPlan(resolveDataDir(), { scorers: { bbh: "lm-eval-strict" } });
 * assert.deepEqual(plan.benchmarks.map((p) => p.scorer?.name), [
 *   "bbeh-official",
 *   "lm-eval-strict",
 *   undefined, // bbm: no default, its step numbering is the user's to state
 *   "arb",
 *   "gsm8k-number",
 * ]);
 * assert.equal(plan.read.lmEvalFilter, "strict-match"); // the filter the chosen rule reproduces
 * await assert.rejects(resolveLoadPlan(resolveDataDir(), { scorers: { bbh: "bbeh-official" } }),
 *   /^Error: --scorer bbh=bbeh-official: scorer bbeh-official does not apply to bbh; /);
 * ```
 */
export async function resolveLoadPlan(
  dataDir: string,
  options: PlanOptions = {},
): Promise<LoadPlan> {
  const only = options.benchmarks ?? null;
  const planned = plannedBenchmarks(only);
  const choice = await chooseScorer(options);
  const perBenchmark = chosenPerBenchmark(options.scorers ?? {}, planned);
  const scorerOf = (b: Benchmark) => perBenchmark.get(b.name) ?? choice?.scorer;
  const hints = options.scorerHints ?? {};
  const list = planned.map((b) => plannedScorer(b, scorerOf(b), choice?.scorer, hints[b.name]));
  if (choice !== null) checkApplies(choice.scorer, list, only);
  const named = list.filter((p) => only?.includes(p.benchmark.name) && p.unscored !== null);
  if (named.length > 0) throw new ScorerChoiceError(named[0].unscored!);
  const chosen = [choice?.scorer, ...perBenchmark.values()];
  const map = splitMap(options.map ?? [], planned);
  return {
    dataDir,
    benchmarks: list,
    only,
    unscored: options.unscored ?? "error",
    rule: choice?.rule ?? null,
    read: {
      format: options.format ?? "auto",
      map: map.canonical,
      records: recordPlan(planned, map.record, mapNames(options.map ?? [])),
      runBy: options.runBy,
      limits: withLimits(options.limits ?? {}),
      strict: options.strict ?? false,
      workers: options.workers,
      lmEvalFilter: options.lmEvalFilter ?? chosen.find((s) => s?.lmEvalFilter)?.lmEvalFilter ??
        null,
    },
    cache: options.cache ? { dir: cacheDir(options.cache === true ? null : options.cache) } : null,
    dataSets: new DataSets(dataDir),
  };
}

/** The fields `--map` names, as written (`subject=subj` → `subject`). */
function mapNames(map: ColumnMap): string[] {
  return map.map((m) => m.spec.split("=")[0].trim());
}

/**
 * `--map`'s canonical fields (a field mapping, null when it names none) and its record-field
 * items, each a field of a planned benchmark (else a {@link ScorerChoiceError}: a usage error).
 */
function splitMap(
  map: ColumnMap,
  planned: readonly Benchmark[],
): { canonical: FieldMapping | null; record: readonly RecordSource[] } {
  const canonical = map.filter((m) => isCanonicalField(m.field));
  const record = map.filter((m) => !isCanonicalField(m.field));
  const known = new Set(
    planned.flatMap((b) => (b.recordFields ?? []).flatMap((f) => [f.name, f.as ?? f.name])),
  );
  const other = record.find((m) => !known.has(m.field));
  if (other) {
    throw new ScorerChoiceError(
      `--map ${other.spec}: not a field of the benchmarks loaded (${
        planned.map((b) => b.name).join(", ")
      })`,
    );
  }
  return {
    canonical: canonical.length > 0 ? fromColumnMap(canonical) : null,
    record: record.length > 0 ? fromColumnMap(record).record! : [],
  };
}

/**
 * The name of the scorer of a benchmark's rows in `plan` ("" when it has none: a benchmark
 * outside the plan, or one its `unscored` explains).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const plan = await resolveLoadPlan(resolveDataDir());
 * assert.deepEqual([scorerName(plan, "bbh"), scorerName(plan, "bbm")], ["bbh-release-cot", ""]);
 * ```
 */
export function scorerName(plan: LoadPlan, benchmark: string): string {
  return plan.benchmarks.find((p) => p.benchmark.name === benchmark)?.scorer?.name ?? "";
}

/**
 * The registered benchmarks a load may tie rows to: those with a scoring part, in registry
 * order (with or without a default scorer).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(loadableBenchmarks().map((b) => b.name).slice(0, 2), ["bbeh", "bbh"]);
 * ```
 */
export function loadableBenchmarks(): Benchmark[] {
  return benchmarks().filter((b) => b.scoringModule);
}

/**
 * The benchmarks a load ties rows to: {@link loadableBenchmarks}, only those `--benchmark`
 * names when given (a name that is not one of them throws).
 */
function plannedBenchmarks(only: readonly string[] | null): Benchmark[] {
  const all = loadableBenchmarks();
  if (only === null) return all;
  for (const name of only) {
    if (!all.some((b) => b.name === name)) {
      throw new ScorerChoiceError(
        `--benchmark ${name}: one of ${all.map((b) => b.name).join(", ")}`,
      );
    }
  }
  return all.filter((b) => only.includes(b.name));
}

/** Benchmark → the registered scorer chosen for it (`--scorer b=name`), each checked. */
function chosenPerBenchmark(
  scorers: Readonly<Record<string, string>>,
  planned: readonly Benchmark[],
): Map<string, Scorer> {
  const out = new Map<string, Scorer>();
  for (const [name, scorerName] of Object.entries(scorers)) {
    const label = `--scorer ${name}=${scorerName}`;
    const b = getBenchmark(name);
    if (!b) {
      const known = benchmarks().map((x) => x.name).join(", ");
      throw new ScorerChoiceError(`${label}: unknown benchmark "${name}" (registered: ${known})`);
    }
    if (!planned.includes(b)) {
      throw new ScorerChoiceError(
        `${label}: ${b.name} is not among the benchmarks loaded (${
          planned.map((x) => x.name).join(", ")
        })`,
      );
    }
    const s = SCORERS.find((x) => x.name === scorerName);
    if (!s) {
      throw new ScorerChoiceError(
        `${label}: unknown scorer "${scorerName}"; scorers: ${SCORER_NAMES.join(", ")}`,
      );
    }
    if (!appliesTo(s, b.name)) {
      throw new ScorerChoiceError(
        `${label}: scorer ${s.name} does not apply to ${b.name}; ${scorersFor(b.name)}`,
      );
    }
    out.set(b.name, s);
  }
  return out;
}

/**
 * A benchmark with the scorer of its rows: the one chosen for it where it applies, else its
 * own rule — unless a scorer chosen for every benchmark does not apply to it (then none: the
 * choice was meant for its rows too), or it has no rule of its own.
 */
function plannedScorer(
  b: Benchmark,
  chosen: Scorer | undefined,
  forAll: Scorer | undefined,
  hint: string | undefined,
): PlannedBenchmark {
  if (chosen && appliesTo(chosen, b.name)) return { benchmark: b, scorer: chosen, unscored: null };
  if (forAll) {
    return {
      benchmark: b,
      scorer: null,
      unscored: `scorer ${forAll.name} does not apply to the ${b.name} rows of these logs; ` +
        scorersFor(b.name),
    };
  }
  if (b.defaultScorer) {
    return {
      benchmark: b,
      scorer: SCORERS.find((s) => s.name === b.defaultScorer)!,
      unscored: null,
    };
  }
  const names = SCORERS.filter((s) => appliesTo(s, b.name)).map((s) => s.name).join(", ");
  return {
    benchmark: b,
    scorer: null,
    unscored: `${b.name} rows need a scorer: ${hint ?? `--scorer ${b.name}=NAME (${names})`}`,
  };
}

/**
 * A scorer chosen for every benchmark must apply to one of the planned ones, and to each one
 * `--benchmark` names.
 */
function checkApplies(
  s: Scorer,
  list: readonly PlannedBenchmark[],
  only: readonly string[] | null,
): void {
  for (const b of only ?? []) {
    if (!appliesTo(s, b)) {
      throw new ScorerChoiceError(
        `scorer ${s.name} does not apply to ${b} (--benchmark ${b}); ${scorersFor(b)}`,
      );
    }
  }
  const names = list.map((p) => p.benchmark.name);
  if (!names.some((b) => appliesTo(s, b))) {
    throw new ScorerChoiceError(
      `scorer ${s.name} applies to none of ${names.join(", ")}; ` +
        names.map(scorersFor).join("; "),
    );
  }
}

/**
 * A scorer must apply to every benchmark in `tied` (those a load's rows were tied to); throws
 * {@link ScorerChoiceError} naming the scorers of one it does not apply to. For rows already
 * loaded and scored again (`rescore.ts`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getScorer } from "@runlens/benchmarks/registry.ts";
 * checkScorerFits(getScorer("lenient"), new Set(["bbh", "bbeh"]));
 * assert.throws(() => checkScorerFits(getScorer("last-line"), new Set(["bbeh"])),
 *   /^Error: scorer last-line does not apply to the bbeh rows of these logs; scorers for bbeh: /);
 * ```
 */
export function checkScorerFits(s: Scorer, tied: ReadonlySet<string>): void {
  for (const b of benchmarks()) {
    if (tied.has(b.name) && !appliesTo(s, b.name)) {
      throw new ScorerChoiceError(
        `scorer ${s.name} does not apply to the ${b.name} rows of these logs; ${
          scorersFor(b.name)
        }`,
      );
    }
  }
}
