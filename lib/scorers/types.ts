/**
 * The scorer interface: one scoring rule as a plain TypeScript function,
 * `score(response, target, ctx?)`, with its name and documentation ({@link ScalarScorer}).
 * Scorer modules do not load polars: the streaming path's Workers import them (importing
 * polars costs a Worker ~0.4 s). A whole frame is scored with `scoreFrame`
 * (`scorers/frame.ts`), which applies `score` row by row. A rule may also score from the
 * bytes of a JSON log line ({@link ScalarScorer.scoreSpan}), giving the same verdict.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { Scorer } from "@runlens/scorers/types.ts";
 * import { getScorer } from "@runlens/benchmarks/registry.ts";
 * const s: Scorer = getScorer("last-line");
 * assert.deepEqual(s.score("thinking…\nTrue\n", "true"), {
 *   extracted: "true",
 *   correct: true,
 *   found: true,
 * });
 * assert.equal(s.score(" \n", "true").found, false); // no answer found: said, not silently wrong
 * ```
 * @module
 */

/** The outcome of scoring one response. */
export interface Verdict {
  /** The answer the rule extracted (null: the rule extracts nothing). */
  extracted: string | null;
  /** The verdict; null when the rule does not score this row. */
  correct: boolean | null;
  /**
   * Whether the rule found an answer it can score: its marker or cue found (or, where the
   * rule takes a bare response, the bare response) AND the extracted text has the form of an
   * answer to this target under the rule's own matching (`scorers/answer_form.ts`). For the
   * exact-match rules a letter target `(B)` needs `(X)` (in the target's case unless the rule
   * ignores case), a yes/no-type target a word of its pair, a number a number, free text a
   * non-empty text of answer length; for `bbeh-official` what its fuzzy match could accept
   * (a letter with or without parentheses, a number as a float, …). So a one-line sentence
   * read whole (`After checking each step carefully, the answer is (D).`), a bare `B` where
   * the rule compares `(B)`, or a marked answer in another form (`So the answer is C.` for
   * `(B)`) is NOT found. A right answer is always found. Each scorer's documentation says
   * exactly when. False: the verdict is "wrong" only because nothing the rule can score was
   * read — a log in another answer convention scores 0 this way, which the summaries count
   * and flag with the remedy. Null: the rule extracts nothing (`stored`) or does not score
   * this row.
   */
  found: boolean | null;
  /**
   * The sub-rule that decided, when the rule dispatches (e.g. by answer type): the row's
   * `scorer` column names it; absent: the rule's name.
   */
  rule?: string;
  /** What else the rule tells of this row (kept in the row's `extra` JSON). */
  extra?: Readonly<Record<string, unknown>>;
}

/**
 * A row the rule cannot score, for a reason of the row's own (a target the rule cannot read):
 * the row is quarantined with the message as its reason; the load goes on.
 */
export class UnscorableRow extends Error {
  /** The error's name. */
  override name = "UnscorableRow";
}

/** What some rules need besides the response and the target (one row). */
export interface ScoreContext {
  /** Canonical task name (rules with per-task behaviour). */
  task?: string | null;
  /** The question text of the data set (rules that read the options or word list). */
  input?: string | null;
  /** The verdict the log stored (the `stored` rule). */
  stored?: boolean | null;
  /** The row's subset label (a benchmark's record field, e.g. an answer type). */
  subset?: string | null;
  /** The row's other record fields, parsed (`RecordField`); absent or null: none. */
  fields?: Readonly<Record<string, unknown>> | null;
}

/** All columns `scoreFrame` passes to a rule. */
export interface ScorerColumns {
  /** The column of the responses. */
  response: string;
  /** The column of the targets. */
  target: string;
  /** The column of the task names. */
  task: string;
  /** The column of the inputs (the question text). */
  input: string;
  /** The column of the stored verdicts. */
  stored: string;
  /** The column of the subset labels. */
  subset: string;
  /** The column of the other record fields (JSON text, the rows' `extra`). */
  fields: string;
}

/** Extra columns a rule reads. */
export type ScorerNeed = "task" | "input" | "stored" | "subset" | "fields";

