/**
 * Answer-format sensitivity of a run (an analysis beyond the papers): per task, the accuracy
 * under every scoring rule that applies to the run's benchmark, the share of responses with no
 * extractable answer under each, and the examples where the run's official rule and the
 * `lenient` rule disagree. The official rule stays the headline: nothing here changes it.
 *
 * The rules tried on a benchmark ({@link formatRules}) are its own scorers, in its order, then
 * the registered rules for any benchmark that read the response (`lenient`; not `stored`, which
 * keeps the log's verdict). A run's official rule ({@link officialScorer}) is its own `scorer`
 * when that is one of its benchmark's own rules, else the benchmark's default. Benchmarks
 * without a default scorer (the pipeline does not score their rows) are left out. No
 * benchmark is named here: a benchmark registered later gets the analysis as it is.
 *
 * "No answer" per rule: the rule found no answer (`answer_found` false, the scorer's
 * `Verdict.found`, as every summary counts it); each scorer's documentation says exactly when
 * (e.g. `bbh-release-cot`: neither "So the answer is " nor a one-line response; lm-eval rules:
 * "[invalid]" or ""; `lenient`: nothing extracted).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatSensitivity, formatSensitivityJson } from "@runlens/analyses/format_sensitivity.ts";
 * import { loadBbhReleaseOutputs } from "@runlens/benchmarks/bbh/release_outputs.ts";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const { rows } = loadBbhReleaseOutputs(resolveDataDir(), { tasks: ["navigate"] });
 * const long = formatSensitivity(rows); // run, task, scorer, n, correct, accuracy, no_answer, …
 * const cot = formatSensitivityJson(long, "code-davinci-002-cot"); // { navigate: { lenient, … } }
 * assert.deepEqual(cot.navigate.lenient, { n: 250, correct: 241, accuracy: 96.4, no_answer: 0 });
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { scoreFrame } from "../scorers/frame.ts";
import { appliesTo, type Scorer } from "../scorers/types.ts";
import { benchmarks, getBenchmark, getScorer, SCORERS } from "../benchmarks/registry.ts";
import type { Benchmark } from "../benchmarks/types.ts";

/** The analysis rule compared with the official one. */
export const LENIENT = "lenient";

/**
 * The rules tried on a benchmark's rows, by name: its own scorers in its order, then every
 * other registered rule that applies to it (a rule for any benchmark: `lenient` comes last)
 * and reads the response — `stored` does not (it keeps the log's verdict), so it is no
 * answer-format rule. Empty for a benchmark without a default scorer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getBenchmark } from "@runlens/benchmarks/registry.ts";
 * assert.deepEqual(formatRules(getBenchmark("bbeh")!), ["bbeh-official", "lenient"]);
 * assert.equal(formatRules(getBenchmark("bbh")!).length, 7); // six BBH rules, then lenient
 * assert.deepEqual(formatRules(getBenchmark("bbm")!), []); // no default scorer: not scored
 * ```
 */
export function formatRules(benchmark: Benchmark): string[] {
  if (benchmark.defaultScorer === undefined) return [];
  const own = benchmark.scorers.map((s) => s.name);
  const others = SCORERS.filter((s) =>
    !own.includes(s.name) && appliesTo(s, benchmark.name) && readsResponse(s)
  );
  return [...own, ...others.map((s) => s.name)];
}

/** Whether a rule's verdict comes from the response (not from the log's stored verdict). */
function readsResponse(scorer: Scorer): boolean {
  return !scorer.needs.includes("stored");
}

/**
 * The official rule of a run of `benchmark`: the run's own scorer when it is one of the
 * benchmark's own rules, else the benchmark's default (a rule for any benchmark, such as
 * `lenient` or `stored`, is never a benchmark's official rule). Throws for a benchmark that
 * is not registered or has no default scorer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(officialScorer("bbh", "bbh-release-direct"), "bbh-release-direct");
 * assert.equal(officialScorer("bbh", "stored"), "bbh-release-cot");
 * assert.equal(officialScorer("bbeh", "lenient"), "bbeh-official");
 * ```
 */
