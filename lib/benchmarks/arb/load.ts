/**
 * Load ARB-style run logs (JSONL or CSV, one record per model response) and score every row.
 *
 * Default fields: `id`, `subject`, `answer_type`, `reference`, `response` (required; `reference`
 * may be absent for proof-like problems), and optionally `model`, `run`, `question`, `choices`,
 * `image`, `epoch`, `response_tokens`, `correct` (a stored verdict), `rubric`, `human_score`,
 * `model_score`, the Table 3 error flags (`misread`, `wrong_approach`, `logical_error`,
 * `arithmetic`, `correct_answer`, `correct_reasoning`) and the Table 4 rubric annotations
 * (`rubric_coverage`, `rubric_point_spread`, `alternative_solution`, `extra_credit`,
 * `reduced_credit`, `hallucinated_rubric`). `--map field=column` reads a field from another
 * column. Defaults: `run` = file name without extension, `model` = `run`, `epoch` = 1.
 *
 * Rows are returned in the row schema (`benchmark` "arb", `task` = subject, `subset` = answer
 * type, `example_index` null, `example_id` = problem id) followed by {@link ARB_COLUMNS}. A row
 * that cannot be scored is quarantined with its file, line and reason; rows in = scored +
 * quarantined for every file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadArbLogs } from "@runlens/benchmarks/arb/load.ts";
 * // a folder: its .jsonl and .csv files (two illustrative runs of 22 rows each)
 * const { rows, quarantine, rowsIn } = loadArbLogs(["tests/fixtures/arb/illustrative"]);
 * assert.equal(rowsIn, rows.height + quarantine.length);
 * assert.deepEqual([rows.height, quarantine.length], [44, 0]);
 * // a log with other column names (`runlens arb --map field=column`)
 * const mapped = loadArbLogs(["tests/fixtures/arb/mapped.csv"], {
 *   map: {
 *     id: "problem_id",
 *     subject: "subj",
 *     answer_type: "kind",
 *     reference: "gold",
 *     response: "output",
 *   },
 * });
 * assert.deepEqual(mapped.rows.getColumn("task").toArray(), ["mathematics", "mcat-science"]);
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { extname } from "node:path";
import { filesOf } from "../../logs/discover.ts";
import { defaultRunName } from "../../logs/paths.ts";
import {
  checkRowBalance,
  type QuarantineEntry,
  quarantineEntry,
  quoteValue,
} from "../../logs/quarantine.ts";
import { RECORD_FIELDS } from "../../logs/record.ts";
import { readCsvObjects } from "../../logs/sources/csv.ts";
import { readJsonlObjects } from "../../logs/sources/jsonl.ts";
import { FileError, type ObjectRecords } from "../../logs/sources/types.ts";
import { ROW_SCHEMA } from "../../core/schema.ts";
import {
  ARB_ERROR_FLAGS,
  ARB_FIELDS,
  ARB_RUBRIC_FLAGS,
  ARB_RUBRIC_LIKERT,
  type ArbField,
  type ArbFieldMap,
  normalizeAnswerType,
  normalizeSubject,
  readChoices,
  readFlag,
  readNumber,
  readText,
} from "./fields.ts";
import { typedFrame } from "./group.ts";
import { ARB_COLUMNS } from "./benchmark.ts";
import { arbAnswerFound, type ArbScoreOptions, scoreArbResponse } from "./score.ts";

/** Loader options. */
export interface ArbLoadOptions {
  /** Field → column renaming. */
  map?: ArbFieldMap;
  /** Options of the symbolic check (seed, points, tolerance). */
  score?: ArbScoreOptions;
}

/** Loaded, scored ARB rows and the rows that were not. */
export interface ArbLog {
  /** The row-schema columns (`ROW_COLUMNS`), then {@link ARB_COLUMNS}. */
  rows: pl.DataFrame;
  quarantine: QuarantineEntry[];
  /** Records read (rows + quarantine). */
  rowsIn: number;
  /** The files read. */
  files: string[];
}

type Row = Record<string, unknown>;

/**
 * The records of an ARB log (`.csv` as CSV, anything else as JSONL) — every field, null ones
 * left out (absent and null mean the same) — and the lines that are not records. A record in
 * which a field named like a canonical run-log field (`response`, `run`, `model`, `epoch`, …)
 * holds a list or an object is not a record either. Throws (naming the file) when the file
 * cannot be read.
 */
function readRecords(file: string): ObjectRecords {
  let read: ObjectRecords;
  try {
    read = extname(file).toLowerCase() === ".csv" ? readCsvObjects(file) : readJsonlObjects(file);
  } catch (e) {
    throw new Error(`${file}: ${e instanceof FileError ? e.reason : (e as Error).message}`);
  }
  const out: ObjectRecords = { records: [], bad: [...read.bad] };
  for (const { line, value } of read.records) {
    const nested = RECORD_FIELDS.find((f) => typeof value[f] === "object" && value[f] !== null);
    if (nested) {
      out.bad.push({ line, reason: `field "${nested}" is a list or object, not a text or number` });
      continue;
    }
    const record: Row = {};
    for (const [k, v] of Object.entries(value)) if (v !== null) record[k] = v;
    out.records.push({ line, value: record });
  }
  return out;
}