/**
 * A scoring rule's scalar form: its name and documentation and `score`, without polars — what
 * the streaming path's Workers load.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { scoreFrame } from "@runlens/scorers/frame.ts";
 * const exact: ScalarScorer = {
 *   name: "exact",
 *   description: "The response, trimmed, equals the target.",
 *   source: "an example",
 *   benchmarks: ["toy"],
 *   needs: [],
 *   score: (response, target) => ({
 *     extracted: response.trim(),
 *     correct: response.trim() === target,
 *     found: response.trim() !== "",
 *   }),
 * };
 * assert.deepEqual(exact.score(" 4 ", "4"), { extracted: "4", correct: true, found: true });
 * const df = pl.DataFrame({ response: ["4", "5"], target: ["4", "4"] });
 * assert.deepEqual(scoreFrame(df, exact).getColumn("correct").toArray(), [true, false]);
 * ```
 */
export interface ScalarScorer {
  /** Registry name, e.g. `bbh-release-cot`. */
  name: string;
  /** One paragraph: what the rule does, including its quirks. */
  description: string;
  /** Where the rule comes from (file, commit or page). */
  source: string;
  /**
   * Names of the benchmarks the rule is meant for, or {@link ANY_BENCHMARK} for a rule that
   * knows no task (`stored`, `lenient`). Ask {@link appliesTo}, never the list itself.
   */
  benchmarks: readonly string[] | AnyBenchmark;
  /** Columns read besides response and target. */
  needs: readonly ScorerNeed[];
  /** The lm-evaluation-harness filter whose extraction this rule reproduces, if any. */
  lmEvalFilter?: string;
  /** Score one response. */
  score(response: string, target: string, ctx?: ScoreContext): Verdict;
  /**
   * Score the response written as the JSON string `bytes[start, end)` (quotes included) of a
   * log line scanned by `lib/codecs/json_scan.ts`, `flags` being the scanner's string flags
   * (`F_ESCAPE`, `F_U_ASCII`): exactly `score(JSON.parse(span), target)`, usually without
   * decoding the whole response. Absent: decode the span and call `score`. Only rules that
   * need nothing besides the response and the target have it.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { F_ESCAPE } from "@runlens/codecs/json_scan.ts";
   * import { getScorer } from "@runlens/benchmarks/registry.ts";
   * const s = getScorer("bbeh-official");
   * const response = "…\nThe answer is: (B)";
   * const bytes = new TextEncoder().encode(JSON.stringify(response)); // "\n" is an escape
   * const v = s.scoreSpan!(bytes, 0, bytes.length, F_ESCAPE, "(B)");
   * assert.deepEqual(v, s.score(response, "(B)"));
   * ```
   */
  scoreSpan?(bytes: Uint8Array, start: number, end: number, flags: number, target: string): Verdict;
}

/**
 * One registered scoring rule: the scalar form is the only form (kept as the name call sites
 * use).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SCORERS } from "@runlens/benchmarks/registry.ts";
 * const all: readonly Scorer[] = SCORERS;
 * assert.ok(all.every((s) => typeof s.score === "function"));
 * assert.deepEqual(all.filter((s) => s.scoreSpan).map((s) => s.name), ["bbeh-official"]);
 * ```
 */
export type Scorer = ScalarScorer;

/** The marker of a rule that applies to every benchmark, later ones too. */
export interface AnyBenchmark {
  /** Applies to every benchmark. */
  readonly any: true;
}

/**
 * The {@link ScalarScorer.benchmarks} of a rule that applies to every benchmark, later ones
 * too. An object, not a string such as "any": `benchmarks.includes(name)` must not compile on
 * it (on a string it would quietly answer false), so every test goes through
 * {@link appliesTo}.
 */
export const ANY_BENCHMARK: AnyBenchmark = Object.freeze({ any: true });

/**
 * Whether a rule applies to a benchmark's rows.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getScorer } from "@runlens/benchmarks/registry.ts";
 * assert.equal(appliesTo(getScorer("bbeh-official"), "bbh"), false);
 * assert.equal(appliesTo(getScorer("lenient"), "gsm8k"), true); // ANY_BENCHMARK
 * ```
 */
export function appliesTo(scorer: Pick<ScalarScorer, "benchmarks">, benchmark: string): boolean {
  const b = scorer.benchmarks;
  return !Array.isArray(b) || b.includes(benchmark); // not a list: ANY_BENCHMARK (or its copy)
}

/**
 * The benchmarks a rule applies to, for help texts: "bbh, bbeh" or "any benchmark".
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getScorer } from "@runlens/benchmarks/registry.ts";
 * assert.equal(benchmarksLabel(getScorer("last-line")), "bbh");
 * assert.equal(benchmarksLabel(getScorer("stored")), "any benchmark");
 * ```
 */
export function benchmarksLabel(scorer: Pick<ScalarScorer, "benchmarks">): string {
  const b = scorer.benchmarks;
  return Array.isArray(b) ? b.join(", ") : "any benchmark";
}
