/**
 * Classify a model's answer to "where is the first mistake in this trace?" against the BBM
 * label.
 *
 * Outcomes (for a trace whose first mistake is at 0-based index m, or a clean trace):
 * - `correct`: the flagged step is m, or "No" for a clean trace;
 * - `early`: flagged a correct step before the first mistake (k < m);
 * - `late`: missed the first mistake and flagged a later step (k > m);
 * - `said_no_mistake`: answered "No" but the trace has a mistake;
 * - `false_alarm`: flagged a step in a clean trace;
 * - `no_answer`: nothing extracted, or a step number outside the trace (e.g. "0" under
 *   one-based numbering, or past the last step).
 *
 * The step numbering of the answers is an explicit parameter, never guessed: `"one-based"`
 * ("Thought N", the BBEH targets: index = N − 1) or `"zero-based"` (index = N).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { answerToIndex } from "@runlens/benchmarks/bbm/numbering.ts";
 * import { classifyMistakeAnswer } from "@runlens/benchmarks/bbm/classify.ts";
 * const k = answerToIndex("5", "one-based", 10); // "Thought 5" of 10 steps
 * assert.equal(k, 4);
 * assert.equal(classifyMistakeAnswer(k, 6), "early"); // the first mistake is at index 6
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { boolSeries, intSeries, strSeries } from "./columns.ts";
import { extractMistakeAnswer } from "./extract.ts";
import {
  answerToIndex,
  type PredictedIndex,
  STEP_NUMBERINGS,
  type StepNumbering,
} from "./numbering.ts";

/** Outcome classes, in display order. */
export const MISTAKE_OUTCOMES = [
  "correct",
  "early",
  "late",
  "said_no_mistake",
  "false_alarm",
  "no_answer",
] as const;

/** One outcome class. */
export type MistakeOutcome = (typeof MISTAKE_OUTCOMES)[number];

/**
 * The outcome class of a predicted 0-based index against the true first-mistake index.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(classifyMistakeAnswer(3, 3), "correct");
 * assert.equal(classifyMistakeAnswer(5, 3), "late");
 * assert.equal(classifyMistakeAnswer("none", 3), "said_no_mistake");
 * assert.equal(classifyMistakeAnswer("none", null), "correct");
 * assert.equal(classifyMistakeAnswer(2, null), "false_alarm");
 * ```
 */
export function classifyMistakeAnswer(
  predicted: PredictedIndex,
  mistakeIndex: number | null,
): MistakeOutcome {
  if (predicted === null) return "no_answer";
  if (mistakeIndex === null) return predicted === "none" ? "correct" : "false_alarm";
  if (predicted === "none") return "said_no_mistake";
  if (predicted === mistakeIndex) return "correct";
  return predicted < mistakeIndex ? "early" : "late";
}

/** Columns {@link classifyMistakeRuns} adds. */
export const CLASSIFY_COLUMNS = [
  "mistake_index",
  "n_steps",
  "has_mistake",
  "mistake_answer",
  "predicted_index",
  "predicted_none",
  "flagged",
  "outcome",
  "location_correct",
] as const;

/** Options of {@link classifyMistakeRuns}. */
export interface ClassifyOptions {
  /** How the answers number steps; required. */
  numbering: StepNumbering;
}

/**
 * Classify mistake-finding answers against the traces.
 *
 * `runs` needs `task`, `trace_index` and `response` (the raw answer; {@link
 * extractMistakeAnswer} takes its final answer); `run`, `model` and any other columns are kept.
 * `traces` is the frame of `loadBbmDataset`. Every (task, trace_index) must exist in `traces`,
 * else this throws naming the first missing one.
 *
 * Adds {@link CLASSIFY_COLUMNS}: `mistake_index`, `n_steps`, `has_mistake`, `mistake_answer`
 * ("No", the step number as written, or null), `predicted_index` (0-based; null for "No" and
 * for no valid answer), `predicted_none`, `flagged` (a valid step was named), `outcome`,
 * `location_correct` (outcome is "correct").
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadBbmDataset } from "@runlens/benchmarks/bbm/dataset.ts";
 * const traces = loadBbmDataset(resolveDataDir());
 * const runs = pl.DataFrame({
 *   task: ["word_sorting", "word_sorting"],
 *   trace_index: [0, 0],
 *   response: ["The answer is: 3", "The answer is: 2"],
 * });
 * const out = classifyMistakeRuns(runs, traces, { numbering: "one-based" });
 * // word_sorting trace 0: 7 steps, first mistake at index 1 ("Thought 2")
 * const cols = out.select("mistake_index", "n_steps", "predicted_index", "outcome");
 * assert.deepEqual(cols.toRecords(), [
 *   { mistake_index: 1, n_steps: 7, predicted_index: 2, outcome: "late" },
 *   { mistake_index: 1, n_steps: 7, predicted_index: 1, outcome: "correct" },
 * ]);
 * ```
 */
export function classifyMistakeRuns(
  runs: pl.DataFrame,
  traces: pl.DataFrame,
  opts: ClassifyOptions,
): pl.DataFrame {
  if (!opts || !STEP_NUMBERINGS.includes(opts.numbering)) {
    throw new Error(`classifyMistakeRuns needs numbering "one-based" or "zero-based"`);
  }
  for (const c of ["task", "trace_index"]) {
    if (!runs.columns.includes(c)) throw new Error(`runs lack column "${c}"`);
  }
  if (!runs.columns.includes("response")) throw new Error(`runs lack column "response"`);
  const clash = CLASSIFY_COLUMNS.filter((c) => runs.columns.includes(c));
  if (clash.length > 0) throw new Error(`runs already have column(s) ${clash.join(", ")}`);

  const labels = new Map<string, { mistake_index: number | null; n_steps: number }>();
  for (const t of traces.select("task", "trace_index", "mistake_index", "n_steps").toRecords()) {
    labels.set(`${t.task}\u0000${t.trace_index}`, t as never);
  }
  const keys = runs.select("task", "trace_index").toRecords();
  const recs = keys.map((k) => {
    const hit = labels.get(`${k.task}\u0000${k.trace_index}`);
    if (!hit) {
      throw new Error(`no BBM trace ${k.task}[${k.trace_index}] (task + 0-based trace_index)`);
    }
    return hit;
  });
  const extracted = (runs.getColumn("response").toArray() as (string | null)[])
    .map(extractMistakeAnswer);
  const predicted = recs.map((r, i) => answerToIndex(extracted[i], opts.numbering, r.n_steps));
  const outcomes = recs.map((r, i) => classifyMistakeAnswer(predicted[i], r.mistake_index));
  return runs
    .withColumns(
      pl.col("trace_index").cast(pl.Int32),
      intSeries("mistake_index", recs.map((r) => r.mistake_index)),
      intSeries("n_steps", recs.map((r) => r.n_steps)),
      boolSeries("has_mistake", recs.map((r) => r.mistake_index !== null)),
      strSeries("mistake_answer", extracted),
      intSeries("predicted_index", predicted.map((p) => (typeof p === "number" ? p : null))),
      boolSeries("predicted_none", predicted.map((p) => p === "none")),
      boolSeries("flagged", predicted.map((p) => typeof p === "number")),
      strSeries("outcome", outcomes),
      boolSeries("location_correct", outcomes.map((o) => o === "correct")),
    );
}