const codePoints = (s: string) => [...s].length;

/** A record's fields, read through the `--map` renaming. */
interface FieldReader {
  /** The column a field is read from. */
  column: (f: ArbField) => string;
  /** The raw value of a field. */
  get: (f: ArbField) => unknown;
  /** The text of a required field; throws "missing <field>" (an empty response is allowed). */
  required: (f: ArbField) => string;
}

function fieldReader(record: Row, opts: ArbLoadOptions): FieldReader {
  const column = (f: ArbField) => opts.map?.[f] ?? f;
  const get = (f: ArbField) => record[column(f)];
  const required = (f: ArbField) => {
    const v = readText(get(f));
    if (v === null || (f !== "response" && v.trim() === "")) throw new Error(`missing ${f}`);
    return v;
  };
  return { column, get, required };
}

/** The fields every row needs, parsed in a fixed order (the first problem is the reason). */
function readCoreFields(f: FieldReader, file: string) {
  const benchmark = readText(f.get("benchmark"));
  if (benchmark !== null && benchmark.trim() !== "" && benchmark.trim().toLowerCase() !== "arb") {
    throw new Error(`benchmark is ${quoteValue(benchmark)}, not arb`);
  }
  const id = f.required("id").trim();
  const subject = normalizeSubject(f.required("subject"));
  const typeText = f.required("answer_type");
  const { answerType, image: typeImage } = normalizeAnswerType(typeText);
  const reference = answerType === "proof-like"
    ? readText(f.get("reference")) ?? ""
    : f.required("reference");
  const response = f.required("response");
  const choices = readChoices(f.get("choices"));
  const image = readFlag("image", f.get("image")) ?? typeImage;
  const epoch = readNumber("epoch", f.get("epoch")) ?? 1;
  if (!Number.isInteger(epoch) || epoch < 1) throw new Error(`epoch ${epoch} is not ≥ 1`);
  const tokens = readNumber("response_tokens", f.get("response_tokens"));
  const run = readText(f.get("run"))?.trim() || defaultRunName(file);
  const model = readText(f.get("model"))?.trim() || run;
  const input = readText(f.get("question")) ?? "";
  return {
    id,
    subject,
    answerType,
    reference,
    response,
    choices,
    image,
    epoch,
    tokens,
    run,
    model,
    input,
  };
}

/** The symbolic check's verdict; its error, with the reference quoted, is the reason. */
function verdictOf(c: ReturnType<typeof readCoreFields>, opts: ArbLoadOptions) {
  try {
    return scoreArbResponse(c.answerType, c.reference, c.response, {
      ...opts.score,
      choices: c.choices,
    });
  } catch (e) {
    throw new Error(
      (e as Error).message.replace(/reference (.*) is/, (_, r) => `reference ${quoteValue(r)} is`),
    );
  }
}

/** The optional annotations: stored verdict, rubric and scores, Table 3 and 4 columns. */
function readAnnotations(get: FieldReader["get"]) {
  const stored = readFlag("correct", get("correct"));
  const rubric = readText(get("rubric"));
  const humanScore = readNumber("human_score", get("human_score"));
  const modelScore = readNumber("model_score", get("model_score"));
  const flags: Row = {};
  for (const f of [...ARB_ERROR_FLAGS, ...ARB_RUBRIC_FLAGS]) flags[f] = readFlag(f, get(f));
  for (const f of ARB_RUBRIC_LIKERT) flags[f] = readNumber(f, get(f));
  return { stored, rubric, humanScore, modelScore, flags };
}

/** Build one scored row from a record; throws the quarantine reason. */
function scoreRecord(
  record: Row,
  file: string,
  line: number,
  opts: ArbLoadOptions,
): Row {
  const f = fieldReader(record, opts);
  const c = readCoreFields(f, file);
  const verdict = verdictOf(c, opts);
  const used = new Set(ARB_FIELDS.map(f.column));
  const rest = Object.entries(record).filter(([k]) => !used.has(k));
  const a = readAnnotations(f.get);
  return {
    run: c.run,
    model: c.model,
    benchmark: "arb",
    task: c.subject,
    example_index: null,
    example_id: c.id,
    subset: c.answerType,
    epoch: c.epoch,
    input: c.input,
    target: c.reference,
    response: c.response,
    extracted: verdict.extracted,
    correct: verdict.correct,
    answer_found: arbAnswerFound(verdict.status),
    scorer: verdict.scorer,
    input_chars: codePoints(c.input),
    response_chars: codePoints(c.response),
    response_tokens: c.tokens,
    source_file: file,
    source_line: line,
    stored_correct: a.stored,
    extra: rest.length > 0 ? JSON.stringify(Object.fromEntries(rest)) : null,
    subject: c.subject,
    answer_type: c.answerType,
    image: c.image,
    status: verdict.status,
    detail: verdict.detail,
    choices: c.choices === null ? null : JSON.stringify(c.choices),
    rubric: a.rubric,
    human_score: a.humanScore,
    model_score: a.modelScore,
    ...a.flags,
  };
}

