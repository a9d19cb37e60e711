/**
 * A data set's released examples as a frame: one row per example, tasks in the order given,
 * examples in task-file order — `task`, `example_index` (0-based position in its task),
 * `input`, `target`, `input_chars` (Python `len` of the input). What a benchmark's data set
 * frame is unless it adds columns of its own; built from examples already read, never from the
 * files again.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const df = exampleFrame({ add: [{ input: "1+1?", target: "2" }], mul: [{ input: "2×3?", target: "6" }] });
 * assert.deepEqual(df.columns, ["task", "example_index", "input", "target", "input_chars"]);
 * assert.deepEqual(df.getColumn("task").toArray(), ["add", "mul"]);
 * assert.deepEqual(df.getColumn("input_chars").toArray(), [4, 4]);
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { pyLen } from "./python.ts";

/** The examples of tasks, by task name (each an input and a target). */
export type TaskExamples = Readonly<
  Record<string, readonly { readonly input: string; readonly target: string }[]>
>;

/** The columns of {@link exampleFrame}, as arrays (to add columns of one's own to). */
export interface ExampleColumns {
  task: string[];
  example_index: number[];
  input: string[];
  target: string[];
  input_chars: number[];
}

/**
 * The columns of the examples of `tasks` (default: every task of `examples`, in its order).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const cols = exampleColumns({ a: [{ input: "x", target: "y" }] });
 * assert.deepEqual(cols.example_index, [0]);
 * ```
 */
export function exampleColumns(
  examples: TaskExamples,
  tasks: readonly string[] = Object.keys(examples),
): ExampleColumns {
  const cols: ExampleColumns = {
    task: [],
    example_index: [],
    input: [],
    target: [],
    input_chars: [],
  };
  for (const task of tasks) {
    (examples[task] ?? []).forEach((ex, i) => {
      cols.task.push(task);
      cols.example_index.push(i);
      cols.input.push(ex.input);
      cols.target.push(ex.target);
      cols.input_chars.push(pyLen(ex.input));
    });
  }
  return cols;
}

/** The columns of every example frame, in order (a benchmark's own may add more after them). */
export const EXAMPLE_COLUMNS: readonly (keyof ExampleColumns)[] = [
  "task",
  "example_index",
  "input",
  "target",
  "input_chars",
];

/** The frame of {@link exampleColumns} (see the module doc). */
export function exampleFrame(
  examples: TaskExamples,
  tasks: readonly string[] = Object.keys(examples),
): pl.DataFrame {
  return columnsFrame(exampleColumns(examples, tasks));
}

/**
 * The frame of {@link ExampleColumns}: the five columns typed (`example_index` and
 * `input_chars` Int32, texts Utf8).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const df = columnsFrame(exampleColumns({ a: [{ input: "x", target: "y" }] }));
 * assert.equal(String(df.getColumn("example_index").dtype), "DataType(Int32)");
 * ```
 */
export function columnsFrame(cols: ExampleColumns): pl.DataFrame {
  return pl.DataFrame({
    task: pl.Series("task", cols.task, pl.Utf8),
    example_index: pl.Series("example_index", cols.example_index, pl.Int32),
    input: pl.Series("input", cols.input, pl.Utf8),
    target: pl.Series("target", cols.target, pl.Utf8),
    input_chars: pl.Series("input_chars", cols.input_chars, pl.Int32),
  });
}
