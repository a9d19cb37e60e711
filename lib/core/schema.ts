/**
 * The row schema: one row = one model response to one example under one scoring rule.
 *
 * Every loader maps its input to rows of this shape and every analysis starts from a
 * polars DataFrame with (at least) these columns, in this order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { emptyRows, ROW_COLUMNS } from "@runlens/core/schema.ts";
 * const df = emptyRows();
 * assert.deepEqual(df.columns, [...ROW_COLUMNS]);
 * ```
 * @module
 */
import pl from "nodejs-polars";

/** One model response to one example under one scoring rule. */
export interface RunRow {
  /** Run id: one model run (the `run` field, else the `model` field, else the file or folder). */
  run: string;
  /** Model name as the log gives it (or as the user overrides it). */
  model: string;
  /** The registered benchmark (`benchmarks/registry.ts`), e.g. `bbeh`. */
  benchmark: string;
  /** Canonical task name, e.g. `boardgame_qa` (BBEH) or `date_understanding` (BBH). */
  task: string;
  /** 0-based position of the example in the official task file; null where none exists (ARB). */
  example_index: number | null;
  /** Example id where the benchmark has ids instead of positions (ARB problem ids). */
  example_id: string | null;
  /** Subset label inside the task (e.g. `forward`/`backward`), null when not labelled. */
  subset: string | null;
  /** 1-based sample number when a run samples an example several times (epochs); else 1. */
  epoch: number;
  /** The question text of the official data set (not the full prompt). */
  input: string;
  /** The official target. */
  target: string;
  /** The raw model response, unchanged. */
  response: string;
  /** The answer the scorer extracted from the response (null: scorer extracts nothing). */
  extracted: string | null;
  /** The scorer's verdict; null when the rule does not auto-score this row. */
  correct: boolean | null;
  /**
   * Whether the scorer found an answer in the response (`Verdict.found`): false means the row
   * is wrong because nothing was read; null: the rule extracts nothing (e.g. `stored`).
   */
  answer_found: boolean | null;
  /** Name of the scoring rule that produced `extracted` and `correct`, e.g. `bbeh-official`. */
  scorer: string;
  /** Length of `input` in Unicode code points (Python `len`). */
  input_chars: number;
  /** Length of `response` in Unicode code points (Python `len`). */
  response_chars: number;
  /** Response length in tokens when the log records it. */
  response_tokens: number | null;
  /** The log file the row came from. */
  source_file: string;
  /** 1-based line (JSONL/CSV) or record number (other formats) inside `source_file`. */
  source_line: number;
  /** The verdict the evaluation tool itself stored in the log, when it stored one. */
  stored_correct: boolean | null;
  /** Notes on the row outside this schema, as a JSON object string (null: none). */
  extra: string | null;
  /** The answer the evaluation tool itself extracted, when the log keeps it. */
  tool_extracted: string | null;
  /**
   * The lm-evaluation-harness filter of the line the row was scored from (not `filter`: a
   * polars frame exposes its columns as properties, and `df.filter` must stay the method).
   */
  lm_eval_filter: string | null;
  /** The data-set version whose item the row matched (e.g. `lm-eval`); null: the release. */
  data_version: string | null;
  /** Length of `response` in UTF-8 bytes. */
  response_bytes: number | null;
  /** Where the response is: `span`, `gz-span`, `member`, `inline` or `none` (`responses()`). */
  ptr_kind: string | null;
  /** Byte offset of the response's JSON string (in the file, stream or member). */
  ptr_offset: number | null;
  /** Byte length of the response's JSON string, quotes included. */
  ptr_length: number | null;
  /** The ZIP member holding the response (`member` pointers). */
  ptr_member: string | null;
}

/** Column names of {@link RunRow}, in DataFrame order. */
export const ROW_COLUMNS = [
  "run",
  "model",
  "benchmark",
  "task",
  "example_index",
  "example_id",
  "subset",
  "epoch",
  "input",
  "target",
  "response",
  "extracted",
  "correct",
  "answer_found",
  "scorer",
  "input_chars",
  "response_chars",
  "response_tokens",
  "source_file",
  "source_line",
  "stored_correct",
  "extra",
  "tool_extracted",
  "lm_eval_filter",
  "data_version",
  "response_bytes",
  "ptr_kind",
  "ptr_offset",
  "ptr_length",
  "ptr_member",
] as const satisfies readonly (keyof RunRow)[];

/**
 * Columns a loader may leave out (they say where a response came from, not what was scored):
 * {@link conformRows} fills them with nulls.
 */
export const OPTIONAL_COLUMNS: readonly (typeof ROW_COLUMNS)[number][] = [
  "extra",
  "tool_extracted",
  "lm_eval_filter",
  "data_version",
  "response_bytes",
  "ptr_kind",
  "ptr_offset",
  "ptr_length",
  "ptr_member",
];

