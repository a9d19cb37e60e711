/**
 * The line-format sources of the streaming path (`lib/logs/sources/{jsonl,lm_eval,csv}.ts`)
 * read every fixture under tests/fixtures/logs and generated variants of them (CRLF, a byte
 * order mark, a truncated last line, trailing blanks without a final newline, Latin-1 lines,
 * blank lines, mixed types, non-object lines, malformed lines, long lines, repeats, multiple
 * choice, lines without `filter`, ≤ v0.4.2 arrays) the same every way: as one range, as many
 * small ranges (line numbers renumbered as the caller does), and through the `JSON.parse` path
 * (`slow`) — the same records (each canonical field's text as `textOf` gives it, the line, and
 * for lm-eval the filter, the tool's extraction and verdict) and the same bad lines with the
 * same reasons. Files that cannot be read are a `FileError` naming the file. Then, one by one:
 * - limits (issue 15, item 1): a line nested deeper than `maxDepth`, an object with more than
 *   `maxKeys` keys, a line longer than `maxLineBytes` are quarantined with the limit;
 * - a `mapped-jsonl` line that is not UTF-8 is quarantined like a canonical one;
 * - an lm-eval samples file whose name gives no task is read, its records without a task (to be
 *   identified from their content, issue 14 item 1);
 * - a canonical CSV cell with text after its closing quote quarantines its record (issue 15,
 *   item 7).
 * (These tests once compared the sources with the old polars readers, removed since.)
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parseColumnMap } from "@runlens/logs/mapped.ts";
import { RECORD_FIELDS, textOf } from "@runlens/logs/record.ts";
import { DEFAULT_LIMITS, withLimits } from "@runlens/logs/limits.ts";
import { readJsonLinesRange } from "@runlens/logs/sources/lines.ts";
import { JsonlReader, jsonlSource } from "@runlens/logs/sources/jsonl.ts";
import {
  assignLmEvalFilters,
  isLmEvalArrayFile,
  lmEvalFileInfo,
  LmEvalReader,
  lmEvalSource,
} from "@runlens/logs/sources/lm_eval.ts";
import { csvSource } from "@runlens/logs/sources/csv.ts";
import { fromColumnMap } from "@runlens/logs/sources/fields.ts";
import {
  type BadRecord,
  type FieldMapping,
  FileError,
  type LogRecord,
  type SourceFile,
  type SourceLimits,
} from "@runlens/logs/sources/types.ts";
import { withTempDir } from "./_tmp.ts";

const FIXTURES = "tests/fixtures/logs";
const enc = new TextEncoder();
const DATE = "2025-01-25T04-48-43.622918";

/** A record as compared: the line, the fields' text, the lm-eval extras. */
interface Row {
  line: number;
  fields: Record<string, string | null | undefined>;
  /** Raw values of fields whose text is undefined (lists, objects). */
  nested: Record<string, unknown>;
  filter?: string | null;
  tool_extracted?: string | null;
  stored_correct?: boolean | null;
}

function rowOf(r: LogRecord): Row {
  const fields: Row["fields"] = {};
  const nested: Row["nested"] = {};
  for (const f of RECORD_FIELDS) {
    const v = (r as unknown as Record<string, unknown>)[f];
    fields[f] = textOf(v);
    if (fields[f] === undefined) nested[f] = v;
  }
  return {
    line: r.line,
    fields,
    nested,
    filter: r.filter,
    tool_extracted: r.tool_extracted,
    stored_correct: r.stored_correct,
  };
}

/** What a source gave: rows (decoded during the sink call) and bad lines. */
interface Read {
  rows: Row[];
  bad: BadRecord[];
}

type Kind = "jsonl" | "lm-eval" | "csv";

function sourceFile(path: string, format: string, fields: FieldMapping | null = null): SourceFile {
  const name = path.split("/").at(-1)!;
  return {
    id: 0,
    path,
    name: path,
    format,
    gzip: false,
    defaultRun: name.replace(/\.[^.]*$/, ""),
    fields,
    size: Deno.statSync(path).size,
  };
}

