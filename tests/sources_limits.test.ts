/**
 * Hostile input through the line sources (issue 15): nesting 100,000 deep and objects of
 * 1,000,000 keys are quarantined with the limit (no stack overflow, no heap exhaustion), a CSV
 * of 10,000 columns or with a quote that never closes ends at once, and response spans stay
 * valid after the sink call (the range reader never reuses a buffer it handed out), unless the
 * sink says it keeps none (`transient`).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DEFAULT_LIMITS, withLimits } from "@runlens/logs/limits.ts";
import { isSpan, type ResponseSpan, textOf } from "@runlens/logs/record.ts";
import { jsonlSource } from "@runlens/logs/sources/jsonl.ts";
import { csvSource } from "@runlens/logs/sources/csv.ts";
import {
  type BadRecord,
  FileError,
  type LogRecord,
  type SourceFile,
} from "@runlens/logs/sources/types.ts";
import { withTempDir } from "./_tmp.ts";

function file(path: string, format: string): SourceFile {
  return {
    id: 0,
    path,
    name: path,
    format,
    gzip: false,
    defaultRun: "run",
    size: Deno.statSync(path).size,
  };
}

function readJsonl(path: string) {
  const records: LogRecord[] = [];
  const bad: BadRecord[] = [];
  const f = file(path, "canonical-jsonl");
  jsonlSource.readRange(f, 0, f.size, {
    record: (r) => records.push(r),
    bad: (b) => bad.push(b),
  }, DEFAULT_LIMITS);
  return { records, bad };
}

Deno.test("JSONL: 100,000 levels deep and 1,000,000 keys are quarantined quickly", () =>
  withTempDir((dir) => {
    const path = join(dir, "hostile.jsonl");
    const n = 100_000;
    const keys = Array.from({ length: 1_000_000 }, (_, i) => `"k${i}":0`).join(",");
    Deno.writeTextFileSync(
      path,
      [
        '{"task": "nycc", "example_index": 0, "response": "ok", "run": "r"}',
        `{"task": "nycc", "run": "r", "response": ${"[".repeat(n)}${"]".repeat(n)}}`,
        `{"task": "nycc", "extra": ${'{"a":'.repeat(n)}1${"}".repeat(n)}}`,
        `{"task": "nycc", "extra": {${keys}}}`,
        "\u2028",
        '{"task": "nycc", "example_index": 1, "response": "ok"}',
      ].join("\n") + "\n",
    );
    const t0 = performance.now();
    const { records, bad } = readJsonl(path);
    assert.ok(performance.now() - t0 < 5000);
    assert.deepEqual(records.map((r) => r.example_index), [0, 1]);
    assert.deepEqual(bad, [
      { line: 2, reason: "nested deeper than 1,000 levels (--max-depth); not read", run: "r" },
      { line: 3, reason: "nested deeper than 1,000 levels (--max-depth); not read" },
      { line: 4, reason: "an object with more than 100,000 keys (--max-keys); not read" },
      { line: 5, reason: "not JSON: a line of only whitespace JSON does not allow (U+2028)" },
    ]);
  }));

Deno.test("JSONL: response spans stay valid after the sink call, across buffer refills", () =>
  withTempDir((dir) => {
    const path = join(dir, "big.jsonl");
    const lines = Array.from(
      { length: 3000 },
      (_, i) =>
        JSON.stringify({
          task: "nycc",
          example_index: i,
          response: `r${i} ${"x".repeat(i % 5000)}`,
        }),
    );
    Deno.writeTextFileSync(path, lines.join("\n") + "\n"); // > 4 MiB: several reads
    const { records } = readJsonl(path);
    assert.equal(records.length, 3000);
    const all = Deno.readFileSync(path);
    for (const [i, r] of records.entries()) {
      assert.ok(isSpan(r.response));
      assert.equal((r.response as ResponseSpan).text(), `r${i} ${"x".repeat(i % 5000)}`);
      const { offset, length } = r.pointer!;
      const bytes = all.subarray(offset, offset + length);
      assert.equal(JSON.parse(new TextDecoder().decode(bytes)), textOf(r.response));
    }
  }));

Deno.test("JSONL: a transient sink reads the same records while the buffer is refilled in place", () =>
  withTempDir((dir) => {
    const path = join(dir, "big.jsonl");
    const expected = (i: number) => `r${i} \u00e9 ${"x".repeat(i % 5000)}`;
    const lines = Array.from(
      { length: 3000 },
      (_, i) => JSON.stringify({ task: "nycc", example_index: i, response: expected(i) }),
    );
    Deno.writeTextFileSync(path, lines.join("\n") + "\n"); // > 4 MiB: several refills
    const f = file(path, "canonical-jsonl");
    const seen: string[] = [];
    const pointers: [number, number][] = [];
    jsonlSource.readRange(f, 0, f.size, {
      transient: true,
      record: (r) => { // read within the call, as the scoring sink does
        seen.push((r.response as ResponseSpan).text());
        pointers.push([r.pointer!.offset, r.pointer!.length]);
      },
      bad: () => assert.fail("no bad record"),
    }, DEFAULT_LIMITS);
    assert.deepEqual(seen, lines.map((_, i) => expected(i)));
    const all = Deno.readFileSync(path);
    for (const [i, [offset, length]] of pointers.entries()) {
      const text = new TextDecoder().decode(all.subarray(offset, offset + length));
      assert.equal(JSON.parse(text), expected(i));
    }
  }));

Deno.test("CSV: 10,000 columns end at once (an error, or quick reads past a raised limit)", () =>
  withTempDir((dir) => {
    const path = join(dir, "wide.csv");
    const header = [
      "task",
      "example_index",
      "response",
      ...Array.from(
        { length: 9_997 },
        (_, i) => `c${i}`,
      ),
    ].join(",");
    const row = (i: number) => ["nycc", i, "x", ...Array(9_997).fill("1")].join(",");
    Deno.writeTextFileSync(
      path,
      [header, ...Array.from({ length: 300 }, (_, i) => row(i))].join("\n") + "\n",
    );
    const f = file(path, "canonical-csv");
    const sink = { record: () => {}, bad: () => {} };
    let t0 = performance.now();
    assert.throws(
      () => csvSource.read(f, sink, DEFAULT_LIMITS),
      (e) =>
        e instanceof FileError &&
        e.reason ===
          "the CSV header has 10,000 columns, more than the limit of 1,000 (--max-csv-columns)",
    );
    // generous bounds (a loaded CI machine): the bug was minutes, not seconds
    assert.ok(performance.now() - t0 < 5000);
    t0 = performance.now();
    let n = 0;
    csvSource.read(f, { record: () => n++, bad: () => {} }, withLimits({ maxCsvColumns: 20_000 }));
    assert.equal(n, 300);
    assert.ok(performance.now() - t0 < 5000, `${performance.now() - t0} ms`);
    // headerless: the records' usual width counts
    const headerless = { ...f, format: "mapped-csv", fields: { fields: { response: 2 } } };
    assert.throws(() => csvSource.read(headerless, sink, DEFAULT_LIMITS), /most records has/);
    // a narrow header, wide records: each record quarantined
    Deno.writeTextFileSync(path, "task,response\n" + row(0) + "\n" + "nycc,ok\n");
    const bad: BadRecord[] = [];
    csvSource.read(
      file(path, "canonical-csv"),
      { record: () => {}, bad: (b) => bad.push(b) },
      DEFAULT_LIMITS,
    );
    assert.deepEqual(bad, [{ line: 2, reason: "CSV record has 10000 fields, the header has 2" }]);
  }));

Deno.test("CSV: a quote that never closes ends the read at once with a quarantined record", () =>
  withTempDir((dir) => {
    const path = join(dir, "open.csv");
    const body = Array.from({ length: 100_000 }, (_, i) => `nycc,${i},answer ${i}`).join("\n");
    Deno.writeTextFileSync(path, `task,example_index,response\nnycc,0,"never closed\n${body}\n`);
    const bad: BadRecord[] = [];
    let n = 0;
    const t0 = performance.now();
    csvSource.read(file(path, "canonical-csv"), {
      record: () => n++,
      bad: (b) => bad.push(b),
    }, DEFAULT_LIMITS);
    assert.ok(performance.now() - t0 < 1000);
    assert.deepEqual([n, bad], [0, [{
      line: 2,
      reason: "truncated last record (unterminated quoted field)",
    }]]);
    // in the header: an error naming it
    Deno.writeTextFileSync(path, `task,"example_index,response\n${body}\n`);
    assert.throws(
      () =>
        csvSource.read(
          file(path, "canonical-csv"),
          { record: () => {}, bad: () => {} },
          DEFAULT_LIMITS,
        ),
      /the CSV header has an unterminated quote/,
    );
  }));
