/**
 * Read a CSV run log (header row first) into the raw form ({@link RawLog}).
 *
 * A quick scan splits the text into records (quoted fields may span lines), notes the line
 * each record starts on and its number of fields, and reports ragged records and an
 * unterminated last record; polars then parses the header and the good records in one go,
 * every column as text. Blank lines are skipped. An empty unquoted cell is null (absent);
 * a quoted empty cell `""` is the empty string — for `response` that is a real (wrong) answer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readCsvLog } from "@runlens/logs/csv.ts";
 * const { frame, bad, rowsIn } = readCsvLog("tests/fixtures/logs/mixed.csv");
 * assert.deepEqual([rowsIn, frame.height, bad.length], [7, 5, 2]);
 * assert.deepEqual(frame.getColumn("response").toArray().slice(1, 3), [null, ""]); // absent, ""
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { Buffer } from "node:buffer";
import { frameFromRecords, normalizeFrame, type RawLog } from "./raw.ts";
import { readUtf8File } from "./encoding.ts";

/** One CSV record as found by {@link splitCsvRecords}. */
export interface CsvRecord {
  /** 1-based line the record starts on. */
  line: number;
  /** The record's text, without the line break that ends it. */
  text: string;
  /** Number of fields (separators outside quotes + 1). */
  fields: number;
  /** The record ends inside a quoted field (only possible for the last record). */
  unterminated: boolean;
}

/**
 * Split CSV text into non-blank records, RFC 4180 quoting (`""` inside quotes is a quote).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const records = splitCsvRecords('a,b\n\n1,"x\ny"\n');
 * assert.deepEqual(records.map((r) => [r.line, r.fields]), [[1, 2], [3, 2]]);
 * ```
 */
export function splitCsvRecords(text: string): CsvRecord[] {
  const out: CsvRecord[] = [];
  let line = 1;
  let start = 0;
  let startLine = 1;
  let fields = 1;
  let quoted = false;
  const finish = (end: number, unterminated: boolean) => {
    const body = text.slice(start, end).replace(/\r$/, "");
    if (body.trim() !== "") out.push({ line: startLine, text: body, fields, unterminated });
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) quoted = !quoted; // "
    else if (c === 0x2c && !quoted) fields++; // ,
    else if (c === 0x0a) {
      line++;
      if (!quoted) {
        finish(i, false);
        start = i + 1;
        startLine = line;
        fields = 1;
      }
    }
  }
  if (start < text.length) finish(text.length, quoted);
  return out;
}

/**
 * The fields of one CSV record (quotes removed, `""` unescaped).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(csvFields('a,"b,""c""",d'), ["a", 'b,"c"', "d"]);
 * ```
 */
export function csvFields(record: string): string[] {
  const fields: string[] = [];
  let current = "";
  let quoted = false;
  for (let i = 0; i < record.length; i++) {
    const c = record[i];
    if (c === '"') {
      if (quoted && record[i + 1] === '"') {
        current += '"';
        i++;
      } else quoted = !quoted;
    } else if (c === "," && !quoted) {
      fields.push(current);
      current = "";
    } else current += c;
  }
  fields.push(current);
  return fields;
}

/**
 * Read `path` (already read as `text`) as CSV. Never throws on bad records; they are returned
 * in `bad`. Throws when the header is unusable (unterminated, empty or repeated column names).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(readCsvLog("tests/fixtures/logs/mixed.csv").bad, [
 *   { line: 9, reason: "CSV record has 3 fields, the header has 6" },
 *   { line: 10, reason: "truncated last record (unterminated quoted field)" },
 * ]);
 * ```
 */
export function readCsvLog(path: string, text = readUtf8File(path)): RawLog {
  const records = splitCsvRecords(text.replace(/^\ufeff/, ""));
  if (records.length === 0) return { frame: frameFromRecords([], []), bad: [], rowsIn: 0 };
  const [header, ...body] = records;
  if (header.unterminated) throw new Error("the CSV header has an unterminated quote");
  const names = csvFields(header.text).map((n) => n.trim());
  const dup = names.find((n, i) => n === "" || names.indexOf(n) !== i);
  if (dup !== undefined) {
    throw new Error(
      dup === "" ? "the CSV header has an empty column name" : `the CSV header repeats "${dup}"`,
    );
  }
  const bad: RawLog["bad"] = [];
  const good: CsvRecord[] = [];
  for (const r of body) {
    if (r.unterminated) {
      bad.push({ line: r.line, reason: "truncated last record (unterminated quoted field)" });
    } else if (r.fields !== header.fields) {
      bad.push({
        line: r.line,
        reason: `CSV record has ${r.fields} fields, the header has ${header.fields}`,
      });
    } else good.push(r);
  }
  const rowsIn = body.length;
  if (good.length === 0) return { frame: frameFromRecords([], []), bad, rowsIn };
  const csv = [header.text, ...good.map((r) => r.text)].join("\n") + "\n";
  const df = pl.readCSV(Buffer.from(csv), { inferSchemaLength: 0 });
  if (df.height !== good.length || df.width !== names.length) {
    throw new Error(
      `polars read ${df.height} records of ${df.width} fields; the scan found ${good.length} of ${names.length}`,
    );
  }
  const renamed = df.rename(Object.fromEntries(df.columns.map((n, i) => [n, names[i]])));
  return { frame: normalizeFrame(renamed, good.map((r) => r.line)), bad, rowsIn };
}