/**
 * Read `file` with the new source: as `rangeBytes`-sized ranges (0: one range), line numbers
 * renumbered as the engine does; `slow` through the `JSON.parse` path.
 */
function readNew(
  kind: Kind,
  file: SourceFile,
  rangeBytes = 0,
  slow = false,
  limits: SourceLimits = DEFAULT_LIMITS,
): Read {
  const out: Read = { rows: [], bad: [] };
  const records: LogRecord[] = [];
  let offset = 0;
  const sink = {
    record: (r: LogRecord) => {
      records.push({ ...r, line: r.line + offset });
      out.rows.push({ ...rowOf(r), line: r.line + offset });
    },
    bad: (b: BadRecord) => out.bad.push({ ...b, line: b.line + offset }),
  };
  if (kind === "csv") {
    csvSource.read(file, sink, limits);
    return out;
  }
  const size = file.size;
  const step = rangeBytes > 0 ? rangeBytes : Math.max(1, size);
  for (let start = 0; start < size || start === 0; start += step) {
    const end = Math.min(size, start + step);
    let read;
    if (slow && kind === "lm-eval" && isLmEvalArrayFile(file.path)) {
      const reader = new LmEvalReader(file, sink, limits, "span", true);
      reader.assignFilters = true;
      if (start === 0) reader.readArray(Deno.readFileSync(file.path));
      read = { lines: 0 };
    } else if (slow) {
      const reader = kind === "jsonl"
        ? new JsonlReader(file, sink, limits, "span", true)
        : new LmEvalReader(file, sink, limits, "span", true);
      if (reader instanceof LmEvalReader) reader.assignFilters = start === 0 && end >= size;
      read = readJsonLinesRange(reader, start, end);
    } else {
      read = (kind === "jsonl" ? jsonlSource : lmEvalSource).readRange(
        file,
        start,
        end,
        sink,
        limits,
      );
    }
    offset += read.lines;
    if (size === 0) break;
  }
  if (kind === "lm-eval" && rangeBytes > 0) {
    // several ranges: the main thread names the filters of lines without one
    const info = lmEvalFileInfo(file.name);
    assignLmEvalFilters(records, info?.filterNames ?? []);
    out.rows.forEach((row, i) => row.filter = records[i].filter);
  }
  return out;
}

/** Records, bad lines and truncated last lines read (by the reference reading of each file). */
const total = { records: 0, bad: 0, truncated: 0 };

/** Every way of reading with the source gives what one range gives. */
function readsAgree(what: string, kind: Kind, file: SourceFile): void {
  const reference = readNew(kind, file);
  total.records += reference.rows.length;
  total.bad += reference.bad.length;
  total.truncated += reference.bad.filter((b) => b.reason.startsWith("truncated")).length;
  const same = (how: string, got: Read) =>
    assert.deepEqual(got, reference, `${what} (${how}) differs from one range`);
  if (kind === "csv") return;
  same("slow", readNew(kind, file, 0, true));
  // small ranges on small files (a range reads its last line whole: a long line is read by
  // every range it spans)
  const sizes = file.size < 4000 ? [1, 7, 64, 1000] : [Math.ceil(file.size / 3), 997];
  for (const bytes of file.size > 1e6 ? sizes.slice(0, 1) : sizes) {
    same(`ranges of ${bytes} B`, readNew(kind, file, bytes));
  }
  if (file.size < 1e6) same("slow, ranges of 13 B", readNew(kind, file, 13, true));
}

// ---------------------------------------------------------------- variants

const latin1 = (text: string) =>
  Uint8Array.from([...text].map((c) => c === "é" ? 0xe9 : c.charCodeAt(0)));