/** The polars dtype of every {@link RunRow} column. */
export const ROW_SCHEMA: Record<(typeof ROW_COLUMNS)[number], pl.DataType> = {
  run: pl.Utf8,
  model: pl.Utf8,
  benchmark: pl.Utf8,
  task: pl.Utf8,
  example_index: pl.Int32,
  example_id: pl.Utf8,
  subset: pl.Utf8,
  epoch: pl.Int32,
  input: pl.Utf8,
  target: pl.Utf8,
  response: pl.Utf8,
  extracted: pl.Utf8,
  correct: pl.Bool,
  answer_found: pl.Bool,
  scorer: pl.Utf8,
  input_chars: pl.Int32,
  response_chars: pl.Int32,
  response_tokens: pl.Int32,
  source_file: pl.Utf8,
  source_line: pl.Int32,
  stored_correct: pl.Bool,
  extra: pl.Utf8,
  tool_extracted: pl.Utf8,
  lm_eval_filter: pl.Utf8,
  data_version: pl.Utf8,
  response_bytes: pl.Int32,
  ptr_kind: pl.Utf8,
  ptr_offset: pl.Float64,
  ptr_length: pl.Float64,
  ptr_member: pl.Utf8,
};

/** An empty DataFrame with the row schema. */
export function emptyRows(): pl.DataFrame {
  return pl.DataFrame(
    Object.fromEntries(ROW_COLUMNS.map((c) => [c, pl.Series(c, [], ROW_SCHEMA[c])])),
  );
}

/**
 * Select the schema columns in order and cast each to its dtype; the
 * {@link OPTIONAL_COLUMNS} a frame lacks are null; throws naming any other missing column.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const df = emptyRows().withColumn(pl.lit("x").alias("note")); // an extra column
 * assert.deepEqual(conformRows(df).columns, [...ROW_COLUMNS]); // dropped
 * assert.throws(() => conformRows(pl.DataFrame({ run: ["a"] })), /lack schema column\(s\): model/);
 * ```
 */
export function conformRows(df: pl.DataFrame): pl.DataFrame {
  const absent = OPTIONAL_COLUMNS.filter((c) => !df.columns.includes(c));
  if (absent.length > 0) df = df.withColumns(...absent.map((c) => pl.lit(null).alias(c)));
  const missing = ROW_COLUMNS.filter((c) => !df.columns.includes(c));
  if (missing.length > 0) {
    throw new Error(`rows lack schema column(s): ${missing.join(", ")}`);
  }
  return df.select(...ROW_COLUMNS.map((c) => pl.col(c).cast(ROW_SCHEMA[c])));
}

/** Column descriptions for documentation (README) and `runlens schema`. */
export const ROW_DOCS: Record<(typeof ROW_COLUMNS)[number], string> = {
  run:
    "run id (one model run: the `run` field, else the `model` field, else the log file or folder)",
  model: "model name",
  benchmark:
    "name of a registered benchmark (those scored: `--benchmark` in `runlens score --help`)",
  task: "canonical task name",
  example_index:
    "0-based position in the official task file (null: none, e.g. a benchmark of example ids)",
  example_id: "example id where the benchmark uses ids instead of positions, else null",
  subset: "subset label inside the task, null when not labelled",
  epoch: "1-based sample number for repeated sampling (inspect epochs), else 1",
  input: "question text of the official data set",
  target: "official target",
  response: "raw model response",
  extracted: "answer extracted by the scorer (null: none)",
  correct: "the scorer's verdict (null: not auto-scored)",
  answer_found: "whether the scorer found an answer in the response (false: nothing was read, " +
    "scored as wrong; null: the rule extracts nothing, e.g. stored)",
  scorer: "name of the scoring rule (`runlens score --help` lists them)",
  input_chars: "input length in code points (Python len)",
  response_chars: "response length in code points (Python len)",
  response_tokens: "response tokens when the log records them, else null",
  source_file: "log file the row came from",
  source_line: "1-based line (JSONL/CSV) or record number in source_file",
  stored_correct: "the evaluation tool's own verdict when the log stores one",
  extra: "notes on the row outside the schema, as a JSON object (null: none)",
  tool_extracted: "the evaluation tool's own extracted answer when the log keeps it",
  lm_eval_filter: "lm-eval filter of the line the row was scored from",
  data_version: "data-set version whose item the row matched (e.g. lm-eval); null: the release",
  response_bytes: "response length in UTF-8 bytes",
  ptr_kind: "where the response is read from: span, gz-span, member, inline, none",
  ptr_offset: "byte offset of the response's JSON string (file, gzip stream or ZIP member)",
  ptr_length: "byte length of that JSON string, quotes included",
  ptr_member: "ZIP member holding the response (member pointers)",
};

/**
 * The row schema as a Markdown table (column, polars dtype, meaning), as README.md prints it
 * (a test keeps the README's copy equal to this).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(
 *   schemaMarkdown().split("\n")[2],
 *   "| `run` | Utf8 | run id (one model run: the `run` field, else the `model` field, " +
 *     "else the log file or folder) |",
 * );
 * ```
 */
export function schemaMarkdown(): string {
  const rows = ROW_COLUMNS.map((c) =>
    `| \`${c}\` | ${String(ROW_SCHEMA[c]).replace(/^DataType\((.*)\)$/, "$1")} | ${
      ROW_DOCS[c].replaceAll("|", "\\|")
    } |`
  );
  return ["| column | polars dtype | meaning |", "| --- | --- | --- |", ...rows].join("\n");
}
