/**
 * The link between BBEH and BIG-Bench Mistake: BBEH `dyck_languages` (all 200 items) and the
 * 100 first-mistake items of `word_sorting` (those asking "Is there a mistake in this
 * sequence") are BBM traces rendered as "Thought N: <step>" lines; the BBEH target is
 * `String(mistake_index + 1)`, or "No" for a clean trace.
 *
 * {@link matchBbehToBbm} finds each item's trace by its exact list of step texts, so the BBM
 * outcome classification (early / late / …) can run on BBEH runs:
 * {@link classifyBbehMistakeRows}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { bbehToBbmMap } from "@runlens/benchmarks/bbeh/bbm_link.ts";
 * const map = bbehToBbmMap(resolveDataDir()); // 300 rows
 * // bbeh_task, example_index, bbm_task, trace_index, mistake_index
 * assert.equal(map.height, 300);
 * // BBEH dyck_languages[0] is BBM dyck_languages trace 222, first mistake at step index 6
 * // (BBEH target "7": Thought 7)
 * assert.deepEqual(map.row(0), ["dyck_languages", 0, "dyck_languages", 222, 6]);
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { loadBbehDataset } from "./dataset.ts";
import { loadBbmDataset } from "../bbm/dataset.ts";
import { intSeries, strSeries } from "../bbm/columns.ts";
import { classifyMistakeRuns } from "../bbm/classify.ts";

/** The question that marks word_sorting's first-mistake items. */
export const MISTAKE_QUESTION = "Is there a mistake in this sequence";

/** BBEH tasks that hold BBM traces. */
export const BBEH_MISTAKE_TASKS = ["dyck_languages", "word_sorting"] as const;

/** Columns of the BBEH → BBM map. */
export const LINK_COLUMNS = [
  "bbeh_task",
  "example_index",
  "bbm_task",
  "trace_index",
  "mistake_index",
] as const;

/**
 * Whether a BBEH example is a BBM first-mistake item (all dyck_languages; word_sorting items
 * asking {@link MISTAKE_QUESTION}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(isBbehMistakeItem("word_sorting", "… Is there a mistake in this sequence?"), true);
 * assert.equal(isBbehMistakeItem("word_sorting", "Sort the following words …"), false);
 * assert.equal(isBbehMistakeItem("dyck_languages", "…"), true);
 * ```
 */
export function isBbehMistakeItem(task: string, input: string): boolean {
  if (task === "dyck_languages") return true;
  return task === "word_sorting" && input.includes(MISTAKE_QUESTION);
}

/**
 * The steps of a BBEH first-mistake input: the text after "Thought N: " on each such line,
 * in order. Throws when the numbers are not 1, 2, 3, ….
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const steps = parseThoughts("Q: …\nThought 1: a\nThought 2: b\nQ: Is there a mistake…");
 * assert.deepEqual(steps, ["a", "b"]);
 * assert.throws(() => parseThoughts("Thought 1: a\nThought 3: c"), /"Thought 3" follows/);
 * ```
 */
export function parseThoughts(input: string): string[] {
  const steps: string[] = [];
  for (const line of input.split("\n")) {
    const m = /^Thought (\d+):(?: (.*)|)$/.exec(line.replace(/\r$/, ""));
    if (!m) continue;
    if (Number(m[1]) !== steps.length + 1) {
      throw new Error(`"Thought ${m[1]}" follows Thought ${steps.length} (expected 1, 2, 3, …)`);
    }
    steps.push(m[2] ?? "");
  }
  return steps;
}

/**
 * Map every BBEH first-mistake item to the BBM trace with exactly the same steps.
 *
 * `bbeh` needs `task, example_index, input` (the frame of `loadBbehDataset`), `bbm` the trace
 * frame of `loadBbmDataset`. Throws, naming the item, when one matches no trace or several.
 * Returns `bbeh_task, example_index, bbm_task, trace_index, mistake_index`, in BBEH order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadBbehDataset } from "@runlens/benchmarks/bbeh/dataset.ts";
 * import { loadBbmDataset } from "@runlens/benchmarks/bbm/dataset.ts";
 * const dir = resolveDataDir();
 * assert.equal(matchBbehToBbm(loadBbehDataset(dir), loadBbmDataset(dir)).height, 300);
 * ```
 */