export function officialScorer(benchmark: string, runScorer: string | null): string {
  const b = getBenchmark(benchmark);
  if (b?.defaultScorer === undefined) {
    throw new Error(`officialScorer: "${benchmark}" is not a registered benchmark with a default`);
  }
  const own = runScorer !== null && b.scorers.some((s) => s.name === runScorer);
  return own ? runScorer : b.defaultScorer;
}

/**
 * Every row scored by every rule of its benchmark ({@link formatRules}): one row per (input
 * row, rule), by benchmark in registry order, then rule, then row, with `__row` (the input
 * row's position), `run`, `benchmark`, `task`, `example_index`, `scorer`, `official` (the
 * run's official rule), `extracted`, `correct`, `no_answer`. Rows of benchmarks without rules
 * (no default scorer, or not registered) are left out. `rows` needs `run`, `benchmark`,
 * `task`, `example_index`, `input`, `target`, `response`, `scorer`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { loadBbhReleaseOutputs } from "@runlens/benchmarks/bbh/release_outputs.ts";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const { rows } = loadBbhReleaseOutputs(resolveDataDir(), { tasks: ["navigate"] }); // 2 × 250
 * const scored = scoreAllRules(rows);
 * assert.equal(scored.height, 500 * 7); // BBH: 7 rules
 * const lenient = scored.filter(pl.col("scorer").eq(pl.lit("lenient")));
 * assert.deepEqual(lenient.row(0), [0, "code-davinci-002-cot", "bbh", "navigate", 0, "lenient",
 *   "bbh-release-cot", "no", true, false]); // __row … official, extracted, correct, no_answer
 * ```
 */
export function scoreAllRules(rows: pl.DataFrame): pl.DataFrame {
  const indexed = rows.withRowIndex("__row");
  const parts: pl.DataFrame[] = [];
  for (const b of benchmarks()) {
    const rules = formatRules(b);
    const sub = rules.length === 0 ? null : indexed.filter(pl.col("benchmark").eq(pl.lit(b.name)))
      .select("__row", "run", "benchmark", "task", "example_index", "input", "target", "response");
    if (sub === null || sub.height === 0) continue;
    for (const rule of rules) {
      parts.push(
        scoreFrame(sub.lazy(), getScorer(rule))
          // a row without a response or target was not scored: no answer either
          .withColumns(pl.col("answer_found").not().fillNull(true).alias("no_answer"))
          .select(
            pl.col("__row").cast(pl.Int64),
            "run",
            "benchmark",
            "task",
            "example_index",
            "scorer",
            "extracted",
            "correct",
            "no_answer",
          ),
      );
    }
  }
  if (parts.length === 0) return emptyScored();
  return pl.concat(parts).join(runOfficials(indexed), { on: ["run", "benchmark"], how: "left" })
    .select(
      "__row",
      "run",
      "benchmark",
      "task",
      "example_index",
      "scorer",
      "official",
      "extracted",
      "correct",
      "no_answer",
    );
}

/** The official rule of each (run, benchmark) with rules, from the run's first row's scorer. */
function runOfficials(rows: pl.DataFrame): pl.DataFrame {
  const firsts = (rows.groupBy(["run", "benchmark"]).agg(pl.col("scorer").first())
    .toRecords() as { run: string; benchmark: string; scorer: string | null }[])
    .filter((r) => rulesOf(r.benchmark).length > 0);
  const col = (name: string, values: string[]) => pl.Series(name, values, pl.Utf8);
  return pl.DataFrame([
    col("run", firsts.map((r) => r.run)),
    col("benchmark", firsts.map((r) => r.benchmark)),
    col("official", firsts.map((r) => officialScorer(r.benchmark, r.scorer))),
  ]);
}

/** The rules of a benchmark by name ({@link formatRules}); none when it is not registered. */
function rulesOf(name: string): string[] {
  const b = getBenchmark(name);
  return b === undefined ? [] : formatRules(b);
}