/** Variants of a JSON-lines (or CSV) text, by name. */
function variants(text: string, csv = false): Record<string, Uint8Array> {
  const lines = text.replace(/\n$/, "").split("\n");
  const joined = (ls: string[]) => ls.join("\n") + "\n";
  const out: Record<string, Uint8Array> = {
    original: enc.encode(text),
    crlf: enc.encode(text.replace(/\n/g, "\r\n")),
    bom: enc.encode("\ufeff" + text),
    blank_lines: enc.encode(
      lines.map((l, i) => i % 2 ? `\n  \t\n${l}` : l).join("\n") + "\n\n",
    ),
    odd_blank_lines: enc.encode(
      lines.map((l, i) => i === 1 ? `\u2028\n\u00a0 \n\v\n\ufeff\n${l}` : l).join("\n") + "\n",
    ),
    trailing_blank_open: enc.encode(text.replace(/\n$/, "") + "\n \n\t"),
  };
  if (!csv) {
    const last = lines.at(-1)!;
    out.truncated = enc.encode(
      lines.slice(0, -1).join("\n") + "\n" + last.slice(0, Math.floor(last.length / 2)),
    );
    out.truncated_then_blank = enc.encode(
      lines.slice(0, -1).join("\n") + "\n" + last.slice(0, Math.floor(last.length / 2)) + "\n  ",
    );
    out.latin1 = latin1(
      joined(lines.map((l, i) => i === 1 ? l.replace(/"([^"]*)"\s*}?\s*$/, '"$1é"}') : l)),
    );
    out.latin1_first = latin1(joined(lines.map((l, i) => i === 0 ? l + " é" : l)));
    out.not_objects = enc.encode(
      joined([lines[0], "[1, 2]", '"text"', "null", "5", ...lines.slice(1)]),
    );
    out.malformed = enc.encode(
      joined([
        lines[0],
        '{"a": 1,}',
        '{"a" 1}',
        "{",
        '{"a": "tab\there"}',
        '{"a": "\\x"}',
        '{"a": 01}',
        "}{",
        '{"run": "broken-run", "task": "nycc", "response": "x"',
        '\ufeff{"a": 1}',
        ...lines.slice(1),
      ]),
    );
  } else {
    out.truncated = enc.encode(text.replace(/\n$/, "") + '\nnycc,9,"open quote');
    out.latin1 = latin1(text); // not UTF-8 only when it holds an é
  }
  return out;
}

/** Canonical lines of every type in every field. */
function mixedTypes(): string {
  const rows: unknown[] = [
    { task: "nycc", example_index: 5, response: "x" },
    { task: "nycc", example_index: "5", response: "x" },
    { task: "nycc", example_index: 5.0, response: "x", epoch: "2" },
    { task: "nycc", example_index: " 5 ", response: 42 },
    { task: "nycc", example_index: true, response: null },
    { task: 7, example_index: 1.5, response: false, target: 24 },
    { task: "nycc", input: 3, response: "y", target: "24", response_tokens: 1e3 },
    { task: "nycc", example_index: -0, response: 'é\u2028\ud83d\ude00\\n"', run: "" },
    { task: "nycc", example_index: 1, response: "x", note: { deep: [[[[[[1]]]]]] } },
    { task: "nycc", example_index: 123456789012345678901, response: "x" },
    { task: ["nycc"], example_index: 1, response: "x" },
    { task: "nycc", example_index: { i: 1 }, response: "x" },
    { task: "nycc", example_index: 2, response: [["x"]], model: null },
    { task: "nycc", example_index: 2, response: "x".repeat(5_000_000) }, // a long line
  ];
  return rows.map((r) => JSON.stringify(r)).join("\n") + "\n";
}

/** Canonical lines whose numbers polars unifies to floats (its scan reads them whole). */
function floatColumn(): string {
  return [
    '{"task": "nycc", "example_index": 3, "response": "x", "epoch": 1}',
    '{"task": "nycc", "example_index": 4.0, "response": "x", "epoch": 2.5, "target": 1e2}',
    '{"task": "nycc", "example_index": 5, "response": "x", "epoch": 1, "target": 24}',
  ].join("\n") + "\n";
}

/** lm-eval sample lines of every shape `lm_eval.ts` reads. */
function lmEvalLines(withFilter = true): string {
  const base = (i: number, extra: Record<string, unknown> = {}) => ({
    doc_id: i,
    doc: { input: `Q${i}`, target: "(A)" },
    target: "(A)",
    arguments: { gen_args_0: { arg_0: `Q${i}`, arg_1: { until: ["Q:"] } } },
    resps: [[`So the answer is (A). ${i}`]],
    filtered_resps: ["(A)"],
    ...(withFilter ? { filter: "strict-match" } : {}),
    metrics: ["exact_match"],
    exact_match: 1.0,
    ...extra,
  });
  const rows: unknown[] = [
    base(0),
    base(0, withFilter ? { filter: "flexible-extract", exact_match: 0.0 } : { exact_match: 0 }),
    base(1, { target: null }),
    base(2, { doc: "not an object", target: undefined }),
    base(3, { resps: [["r1", "r2", "r3"]] }), // repeats
    base(4, { resps: [["only", 5]] }),
    base(5, { resps: [] }),
    base(6, { resps: [[]] }),
    base(7, { resps: "text" }),
    base(8, { resps: ["flat"] }),
    base(9, { resps: [[7]] }),
    base(10, { resps: [[{ text: "obj" }]] }),
    base(11, {
      resps: [[["-2.5", "False"]], [["-0.5", "True"]]],
      arguments: { gen_args_0: { arg_1: " (A)" }, gen_args_1: { arg_1: " (B) " } },
    }),
    base(12, { filtered_resps: "[invalid]" }),
    base(13, { filtered_resps: [["x", "y"]] }),
    base(14, { filtered_resps: [3] }),
    base(15, { metrics: ["acc", "exact_match"], acc: true }),
    base(16, { metrics: [1, null], exact_match: "1" }),
    base(17, { metrics: undefined, exact_match: undefined, acc_norm: 0.99 }),
    base(18, { exact_match: 1e999 }),
    base(19, { doc_id: "19" }),
    base(20, { doc_id: null }),
    base(21, { doc: { input: ["list", "input"], target: "(B)" } }),
    base(22, { target: ["(A)", "(a)"] }),
    base(23, { doc: { input: 'é\u2028 \\ "' } }),
    base(24, { resps: [["\ud83d\ude00 r"]] }),
  ];
  return rows.map((r) => JSON.stringify(r)).join("\n") + "\n";
}

// ---------------------------------------------------------------- JSON lines

const JSONL_FIXTURES = [
  ["mixed.jsonl", null],
  ["tree/a.jsonl", null],
  ["bbh/canonical.jsonl", null],
  ["formats/mapped/renamed.jsonl", "response=output"],
  ["formats/mapped/positional.jsonl", "task=0,example_index=1,response=2"],
  ["formats/mapped/transcripts.jsonl", "response=message_log.-1.content,task==nycc"],
  ["formats/mapped/transcripts.jsonl", "response=message_log.1.content.0.text,input=input"],
  ["formats/mapped/renamed.jsonl", "response=0,task=task"],
] as const;

/** Today's reading of a JSON-lines file, canonical or mapped. */
Deno.test("JSONL: the fixtures and their variants read the same every way", () =>
  withTempDir((dir) => {
    const texts: [string, string, string | null][] = JSONL_FIXTURES.map(([f, map]) => [
      f,
      Deno.readTextFileSync(join(FIXTURES, f)),
      map,
    ]);
    texts.push(["mixed_types.jsonl", mixedTypes(), null]);
    texts.push(["float_column.jsonl", floatColumn(), null]);
    texts.push(["mixed_types.jsonl", mixedTypes(), "response=response,input=example_index"]);
    let n = 0;
    for (const [name, text, map] of texts) {
      for (const [variant, bytes] of Object.entries(variants(text))) {
        const path = join(dir, `${n++}_${variant}_${name.replaceAll("/", "_")}`);
        Deno.writeFileSync(path, bytes);
        const format = map === null ? "canonical-jsonl" : "mapped-jsonl";
        const mapping = map === null ? null : fromColumnMap(parseColumnMap(map));
        readsAgree(
          `${name} [${variant}${map ? `, --map ${map}` : ""}]`,
          "jsonl",
          sourceFile(path, format, mapping),
        );
      }
    }
  }));

// ---------------------------------------------------------------- lm-eval

function writeResults(dir: string, filters: string[]) {
  Deno.writeTextFileSync(
    join(dir, `results_${DATE}.json`),
    JSON.stringify({
      model_name: "org/model",
      configs: Object.fromEntries(
        ["bbh_cot_zeroshot_snarks", "bbh_cot_fewshot_snarks"].map((t) => [
          t,
          { filter_list: filters.map((name) => ({ name })) },
        ]),
      ),
    }),
  );
}

Deno.test("lm-eval: the fixture, every line shape and their variants read the same every way", () =>
  withTempDir((root) => {
    const fixture = join(
      FIXTURES,
      `bbh/lm_eval/org__tiny-model/samples_bbh_cot_fewshot_snarks_${DATE}.jsonl`,
    );
    readsAgree("lm-eval fixture", "lm-eval", sourceFile(fixture, "lm-eval"));
    let n = 0;
    for (const withFilter of [true, false]) {
      for (const [variant, bytes] of Object.entries(variants(lmEvalLines(withFilter)))) {
        const dir = join(root, `org__m${n++}`);
        Deno.mkdirSync(dir);
        writeResults(dir, ["strict-match", "flexible-extract"]);
        const path = join(dir, `samples_bbh_cot_zeroshot_snarks_${DATE}.jsonl`);
        Deno.writeFileSync(path, bytes);
        readsAgree(
          `lm-eval [${variant}${withFilter ? "" : ", no filter key"}]`,
          "lm-eval",
          sourceFile(path, "lm-eval"),
        );
      }
    }
    // ≤ v0.4.2: one indented JSON array (also with a byte order mark)
    for (const bom of ["", "\ufeff"]) {
      const dir = join(root, `org__array${bom.length}`);
      Deno.mkdirSync(dir);
      writeResults(dir, ["strict-match", "flexible-extract"]);
      const path = join(dir, `samples_bbh_cot_zeroshot_snarks_${DATE}.json`);
      const items = lmEvalLines(false).trim().split("\n").map((l) => JSON.parse(l));
      Deno.writeTextFileSync(path, bom + JSON.stringify([...items, 5, null, [1]], null, 2));
      const file = sourceFile(path, "lm-eval");
      const whole = readNew("lm-eval", file);
      // the items as records, the three that are not objects (after them) as bad lines
      const n = items.length;
      assert.ok(whole.rows.every((r) => r.line >= 1 && r.line <= n));
      assert.deepEqual(whole.bad.map((b) => b.line), [n + 1, n + 2, n + 3]);
      assert.deepEqual(readNew("lm-eval", file, 100), whole, "lm-eval array (ranges)");
      assert.deepEqual(readNew("lm-eval", file, 0, true), whole, "lm-eval array (slow)");
    }
  }));

// ---------------------------------------------------------------- CSV

const CSV_FIXTURES = [
  ["mixed.csv", null],
  ["tree/sub/b.csv", null],
  ["formats/mapped/answers.csv", "input=0,response=1,target=2,task==nycc"],
  ["mixed.csv", "response=note,task=task,input=response"],
] as const;

Deno.test("CSV: the fixtures and their variants are read, every record accounted for", () =>
  withTempDir((dir) => {
    const texts: [string, string, string | null][] = CSV_FIXTURES.map(([f, map]) => [
      f,
      Deno.readTextFileSync(join(FIXTURES, f)),
      map,
    ]);
    texts.push([
      "cells.csv",
      'task,response,input\nnycc, "b",x\nnycc,a""b,\nnycc,"",""\nnycc,"a ""q"" b","x\r\ny"\n' +
      "nycc,  ,\t\n",
      null,
    ]);
    let n = 0;
    for (const [name, text, map] of texts) {
      for (const [variant, bytes] of Object.entries(variants(text, true))) {
        if (variant === "latin1" && !text.includes("é")) continue;
        // one-field records would outnumber the others of a small headerless file
        if (variant === "odd_blank_lines" && map !== null && /=\d/.test(map)) continue;
        const path = join(dir, `${n++}_${variant}_${name.replaceAll("/", "_")}`);
        Deno.writeFileSync(path, bytes);
        const format = map === null ? "canonical-csv" : "mapped-csv";
        const mapping = map === null ? null : fromColumnMap(parseColumnMap(map));
        readsAgree(`${name} [${variant}]`, "csv", sourceFile(path, format, mapping));
      }
    }
  }));

Deno.test("the variants cover records, bad lines and truncated last lines", () => {
  // runs after the three tests above (same file, in order)
  assert.ok(
    total.records > 1_000 && total.bad > 300 && total.truncated > 30,
    JSON.stringify(total),
  );
});

// ---------------------------------------------------------------- files that cannot be read

/** The source refuses the file with a {@link FileError} naming it and matching `reason`. */
function refused(
  path: string,
  kind: Kind,
  format: string,
  reason: RegExp,
  map: string | null = null,
): void {
  assert.throws(
    () => readNew(kind, sourceFile(path, format, map ? fromColumnMap(parseColumnMap(map)) : null)),
    (e) => {
      assert.ok(e instanceof FileError, String(e));
      assert.equal(e.file, path);
      assert.match(e.reason, reason, path);
      return true;
    },
  );
}

Deno.test("files that cannot be read: a FileError naming the file", () =>
  withTempDir((dir) => {
    const utf16 = (text: string) =>
      Uint8Array.from([0xff, 0xfe, ...[...text].flatMap((c) => [c.charCodeAt(0), 0])]);
    const write = (name: string, bytes: Uint8Array | string) => {
      const path = join(dir, name);
      if (typeof bytes === "string") Deno.writeTextFileSync(path, bytes);
      else Deno.writeFileSync(path, bytes);
      return path;
    };
    refused(write("u.jsonl", utf16('{"task": "nycc"}\n')), "jsonl", "canonical-jsonl", /UTF-16/);
    refused(write("u.csv", utf16("task,response\n")), "csv", "canonical-csv", /UTF-16/);
    refused(
      write("l.csv", latin1("task,response\nnycc,café\n")),
      "csv",
      "canonical-csv",
      /line 2 is not valid UTF-8/,
    );
    refused(
      write("m.csv", latin1("a,b\nQ,café\n")),
      "csv",
      "mapped-csv",
      /line 2 is not valid UTF-8/,
      "input=0,response=1",
    );
    refused(
      write("h.csv", 'task,"response\nnycc,x\n'),
      "csv",
      "canonical-csv",
      /unterminated quote/,
    );
    refused(
      write("e.csv", "task,,response\nnycc,1,x\n"),
      "csv",
      "canonical-csv",
      /empty column name/,
    );
    refused(write("d.csv", "task,task\nnycc,x\n"), "csv", "canonical-csv", /repeats "task"/);
    refused(write("n.csv", "a,b\nQ,x\n"), "csv", "mapped-csv", /no column "c"/, "response=c");
    refused(
      write("p.csv", "Q,x\nQ,y\n"),
      "csv",
      "mapped-csv",
      /response=5: the records have 2 columns/,
      "input=0,response=5",
    );
    const lm = join(dir, "org__m");
    Deno.mkdirSync(lm);
    const arrays = [
      ["[{}, {", "truncated"],
      ['[{"doc_id": 0}] x', "trailing"],
      ["[1,]", "comma"],
    ];
    for (const [text, name] of arrays) {
      refused(
        write(`org__m/samples_bbh_cot_fewshot_${name}_${DATE}.json`, text),
        "lm-eval",
        "lm-eval",
        /JSON/,
      );
    }
    refused(
      write(`org__m/samples_bbh_cot_fewshot_latin_${DATE}.json`, latin1('[\n{"doc_id": "é"}]')),
      "lm-eval",
      "lm-eval",
      /line 2 is not valid UTF-8/,
    );
  }));

// ---------------------------------------------------------------- one by one

const collect = (kind: Kind, file: SourceFile, limits?: SourceLimits) =>
  readNew(kind, file, 0, false, limits);

Deno.test("limits: deep lines and many keys are quarantined with the limit, long lines too", () =>
  withTempDir((dir) => {
    const path = join(dir, "run.jsonl");
    const deep = `{"task": "nycc", "response": "x", "extra": ${"[".repeat(30)}${"]".repeat(30)}}`;
    const keys = `{"task": "nycc", "response": "x", "extra": {${
      Array.from({ length: 60 }, (_, i) => `"k${i}": ${i}`).join(", ")
    }}}`;
    const long = `{"task": "nycc", "response": "${"y".repeat(3000)}"}`;
    const ok = '{"task": "nycc", "example_index": 1, "response": "x", "run": "r1"}';
    const broken = '{"task": "nycc", "run": "r2", "x": ' + "[".repeat(40);
    Deno.writeTextFileSync(path, [ok, deep, keys, long, broken, ok].join("\n") + "\n");
    const limits = withLimits({ maxDepth: 20, maxKeys: 50, maxLineBytes: 2000 });
    for (const [kind, format] of [["jsonl", "canonical-jsonl"]] as const) {
      const got = collect(kind, sourceFile(path, format), limits);
      assert.deepEqual(got.rows.map((r) => r.line), [1, 6]);
      assert.deepEqual(got.bad, [
        { line: 2, reason: "nested deeper than 20 levels (--max-depth); not read" },
        { line: 3, reason: "an object with more than 50 keys (--max-keys); not read" },
        { line: 4, reason: "line longer than 2,000 bytes (--max-line-bytes); not read" },
        { line: 5, reason: "nested deeper than 20 levels (--max-depth); not read", run: "r2" },
      ]);
    }
    // lm-eval: an element past a limit in a ≤ v0.4.2 array is quarantined, the others read
    const lmDir = join(dir, "org__m");
    Deno.mkdirSync(lmDir);
    const lm = join(lmDir, `samples_bbh_cot_fewshot_snarks_${DATE}.json`);
    Deno.writeTextFileSync(
      lm,
      `[{"doc_id": 0, "resps": [["a"]]},\n{"doc_id": 1, "x": ${"[".repeat(30)}"]]"${
        "]".repeat(30)
      }},\n{"doc_id": 2, "resps": [["c"]]}]`,
    );
    const got = collect("lm-eval", sourceFile(lm, "lm-eval"), limits);
    assert.deepEqual(got.rows.map((r) => [r.line, r.fields.example_index]), [[1, "0"], [3, "2"]]);
    assert.deepEqual(got.bad, [{
      line: 2,
      reason: "nested deeper than 20 levels (--max-depth); not read",
      run: `org__m_${DATE}`,
    }]);
  }));

Deno.test("mapped JSONL: a line that is not UTF-8 is quarantined, the file read", () =>
  withTempDir((dir) => {
    const path = join(dir, "answers.jsonl");
    Deno.writeFileSync(path, latin1('{"output": "ok"}\n{"output": "café"}\n'));
    const map = "response=output,task==nycc";
    const got = collect(
      "jsonl",
      sourceFile(path, "mapped-jsonl", fromColumnMap(parseColumnMap(map))),
    );
    assert.deepEqual(got.rows.map((r) => r.fields.response), ["ok"]);
    assert.equal(got.bad[0].line, 2);
    assert.match(got.bad[0].reason, /^not valid UTF-8/);
  }));

Deno.test("lm-eval: a samples file whose name gives no task is read without a task", () =>
  withTempDir((dir) => {
    const path = join(dir, "my_samples.jsonl");
    Deno.writeTextFileSync(path, '{"doc_id": 0, "resps": [["(A)"]]}\n');
    const got = collect("lm-eval", sourceFile(path, "lm-eval"));
    assert.deepEqual(
      [got.rows[0].fields.task, got.rows[0].fields.run, got.rows[0].fields.response],
      [null, "my_samples", "(A)"],
    );
  }));

Deno.test("CSV: a malformed quoted cell quarantines its record, the file read", () =>
  withTempDir((dir) => {
    const path = join(dir, "run.csv");
    Deno.writeTextFileSync(path, 'task,response\nnycc,"ab"c\nnycc,ok\n');
    const got = collect("csv", sourceFile(path, "canonical-csv"));
    assert.deepEqual(got.rows.map((r) => r.fields.response), ["ok"]);
    assert.deepEqual(got.bad, [{
      line: 2,
      reason: "malformed CSV record (text after the closing quote of a field)",
    }]);
  }));