export function matchBbehToBbm(bbeh: pl.DataFrame, bbm: pl.DataFrame): pl.DataFrame {
  const bySteps = new Map<string, { task: string; trace_index: number; mi: number | null }[]>();
  const traces = bbm.select("task", "trace_index", "steps", "mistake_index")
    .toRecords() as unknown as {
      task: string;
      trace_index: number;
      steps: string[];
      mistake_index: number | null;
    }[];
  for (const t of traces) {
    const key = JSON.stringify(t.steps);
    const hit = { task: t.task, trace_index: t.trace_index, mi: t.mistake_index };
    bySteps.set(key, [...(bySteps.get(key) ?? []), hit]);
  }
  const out = { bbeh_task: [] as string[], example_index: [] as number[] };
  const found: { task: string; trace_index: number; mi: number | null }[] = [];
  const items = bbeh.filter(pl.col("task").isIn([...BBEH_MISTAKE_TASKS]))
    .select("task", "example_index", "input")
    .toRecords() as { task: string; example_index: number; input: string }[];
  for (const item of items) {
    if (!isBbehMistakeItem(item.task, item.input)) continue;
    const where = `BBEH ${item.task}[${item.example_index}]`;
    let steps: string[];
    try {
      steps = parseThoughts(item.input);
    } catch (e) {
      throw new Error(`${where}: ${(e as Error).message}`);
    }
    if (steps.length === 0) throw new Error(`${where}: no "Thought N:" lines`);
    const hits = bySteps.get(JSON.stringify(steps)) ?? [];
    if (hits.length !== 1) {
      const list = hits.map((h) => `${h.task}[${h.trace_index}]`).join(", ");
      throw new Error(
        `${where}: its ${steps.length} steps match ${
          hits.length === 0 ? "no BBM trace" : `several BBM traces (${list})`
        }`,
      );
    }
    out.bbeh_task.push(item.task);
    out.example_index.push(item.example_index);
    found.push(hits[0]);
  }
  return pl.DataFrame({
    bbeh_task: strSeries("bbeh_task", out.bbeh_task),
    example_index: intSeries("example_index", out.example_index),
    bbm_task: strSeries("bbm_task", found.map((h) => h.task)),
    trace_index: intSeries("trace_index", found.map((h) => h.trace_index)),
    mistake_index: intSeries("mistake_index", found.map((h) => h.mi)),
  });
}

/**
 * The BBEH → BBM map of a data directory (needs both `bbeh/` and `big-bench-mistake/`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const map = bbehToBbmMap(resolveDataDir());
 * assert.equal(map.filter(pl.col("bbeh_task").eq(pl.lit("word_sorting"))).height, 100);
 * ```
 */
export function bbehToBbmMap(dataDir: string): pl.DataFrame {
  return matchBbehToBbm(loadBbehDataset(dataDir), loadBbmDataset(dataDir));
}

/**
 * Classify BBEH rows of the first-mistake items (dyck_languages, word_sorting mistake items)
 * with the BBM outcome classes. BBEH answers number steps as "Thought N" (one-based).
 *
 * `rows` needs `task` (BBEH task), `example_index` and `response`; other columns are kept
 * (RunRow frames work). Rows of other tasks or items are dropped. In the result the BBEH task
 * is `bbeh_task`, `task` and `trace_index` name the BBM trace, followed by the columns
 * `classifyMistakeRuns` adds.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadBbmDataset } from "@runlens/benchmarks/bbm/dataset.ts";
 * const dir = resolveDataDir();
 * // dyck_languages 0, 1, 2 have their first mistake in Thought 7, 8 and 9
 * const rows = pl.DataFrame({
 *   task: ["dyck_languages", "dyck_languages", "dyck_languages"],
 *   example_index: [0, 1, 2],
 *   response: ["The answer is: 3", "The answer is: No", "The answer is: 9"],
 * });
 * const out = classifyBbehMistakeRows(rows, bbehToBbmMap(dir), loadBbmDataset(dir));
 * assert.deepEqual(out.getColumn("outcome").toArray(), ["early", "said_no_mistake", "correct"]);
 * assert.deepEqual(out.getColumn("trace_index").toArray(), [222, 853, 455]);
 * ```
 */
export function classifyBbehMistakeRows(
  rows: pl.DataFrame,
  map: pl.DataFrame,
  traces: pl.DataFrame,
): pl.DataFrame {
  for (const c of ["task", "example_index", "response"]) {
    if (!rows.columns.includes(c)) throw new Error(`BBEH rows lack column "${c}"`);
  }
  for (const c of ["bbeh_task", "bbm_task"]) {
    if (rows.columns.includes(c)) throw new Error(`BBEH rows already have column "${c}"`);
  }
  const own = rows.columns.includes("trace_index") ? rows.drop("trace_index") : rows;
  const linked = own
    .rename({ task: "bbeh_task" })
    .withColumns(pl.col("example_index").cast(pl.Int32))
    .join(map.select("bbeh_task", "example_index", "bbm_task", "trace_index"), {
      on: ["bbeh_task", "example_index"],
      how: "inner",
    })
    .rename({ bbm_task: "task" });
  return classifyMistakeRuns(linked, traces, { numbering: "one-based" });
}