function emptyScored(): pl.DataFrame {
  const s = (n: string, t: pl.DataType) => pl.Series(n, [], t);
  return pl.DataFrame([
    s("__row", pl.Int64),
    s("run", pl.Utf8),
    s("benchmark", pl.Utf8),
    s("task", pl.Utf8),
    s("example_index", pl.Int32),
    s("scorer", pl.Utf8),
    s("official", pl.Utf8),
    s("extracted", pl.Utf8),
    s("correct", pl.Bool),
    s("no_answer", pl.Bool),
  ]);
}

/**
 * The long summary of a {@link scoreAllRules} frame: per (run, task, scorer) `n` (scored rows),
 * `correct`, `accuracy` (%), `no_answer` (% of the n rows), plus `official` (Bool: the run's
 * official rule). Sorted by run, task, then the order of {@link formatRules} (a run with rows
 * of two benchmarks: one benchmark's tasks, then the other's).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadBbhReleaseOutputs } from "@runlens/benchmarks/bbh/release_outputs.ts";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const { rows } = loadBbhReleaseOutputs(resolveDataDir(), { tasks: ["navigate"] });
 * const long = summarizeFormatSensitivity(scoreAllRules(rows));
 * const direct = long.toRecords().find((r) => r.run === "code-davinci-002-direct" && r.official);
 * assert.deepEqual(direct, {
 *   run: "code-davinci-002-direct",
 *   task: "navigate",
 *   scorer: "bbh-release-direct",
 *   n: 250,
 *   correct: 126,
 *   accuracy: 50.4,
 *   no_answer: 0,
 *   official: true,
 * });
 * ```
 */
export function summarizeFormatSensitivity(scored: pl.DataFrame): pl.DataFrame {
  return scored.filter(pl.col("correct").isNotNull())
    .groupBy(["run", "benchmark", "task", "scorer"])
    .agg(
      pl.col("correct").count().cast(pl.Int32).alias("n"),
      pl.col("correct").sum().cast(pl.Int32).alias("correct"),
      pl.col("no_answer").cast(pl.Float64).mean().mul(100).alias("no_answer"),
      pl.col("scorer").eq(pl.col("official")).any().alias("official"),
    )
    .withColumns(pl.col("correct").cast(pl.Float64).mul(100).div(pl.col("n")).alias("accuracy"))
    .join(ruleRanks(), { on: ["benchmark", "scorer"] })
    .sort(["run", "benchmark", "task", "__rank"])
    .select("run", "task", "scorer", "n", "correct", "accuracy", "no_answer", "official");
}

/** Each benchmark's rules with their position in {@link formatRules}: `benchmark`, `scorer`, `__rank`. */
function ruleRanks(): pl.DataFrame {
  const ranks = benchmarks().flatMap((b) =>
    formatRules(b).map((scorer, rank) => ({ benchmark: b.name, scorer, rank }))
  );
  return pl.DataFrame([
    pl.Series("benchmark", ranks.map((r) => r.benchmark), pl.Utf8),
    pl.Series("scorer", ranks.map((r) => r.scorer), pl.Utf8),
    pl.Series("__rank", ranks.map((r) => r.rank), pl.Int32),
  ]);
}

/**
 * Format sensitivity of the runs in a row-schema frame: {@link scoreAllRules} then
 * {@link summarizeFormatSensitivity} — columns run, task, scorer, n, correct, accuracy,
 * no_answer, official.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadBbhReleaseOutputs } from "@runlens/benchmarks/bbh/release_outputs.ts";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const { rows } = loadBbhReleaseOutputs(resolveDataDir(), { tasks: ["navigate", "snarks"] });
 * assert.equal(formatSensitivity(rows).height, 2 * 2 * 7); // runs × tasks × rules (all: 378)
 * ```
 */
export function formatSensitivity(rows: pl.DataFrame): pl.DataFrame {
  return summarizeFormatSensitivity(scoreAllRules(rows));
}

/** One cell of the nested JSON form. */
export interface FormatCell {
  /** Rows the rule scored. */
  n: number;
  /** Rows it judged correct. */
  correct: number;
  /** Accuracy, percent. */
  accuracy: number;
  /** Share of rows in which the rule found no answer, percent. */
  no_answer: number;
}

