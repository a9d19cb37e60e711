/**
 * The accuracies the BBH release published next to its model outputs:
 * `bbh/code-davinci-002-outputs/code-davinci-002-{cot,direct}/<task>_few_shot_template_0-255000_eval_metrics.jsonl`,
 * one JSON line `{"accuracy": <percent>, "accuracy_with_calc": <percent>}` per file.
 *
 * `accuracy` is `correct / n * 100` in float64 (e.g. 92.80000000000001 for 232/250), so a
 * re-scored run reproduces it exactly with {@link releaseAccuracy}. `accuracy_with_calc` (a
 * calculator-assisted variant; it differs only for multistep_arithmetic_two and
 * object_counting) cannot be recomputed from the files.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { readBbhPublishedAccuracies } from "@runlens/benchmarks/bbh/release_metrics.ts";
 * const published = readBbhPublishedAccuracies(resolveDataDir());
 * assert.equal(published.length, 54); // 2 runs × 27 tasks
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { join } from "node:path";
import { exists } from "../../core/data_dir.ts";
import { BBH_RELEASE_RUNS, bbhOutputStem, findBbhOutputsDir } from "./release_outputs.ts";
import { BBH_TASKS, bbhTask } from "./tasks.ts";

/** One published accuracy. */
export interface BbhPublishedAccuracy {
  /** `code-davinci-002-cot` or `code-davinci-002-direct`. */
  run: string;
  /** The BBH task. */
  task: string;
  /** Percent, exactly as written in the file. */
  accuracy: number;
  /** Percent with the calculator variant, as written (null when absent). */
  accuracyWithCalc: number | null;
  /** The metrics file. */
  sourceFile: string;
}

/**
 * Accuracy in percent computed the way the release did (`correct / n * 100`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(releaseAccuracy(232, 250), 92.80000000000001); // as written in the release files
 * ```
 */
export function releaseAccuracy(correct: number, n: number): number {
  return correct / n * 100;
}

/**
 * Read one `_eval_metrics.jsonl` file (exactly one JSON record with a numeric `accuracy`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { join } from "node:path";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { findBbhOutputsDir } from "@runlens/benchmarks/bbh/release_outputs.ts";
 * const file = join(
 *   findBbhOutputsDir(resolveDataDir()),
 *   "code-davinci-002-cot",
 *   "navigate_few_shot_template_0-255000_eval_metrics.jsonl",
 * );
 * assert.deepEqual(readEvalMetrics(file), {
 *   accuracy: 96.39999999999999, // 241 / 250 * 100
 *   accuracyWithCalc: 96.39999999999999,
 * });
 * ```
 */
export function readEvalMetrics(
  path: string,
): { accuracy: number; accuracyWithCalc: number | null } {
  if (!exists(path)) throw new Error(`BBH published metrics incomplete: ${path} is missing`);
  const lines = Deno.readTextFileSync(path).split("\n").filter((l) => l.trim() !== "");
  if (lines.length !== 1) throw new Error(`${path}: expected one JSON line, found ${lines.length}`);
  let rec: { accuracy?: unknown; accuracy_with_calc?: unknown };
  try {
    rec = JSON.parse(lines[0]);
  } catch (e) {
    throw new Error(`${path}:1: not valid JSON (${(e as Error).message})`);
  }
  if (typeof rec.accuracy !== "number") throw new Error(`${path}:1: no numeric "accuracy"`);
  const withCalc = typeof rec.accuracy_with_calc === "number" ? rec.accuracy_with_calc : null;
  return { accuracy: rec.accuracy, accuracyWithCalc: withCalc };
}

/**
 * All published accuracies (2 runs × 27 tasks, or the tasks given), in run then task order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const [first] = readBbhPublishedAccuracies(resolveDataDir(), { tasks: ["navigate"] });
 * assert.equal(first.run, "code-davinci-002-cot");
 * assert.equal(first.task, "navigate");
 * assert.equal(first.accuracy, releaseAccuracy(241, 250)); // 96.39999999999999
 * ```
 */
export function readBbhPublishedAccuracies(
  dataDir: string,
  opts: { tasks?: readonly string[] } = {},
): BbhPublishedAccuracy[] {
  const dir = findBbhOutputsDir(dataDir);
  const tasks = (opts.tasks ?? BBH_TASKS.map((t) => t.name)).map((t) => bbhTask(t).name);
  return BBH_RELEASE_RUNS.flatMap((r) =>
    tasks.map((task) => {
      const sourceFile = join(dir, r.run, `${bbhOutputStem(task)}_eval_metrics.jsonl`);
      return { run: r.run, task, ...readEvalMetrics(sourceFile), sourceFile };
    })
  );
}

/**
 * How many of the `published` accuracies the scored rows (`run`, `task`, `correct`) reproduce
 * exactly, computed the release's way ({@link releaseAccuracy}).
 *
 * @example
 * ```ts
 * import pl from "nodejs-polars";
 * const rows = pl.DataFrame({ run: ["r", "r"], task: ["t", "t"], correct: [true, false] });
 * reproducedAccuracies(rows, [
 *   { run: "r", task: "t", accuracy: 50, accuracyWithCalc: null, sourceFile: "" },
 * ]); // 1
 * ```
 */
export function reproducedAccuracies(
  rows: pl.DataFrame,
  published: readonly BbhPublishedAccuracy[],
): number {
  const counts = rows.groupBy(["run", "task"]).agg(
    pl.col("correct").count().alias("n"),
    pl.col("correct").sum().alias("correct"),
  ).toRecords() as { run: string; task: string; n: number; correct: number }[];
  const byKey = new Map(counts.map((c) => [`${c.run}\u0000${c.task}`, c]));
  return published.filter((p) => {
    const c = byKey.get(`${p.run}\u0000${p.task}`);
    return c !== undefined && releaseAccuracy(Number(c.correct), Number(c.n)) === p.accuracy;
  }).length;
}