/**
 * A frame of scored rows (the row-schema columns, then {@link ARB_COLUMNS}); nulls stay null.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ROW_COLUMNS } from "@runlens/core/schema.ts";
 * const empty = arbFrame([]);
 * assert.equal(empty.height, 0);
 * assert.deepEqual(empty.columns, [...ROW_COLUMNS, ...Object.keys(ARB_COLUMNS)]);
 * ```
 */
export function arbFrame(rows: readonly Row[]): pl.DataFrame {
  return typedFrame(rows, { ...ROW_SCHEMA, ...ARB_COLUMNS });
}

/**
 * Read and score one ARB log file (`.csv` as CSV, anything else as JSONL). Throws (naming
 * the file) only when the file itself cannot be read.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const log = readArbLog("tests/fixtures/arb/malformed.jsonl");
 * assert.equal(log.rowsIn, log.rows.height + log.quarantine.length); // 8 = 1 + 7
 * assert.deepEqual(log.quarantine[1], {
 *   file: "tests/fixtures/arb/malformed.jsonl",
 *   line: 3,
 *   reason: "missing subject",
 * });
 * ```
 */
export function readArbLog(file: string, opts: ArbLoadOptions = {}): ArbLog {
  const read = readRecords(file);
  const rowsIn = read.records.length + read.bad.length;
  const quarantine = read.bad.map((b) => quarantineEntry(file, b.line, b.reason));
  const rows: Row[] = [];
  const seen = new Map<string, number>();
  for (const { line, value: record } of read.records) {
    try {
      const row = scoreRecord(record, file, line, opts);
      const key = JSON.stringify([row.run, row.example_id, row.epoch]);
      const first = seen.get(key);
      if (first !== undefined) {
        throw new Error(
          `duplicate id ${quoteValue(row.example_id)} (epoch ${row.epoch}) in run ` +
            `${quoteValue(row.run)}, first at line ${first}`,
        );
      }
      seen.set(key, line);
      rows.push(row);
    } catch (e) {
      quarantine.push(quarantineEntry(file, line, (e as Error).message));
    }
  }
  quarantine.sort((a, b) => a.line - b.line);
  checkRowBalance(file, rowsIn, rows.length, quarantine.length);
  return { rows: arbFrame(rows), quarantine, rowsIn, files: [file] };
}

/**
 * Read and score ARB logs from files and directories (searched for `.jsonl`/`.csv`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const { rows, files } = loadArbLogs([
 *   "tests/fixtures/arb/analyses.jsonl",
 *   "tests/fixtures/arb/illustrative/",
 * ]);
 * assert.equal(files.length, 3);
 * assert.equal(rows.height, 8 + 44);
 * ```
 */
export function loadArbLogs(paths: readonly string[], opts: ArbLoadOptions = {}): ArbLog {
  const files = filesOf(paths, [".jsonl", ".csv"]);
  const logs = files.map((f) => readArbLog(f, opts));
  return {
    rows: logs.length === 0 ? arbFrame([]) : pl.concat(logs.map((l) => l.rows)),
    quarantine: logs.flatMap((l) => l.quarantine),
    rowsIn: logs.reduce((s, l) => s + l.rowsIn, 0),
    files,
  };
}

/**
 * Whether a log file holds ARB-style records: its first record has `subject` and
 * `answer_type` fields (after `map`) or `benchmark` "arb". Unreadable files are not.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(isArbLog("tests/fixtures/arb/analyses.jsonl"), true);
 * assert.equal(isArbLog("tests/fixtures/arb/mapped.csv"), false); // other column names…
 * const map = { subject: "subj", answer_type: "kind" };
 * assert.equal(isArbLog("tests/fixtures/arb/mapped.csv", map), true); // … unless mapped
 * assert.equal(isArbLog("tests/fixtures/bbm/runs/toy_run.jsonl"), false);
 * ```
 */
export function isArbLog(file: string, map: ArbFieldMap = {}): boolean {
  const ext = extname(file).toLowerCase();
  if (ext !== ".jsonl" && ext !== ".csv") return false;
  try {
    const first = readRecords(file).records[0]?.value;
    if (!first) return false;
    const col = (f: ArbField) => map[f] ?? f;
    return (col("subject") in first && col("answer_type") in first) ||
      String(first[col("benchmark")] ?? "").toLowerCase() === "arb";
  } catch {
    return false;
  }
}