/**
 * The nested JSON form `{task: {scorer: {n, correct, accuracy, no_answer}}}` of ONE run of a
 * {@link formatSensitivity} frame (the only run when `run` is omitted; throws when there are
 * several and none is named).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadBbhReleaseOutputs } from "@runlens/benchmarks/bbh/release_outputs.ts";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const { rows } = loadBbhReleaseOutputs(resolveDataDir(), { tasks: ["navigate"] });
 * const json = formatSensitivityJson(formatSensitivity(rows), "code-davinci-002-cot");
 * assert.equal(json.navigate.lenient.accuracy, 96.4);
 * assert.throws(() => formatSensitivityJson(formatSensitivity(rows)), /several runs/);
 * ```
 */
export function formatSensitivityJson(
  long: pl.DataFrame,
  run?: string,
): Record<string, Record<string, FormatCell>> {
  const runs = [...new Set(long.getColumn("run").toArray() as string[])].sort();
  if (run === undefined && runs.length > 1) {
    throw new Error(`formatSensitivityJson: several runs (${runs.join(", ")}); name one`);
  }
  const want = run ?? runs[0];
  const out: Record<string, Record<string, FormatCell>> = {};
  const recs = long.filter(pl.col("run").eq(pl.lit(want ?? "")))
    .toRecords() as unknown as (FormatCell & { task: string; scorer: string })[];
  for (const r of recs) {
    (out[r.task] ??= {})[r.scorer] = {
      n: r.n,
      correct: r.correct,
      accuracy: r.accuracy,
      no_answer: r.no_answer,
    };
  }
  return out;
}

/**
 * The nested JSON form for every run: `{run: {task: {scorer: cell}}}`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadBbhReleaseOutputs } from "@runlens/benchmarks/bbh/release_outputs.ts";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const { rows } = loadBbhReleaseOutputs(resolveDataDir(), { tasks: ["navigate"] });
 * const byRun = formatSensitivityByRun(formatSensitivity(rows));
 * assert.deepEqual(Object.keys(byRun), ["code-davinci-002-cot", "code-davinci-002-direct"]);
 * ```
 */
export function formatSensitivityByRun(
  long: pl.DataFrame,
): Record<string, Record<string, Record<string, FormatCell>>> {
  const runs = [...new Set(long.getColumn("run").toArray() as string[])].sort();
  return Object.fromEntries(runs.map((r) => [r, formatSensitivityJson(long, r)]));
}

/** The two disagreement classes between the official rule and `lenient`. */
export const DISAGREEMENT_CLASSES = [
  "official_wrong_lenient_right",
  "official_right_lenient_wrong",
] as const;

/** Counts and example rows of the disagreements. */
export interface Disagreements {
  /** run, task, class, n (only non-zero classes). */
  counts: pl.DataFrame;
  /**
   * Up to `perClass` rows per (run, class), spread over tasks: run, class, task,
   * example_index, target, official_extracted, lenient_extracted, response_tail.
   */
  examples: pl.DataFrame;
}

/**
 * Where the run's official rule and `lenient` disagree, from a {@link scoreAllRules} frame and
 * the rows it was computed from (for targets and responses). Examples are taken round-robin
 * over tasks (first example of each task in task order, then the second…), so they are
 * deterministic; `response_tail` is the last `tailChars` characters of the response, and the
 * extracted answers are clipped to `tailChars` (with "…").
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadBbhReleaseOutputs } from "@runlens/benchmarks/bbh/release_outputs.ts";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const { rows } = loadBbhReleaseOutputs(resolveDataDir(), {
 *   runs: ["code-davinci-002-cot"],
 *   tasks: ["tracking_shuffled_objects_seven_objects"], // the one BBH task where they disagree
 * });
 * const scored = scoreAllRules(rows);
 * const { counts, examples } = formatDisagreements(scored, rows, { perClass: 3 });
 * assert.deepEqual(counts.getColumn("n").toArray(), [2]); // official_wrong_lenient_right
 * assert.deepEqual(examples.getColumn("example_index").toArray(), [101, 139]);
 * assert.deepEqual(examples.getColumn("lenient_extracted").toArray(), ["(E)", "(E)"]);
 * ```
 */
export function formatDisagreements(
  scored: pl.DataFrame,
  rows: pl.DataFrame,
  opts: { perClass?: number; tailChars?: number } = {},
): Disagreements {
  const perClass = opts.perClass ?? 3, tail = opts.tailChars ?? 240;
  const official = scored.filter(pl.col("scorer").eq(pl.col("official")))
    .select(
      "__row",
      "run",
      "task",
      "example_index",
      pl.col("extracted").alias("official_extracted"),
      pl.col("correct").alias("official_correct"),
    );
  const len = scored.filter(pl.col("scorer").eq(pl.lit(LENIENT)))
    .select(
      "__row",
      pl.col("extracted").alias("lenient_extracted"),
      pl.col("correct").alias("lenient_correct"),
    );
  const both = official.join(len, { on: "__row" })
    .filter(pl.col("official_correct").neq(pl.col("lenient_correct")))
    .withColumns(
      pl.when(pl.col("lenient_correct")).then(pl.lit(DISAGREEMENT_CLASSES[0]))
        .otherwise(pl.lit(DISAGREEMENT_CLASSES[1])).alias("class"),
    );
  const counts = both.groupBy(["run", "task", "class"])
    .agg(pl.col("__row").count().cast(pl.Int32).alias("n"))
    .sort(["run", "task", "class"]);
  const picked = pickRoundRobin(
    both.sort(["run", "class", "task", "example_index", "__row"])
      .toRecords() as unknown as DisagreementRow[],
    perClass,
  );
  const byRow = new Map(
    (rows.withRowIndex("__row").filter(pl.col("__row").isIn(picked.map((p) => p.__row)))
      .select("__row", "target", "response").toRecords() as unknown as {
        __row: number;
        target: string;
        response: string;
      }[]).map((r) => [r.__row, r]),
  );
  const col = <T>(name: string, f: (p: DisagreementRow) => T, dtype: pl.DataType) =>
    pl.Series(name, picked.map(f), dtype);
  const examples = pl.DataFrame([
    col("run", (p) => p.run, pl.Utf8),
    col("class", (p) => p.class, pl.Utf8),
    col("task", (p) => p.task, pl.Utf8),
    col("example_index", (p) => p.example_index, pl.Int32),
    col("target", (p) => byRow.get(p.__row)?.target ?? null, pl.Utf8),
    col("official_extracted", (p) => clip(p.official_extracted, tail), pl.Utf8),
    col("lenient_extracted", (p) => clip(p.lenient_extracted, tail), pl.Utf8),
    col(
      "response_tail",
      (p) => [...(byRow.get(p.__row)?.response ?? "")].slice(-tail).join(""),
      pl.Utf8,
    ),
  ]);
  return { counts, examples };
}

interface DisagreementRow {
  __row: number;
  run: string;
  class: string;
  task: string;
  example_index: number | null;
  official_extracted: string | null;
  lenient_extracted: string | null;
}

/** At most `n` code points of `s`, with "…" when cut (null stays null). */
function clip(s: string | null, n: number): string | null {
  if (s === null) return null;
  const cps = [...s];
  return cps.length <= n ? s : cps.slice(0, n - 1).join("") + "…";
}

/** Up to `k` rows per (run, class): the first of each task in task order, then the second… */
function pickRoundRobin(sorted: DisagreementRow[], k: number): DisagreementRow[] {
  const groups = new Map<string, DisagreementRow[][]>();
  let prev = "";
  for (const r of sorted) {
    const g = `${r.run}\u0000${r.class}`;
    if (!groups.has(g)) groups.set(g, []);
    const tasks = groups.get(g)!;
    const key = `${g}\u0000${r.task}`;
    if (key !== prev) tasks.push([]);
    tasks.at(-1)!.push(r);
    prev = key;
  }
  const out: DisagreementRow[] = [];
  for (const tasks of groups.values()) {
    const chosen: DisagreementRow[] = [];
    for (let depth = 0; chosen.length < k && tasks.some((t) => t.length > depth); depth++) {
      for (const t of tasks) if (t[depth] && chosen.length < k) chosen.push(t[depth]);
    }
    out.push(...chosen);
  }
  return out;
}
