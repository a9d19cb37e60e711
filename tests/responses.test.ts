/**
 * Responses read back from pointers (`lib/pipeline/responses.ts`), compared with the text the
 * source's record gives (`textOf(record.response)`, itself checked against `JSON.parse` of the
 * line where there is one), for every pointer kind:
 * - `span`: canonical and mapped JSONL, lm-eval lines and ≤ v0.4.2 arrays, with escapes
 *   (`\n`, `\"`, `\\`, `\u00e9`, `\ud83d\ude00`, a lone `\ud800`, `\u2028`, NUL, `\/`), raw
 *   non-ASCII, a leading U+FEFF, LF, CRLF and BOM files;
 * - `gz-span`: the same files gzipped (one pass, stopped early: a corrupt tail after the last
 *   pointer does not matter), and in bounded memory on a ~300 MB stream;
 * - `member`: inspect `.eval` fixtures (deflate, zstd) and a generated one with escapes;
 * - `inline`/`none`: CSV cells with quotes and line breaks (plain, mapped, gzip), lm-eval
 *   multiple-choice lines, document fixtures (OpenCompass, mcpbr, openai/evals, inspect JSON,
 *   gzip `.eval`);
 * and `responses(df)` on a compact frame; a file changed since the load throws, never gives
 * wrong text.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { zipSync } from "fflate";
import pl from "nodejs-polars";
import { DEFAULT_LIMITS } from "@runlens/logs/limits.ts";
import { type LogRecord, textOf } from "@runlens/logs/record.ts";
import { sourceFor } from "@runlens/logs/sources/all.ts";
import { readMemberResponse } from "@runlens/logs/sources/inspect.ts";
import type { FieldMapping, SourceFile } from "@runlens/logs/sources/types.ts";
import { fromColumnMap } from "@runlens/logs/sources/fields.ts";
import { parseColumnMap } from "@runlens/logs/mapped.ts";
import { EMPTY_ROW, RowBuilder } from "@runlens/pipeline/compact.ts";
import { compactFrame } from "@runlens/pipeline/compact_frame.ts";
import {
  FileChangedError,
  readResponses,
  type ResponseFile,
  type ResponseRef,
  responses,
} from "@runlens/pipeline/responses.ts";
import { concat, peakRss, rng, utf8 } from "./_containers.ts";
import { withTempDir } from "./_tmp.ts";

const DATE = "2025-01-25T04-48-43.622918";
const MiB = 1 << 20;

/** Texts that break naive readers, each written by JSON.stringify. */
const TEXTS = [
  "line one\nline two\r\n",
  'say "hi" \\ back\\slash',
  "café é",
  "emoji 😀 and \ud83d\ude00",
  "lone \ud800 high, lone \udfff low",
  "separators \u2028 \u2029",
  "nul \u0000 and \u001f",
  "\ufeffstarts with U+FEFF",
  "",
  "tabs\tand / slashes",
  "日本語のテキスト " + "x".repeat(70_000), // long: past the short-string cache
];

/** The same texts written with JSON escapes by hand (JSON.stringify writes most raw). */
const ESCAPED = [
  String.raw`"caf\u00e9 \u00E9"`,
  String.raw`"\ud83d\ude00 pair, \ud800 lone"`,
  String.raw`"\u2028\u2029 \u0000 \/ \b\f\n\r\t"`,
  String.raw`"\ufeff\u0022 quoted \u005c"`,
];

/** Canonical JSONL of every text (JSON.stringify and hand escapes). */
function canonical(): string {
  const lines = TEXTS.map((t, i) =>
    JSON.stringify({ task: "nycc", example_index: i, response: t })
  );
  ESCAPED.forEach((s, i) =>
    lines.push(`{"task": "nycc", "example_index": ${100 + i}, "response": ${s}, "x": 1}`)
  );
  return lines.join("\n") + "\n";
}

/** `text` as written with LF, CRLF, or a byte order mark. */
const LAYOUTS: Record<string, (text: string) => string> = {
  lf: (t) => t,
  crlf: (t) => t.replace(/\n/g, "\r\n"),
  bom: (t) => "\ufeff" + t,
};

function sourceFile(path: string, format: string, gzip = false, extra = {}): SourceFile {
  return {
    id: 0,
    path,
    name: path.replace(/\.gz$/, ""),
    format,
    gzip,
    defaultRun: "run",
    size: Deno.statSync(path).size,
    ...extra,
  };
}

/** The records of a file as its source reads it (response texts decoded in the sink). */
function records(file: SourceFile): LogRecord[] {
  const out: LogRecord[] = [];
  const source = sourceFor(file)!;
  const sink = {
    record: (r: LogRecord) => out.push({ ...r, response: textOf(r.response) ?? r.response }),
    bad: () => {},
  };
  if (source.kind === "lines") source.readRange(file, 0, file.size, sink, DEFAULT_LIMITS);
  else source.read(file, sink, DEFAULT_LIMITS);
  return out;
}

/** The refs of records read from `file` (kind `none` when a record has no pointer). */
function refsOf(file: SourceFile, rs: LogRecord[]): ResponseRef[] {
  return rs.map((r) => ({
    file: file.path,
    format: file.format,
    gzip: file.gzip,
    kind: r.pointer?.kind ?? "none",
    offset: r.pointer?.offset ?? -1,
    length: r.pointer?.length ?? 0,
    member: r.pointer?.member ?? null,
    line: r.line,
    epoch: typeof r.epoch === "number" ? r.epoch : null,
    run: typeof r.run === "string" ? r.run : null,
  }));
}

/** What the load knows of `file`. */
const infoOf = (file: SourceFile): Record<string, ResponseFile> => ({ [file.path]: file });

/**
 * Read every record's response back from its pointer (in reverse order too: reads are sorted
 * per file) and compare with the source's text; returns the pointer kinds seen.
 */
function roundTrip(file: SourceFile, expectKinds?: string[]): string[] {
  const rs = records(file);
  assert.ok(rs.length > 0, `${file.path}: no records`);
  const refs = refsOf(file, rs);
  const want = rs.map((r) => textOf(r.response) ?? null);
  assert.deepEqual(readResponses(refs, { files: infoOf(file) }), want, file.path);
  const back = readResponses([...refs].reverse(), { files: infoOf(file) });
  assert.deepEqual(back, [...want].reverse(), `${file.path} (reversed)`);
  const kinds = [...new Set(refs.map((r) => r.kind))].sort();
  if (expectKinds) assert.deepEqual(kinds, expectKinds, file.path);
  return kinds;
}

/** `JSON.parse` of each line's `response` (the ground truth of a JSON-lines file). */
function parsedResponses(text: string): unknown[] {
  return text.replace(/^\ufeff/, "").split(/\r?\n/).filter((l) => l.trim())
    .map((l) => JSON.parse(l).response);
}

Deno.test("span and gz-span: JSONL responses come back exactly (escapes, non-ASCII, CRLF, BOM)", () =>
  withTempDir((dir) => {
    const text = canonical();
    for (const [layout, shape] of Object.entries(LAYOUTS)) {
      const bytes = utf8(shape(text));
      const plain = join(dir, `${layout}.jsonl`);
      Deno.writeFileSync(plain, bytes);
      const file = sourceFile(plain, "canonical-jsonl");
      // the source's text is JSON.parse's (so a pointer equal to it is too)
      assert.deepEqual(records(file).map((r) => r.response), parsedResponses(shape(text)));
      roundTrip(file, ["span"]);
      const gz = join(dir, `${layout}.jsonl.gz`);
      Deno.writeFileSync(
        gz,
        concat([gzipSync(bytes.subarray(0, 500)), gzipSync(bytes.subarray(500))]),
      );
      roundTrip(sourceFile(gz, "canonical-jsonl", true), ["gz-span"]);
    }
    // mapped: positions in JSON arrays, and a renamed key
    const arrays = join(dir, "arrays.jsonl");
    Deno.writeTextFileSync(
      arrays,
      TEXTS.map((t, i) => JSON.stringify(["nycc", i, t])).join("\n") + "\n",
    );
    const mapping = fromColumnMap(parseColumnMap("task=0,example_index=1,response=2"));
    roundTrip(sourceFile(arrays, "mapped-jsonl", false, { fields: mapping }), ["span"]);
  }));

/** lm-eval sample lines: texts in `resps` (not `filtered_resps`), repeats, multiple choice. */
function lmEvalText(): string {
  const rows: unknown[] = TEXTS.map((t, i) => ({
    doc_id: i,
    doc: { input: `Q${i}`, target: "(A)" },
    target: "(A)",
    resps: [[t]],
    filtered_resps: [`filtered ${t.slice(0, 10)}`],
    filter: "strict-match",
    metrics: ["exact_match"],
    exact_match: 0,
  }));
  rows.push({ doc_id: 50, resps: [["r1 \u2028", 'r2 "q"', "r3 \ud800"]], filtered_resps: ["x"] });
  rows.push({
    doc_id: 51,
    resps: [[["-2.5", "False"]], [["-0.5", "True"]]],
    arguments: { gen_args_0: { arg_1: " (A)" }, gen_args_1: { arg_1: " (B) é " } },
  });
  return rows.map((r) => JSON.stringify(r)).join("\n") + "\n";
}

Deno.test("lm-eval: resps texts, repeats (one line, three pointers), multiple choice re-read", () =>
  withTempDir((root) => {
    const dir = join(root, "org__m");
    Deno.mkdirSync(dir);
    const text = lmEvalText();
    for (const [layout, shape] of Object.entries(LAYOUTS)) {
      const path = join(dir, `samples_bbh_cot_zeroshot_snarks_${DATE}${layout}.jsonl`);
      Deno.writeTextFileSync(path, shape(text));
      const file = sourceFile(path, "lm-eval");
      const rs = records(file);
      // the pointers point at resps, not at filtered_resps
      assert.deepEqual(rs.slice(0, TEXTS.length).map((r) => r.response), TEXTS);
      assert.deepEqual(rs.filter((r) => r.line === TEXTS.length + 1).map((r) => r.epoch), [
        1,
        2,
        3,
      ]);
      assert.equal(rs.at(-1)!.pointer, undefined); // multiple choice: no pointer
      assert.equal(rs.at(-1)!.response, "(B) é");
      roundTrip(file, ["none", "span"]);
      const gz = `${path}.gz`;
      Deno.writeFileSync(gz, gzipSync(Deno.readFileSync(path)));
      roundTrip(sourceFile(gz, "lm-eval", true), ["gz-span", "none"]);
    }
    // ≤ v0.4.2: one JSON array (offsets into the file, or into the decompressed stream)
    const items = text.trim().split("\n").map((l) => JSON.parse(l));
    const array = join(dir, `samples_bbh_cot_zeroshot_snarks_${DATE}.json`);
    Deno.writeTextFileSync(array, "\ufeff" + JSON.stringify(items, null, 2));
    roundTrip(sourceFile(array, "lm-eval"), ["none", "span"]);
    Deno.writeFileSync(`${array}.gz`, gzipSync(Deno.readFileSync(array)));
    roundTrip(sourceFile(`${array}.gz`, "lm-eval", true), ["gz-span", "none"]);
  }));

/** A CSV cell: quoted, `"` doubled. */
const cell = (t: string) => `"${t.replaceAll('"', '""')}"`;

Deno.test("CSV (kind none): cells with quotes and line breaks, plain, mapped and gzip", () =>
  withTempDir((dir) => {
    const texts = TEXTS.filter((t) => !t.includes("\u0000") && !/[\ud800-\udfff]/.test(t))
      .concat(['a "quoted" word', "two\nlines\r\nand CRLF", "comma, inside", ""]);
    const body = texts.map((t, i) => `nycc,${i},${cell(t)}`).join("\n") + "\n";
    for (const [layout, shape] of Object.entries(LAYOUTS)) {
      const path = join(dir, `${layout}.csv`);
      Deno.writeTextFileSync(path, shape("task,example_index,response\n" + body));
      const file = sourceFile(path, "canonical-csv");
      const rs = records(file);
      const cells = texts.map((t) => layout === "crlf" ? t.replace(/\n/g, "\r\n") : t);
      assert.deepEqual(rs.map((r) => r.response), cells);
      roundTrip(file, ["none"]);
      Deno.writeFileSync(`${path}.gz`, gzipSync(Deno.readFileSync(path)));
      roundTrip(sourceFile(`${path}.gz`, "canonical-csv", true), ["none"]);
    }
    const headerless = join(dir, "mapped.csv");
    Deno.writeTextFileSync(headerless, texts.map((t, i) => `Q${i},${cell(t)}`).join("\n") + "\n");
    const mapping: FieldMapping = fromColumnMap(parseColumnMap("input=0,response=1,task==nycc"));
    roundTrip(sourceFile(headerless, "mapped-csv", false, { fields: mapping }), ["none"]);
  }));

/** A `.eval` archive whose samples' `output.completion` are `texts`. */
function evalArchive(texts: string[]): Uint8Array {
  const files: Record<string, Uint8Array> = {
    "header.json": utf8(JSON.stringify({
      version: 2,
      status: "success",
      eval: { task: "bbeh", task_args: {}, model: "m" },
    })),
  };
  texts.forEach((t, i) => {
    const sample = {
      id: i + 1,
      epoch: 1,
      input: `Q${i}`,
      target: "x",
      metadata: { task: "nycc" },
      output: { completion: t },
      scores: { s: { value: "I" } },
    };
    files[`samples/${i + 1}_epoch_1.json`] = utf8(JSON.stringify(sample));
  });
  return zipSync(files);
}

Deno.test("member: inspect .eval responses (fixtures and escapes) as the source and readMemberResponse give them", () =>
  withTempDir((dir) => {
    for (const method of ["deflate", "zstd"]) {
      const path = `tests/fixtures/logs/formats/inspect/${method}/bbeh_run.eval`;
      roundTrip(sourceFile(path, "inspect-eval"), ["member"]);
    }
    const path = join(dir, "escapes.eval");
    const texts = TEXTS.filter((t) => t !== "");
    Deno.writeFileSync(path, evalArchive(texts));
    const file = sourceFile(path, "inspect-eval");
    roundTrip(file, ["member"]);
    const rs = records(file);
    assert.deepEqual(rs.map((r) => r.response), texts);
    const refs = refsOf(file, rs);
    const back = readResponses(refs);
    rs.forEach((r, i) =>
      assert.equal(back[i], readMemberResponse(path, r.pointer!, DEFAULT_LIMITS))
    );
    // gzip-wrapped: inline (read again through the source)
    Deno.writeFileSync(`${path}.gz`, gzipSync(Deno.readFileSync(path)));
    roundTrip(sourceFile(`${path}.gz`, "inspect-eval", true), ["inline"]);
  }));

Deno.test("inline: document fixtures are read again through their source", () =>
  withTempDir((dir) => {
    const fixtures: [string, string][] = [
      [
        "tests/fixtures/logs/formats/opencompass/20250101_120000/predictions/demo-7b/bbeh_boardgame_qa.json",
        "opencompass-predictions",
      ],
      [
        "tests/fixtures/logs/formats/opencompass/20250202_090000/predictions/parted-7b/bbeh_boardgame_qa_1.json",
        "opencompass-predictions",
      ],
      ["tests/fixtures/logs/formats/mcpbr/bbh-sonnet/results.json", "mcpbr"],
      ["tests/fixtures/logs/formats/openai_evals/bbeh_nycc_run.log", "openai-evals"],
    ];
    for (const [path, format] of fixtures) roundTrip(sourceFile(path, format), ["inline"]);
    const legacy = join(dir, "log.json");
    Deno.writeTextFileSync(
      legacy,
      JSON.stringify({
        eval: { task: "bbh", model: "m", task_args: { subset_name: "navigate" } },
        samples: TEXTS.map((t, i) => ({ id: i, target: "Yes", output: { completion: t } })),
      }),
    );
    roundTrip(sourceFile(legacy, "inspect-json"), ["inline"]);
  }));

Deno.test("responses(df): fills a response column for exactly the rows of a compact frame", () =>
  withTempDir((dir) => {
    const jsonl = join(dir, "run.jsonl");
    Deno.writeTextFileSync(jsonl, canonical());
    const csv = join(dir, "run.csv");
    Deno.writeTextFileSync(csv, `task,response\nnycc,${cell('a "b"\nc')}\nnycc,plain\n`);
    const files = [sourceFile(jsonl, "canonical-jsonl"), sourceFile(csv, "canonical-csv")];
    const b = new RowBuilder();
    const want: string[] = [];
    files.forEach((f, id) => {
      for (const r of records(f)) {
        b.add({ ...EMPTY_ROW, file: id, line: r.line, pointer: r.pointer ?? null, task: "nycc" });
        want.push(textOf(r.response)!);
      }
    });
    const df = compactFrame(b.finish(), files.map((f) => f.path))
      .withColumns(pl.lit("stale").alias("response")); // replaced by the texts
    const info = Object.fromEntries(files.map((f) => [f.path, f]));
    const filled = responses(df, info);
    // polars strings are UTF-8: a lone surrogate becomes U+FFFD there (readResponses keeps it)
    assert.deepEqual(filled.getColumn("response").toArray(), want.map((t) => t.toWellFormed()));
    assert.ok(filled.getColumn("response").dtype.equals(pl.String)); // Utf8
    assert.deepEqual(filled.columns, df.columns);
    // a filtered frame: only its rows
    // (lazy: the compact frame's `filter` column shadows DataFrame.filter in nodejs-polars)
    const some = df.lazy().filter(pl.col("source_line").modulo(3).eq(0)).collectSync();
    const texts = responses(some, info).getColumn("response").toArray();
    assert.deepEqual(
      texts,
      want.filter((_, i) => (df.getColumn("source_line").get(i) as number) % 3 === 0)
        .map((t) => t.toWellFormed()),
    );
    assert.equal(responses(df.head(0), info).getColumn("response").length, 0);
  }));

Deno.test("a file changed since the load throws a FileChangedError naming it, never wrong text", () =>
  withTempDir((dir) => {
    const path = join(dir, "run.jsonl");
    const text = canonical();
    Deno.writeTextFileSync(path, text);
    const file = sourceFile(path, "canonical-jsonl");
    const refs = refsOf(file, records(file));
    const mtime = Deno.statSync(path).mtime!.getTime();
    const info = { [path]: { ...file, mtime } };
    assert.equal(readResponses(refs, { files: info }).length, refs.length);
    const changed = (f: () => unknown, why: RegExp) =>
      assert.throws(f, (e) => {
        assert.ok(e instanceof FileChangedError, String(e));
        assert.ok(e.message.startsWith(`${path}: changed since it was scored (`), e.message);
        assert.match(e.message, why);
        return true;
      });
    // the same size, shifted content: the pointers no longer land on JSON strings
    Deno.writeTextFileSync(path, " " + text.slice(0, -1));
    changed(() => readResponses(refs), /no JSON string/);
    changed(() => readResponses(refs, { files: info }), /modification time differs/);
    // longer
    Deno.writeTextFileSync(path, text + "\n");
    changed(() => readResponses(refs, { files: info }), /size \d+ → \d+ bytes/);
    // gone
    Deno.removeSync(path);
    changed(() => readResponses(refs), /no longer there/);
    // gz-span: a stream that ends before the pointer
    const gz = join(dir, "run.jsonl.gz");
    Deno.writeFileSync(gz, gzipSync(utf8(text)));
    const gzFile = sourceFile(gz, "canonical-jsonl", true);
    const gzRefs = refsOf(gzFile, records(gzFile));
    Deno.writeFileSync(gz, gzipSync(utf8(text.slice(0, 200))));
    assert.throws(() => readResponses(gzRefs), FileChangedError);
    // inline: a record that is gone
    const csv = join(dir, "run.csv");
    Deno.writeTextFileSync(csv, "task,response\nnycc,a\nnycc,b\n");
    const csvFile = sourceFile(csv, "canonical-csv");
    const csvRefs = refsOf(csvFile, records(csvFile));
    Deno.writeTextFileSync(csv, "task,response\nnycc,a\n");
    const noSize = { [csv]: { format: "canonical-csv", gzip: false } };
    assert.throws(
      () => readResponses(csvRefs, { files: noSize }),
      /record 3 is no longer/,
    );
  }));

Deno.test("gz-span and line re-reads stop after the last line needed", () =>
  withTempDir((dir) => {
    // the first member must span several 64 KiB reads of compressed data (the inflater
    // gets the file in such reads): random text after the lines compresses little
    const text = utf8(canonical() + randomLines(4000, 5));
    const good = new Uint8Array(gzipSync(text));
    assert.ok(good.length > 4 * 65536);
    // a second member that is corrupt: reached only by a read that goes on past the first
    const broken = new Uint8Array(gzipSync(text));
    broken[broken.length - 6] ^= 0xff;
    const path = join(dir, "run.jsonl.gz");
    Deno.writeFileSync(path, concat([good, broken]));
    const file = sourceFile(path, "canonical-jsonl", true);
    const refs: ResponseRef[] = [];
    const head = (r: LogRecord) => r.line <= 10;
    const sink = {
      record: (r: LogRecord) => head(r) && refs.push(...refsOf(file, [r])),
      bad: () => {},
    };
    const source = sourceFor(file)!;
    assert.equal(source.kind, "document");
    try {
      if (source.kind === "document") source.read(file, sink, DEFAULT_LIMITS);
    } catch { /* the corrupt tail */ }
    assert.equal(refs.length, 10);
    assert.deepEqual(readResponses(refs), parsedResponses(canonical()).slice(0, 10));
    // the same rows re-read through the source (kind none) stop early too
    const none = refs.map((r) => ({ ...r, kind: "none" }));
    assert.deepEqual(readResponses(none, { files: infoOf(file) }), readResponses(refs));
    // a pointer past the corrupt member: the error names the file
    const late = { ...refs[0], offset: 2 * text.length - 5 }; // needs the whole stream
    assert.throws(() => readResponses([late]), /run\.jsonl\.gz: gzip member 2 .*CRC-32 mismatch/);
  }));

/** `n` JSON lines of random words (~3 KB each: compressing ~3×). */
function randomLines(n: number, seed: number): string {
  const r = rng(seed);
  const words = ["é", "step", "\n", '"', "so", "answer", "😀", "\\"];
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const length = 200 + Math.floor(r() * 500);
    const response = Array.from({ length }, () => words[Math.floor(r() * words.length)])
      .join(" ") + r();
    lines.push(JSON.stringify({ task: "nycc", example_index: i, response }));
  }
  return lines.join("\n") + "\n";
}

const READ_CHILD = `
import { readResponses } from "@runlens/pipeline/responses.ts";
const [path, offsets] = Deno.args;
const refs = JSON.parse(offsets).map(([offset, length]: number[]) => ({ file: path,
  format: "canonical-jsonl", gzip: true, kind: "gz-span", offset, length, member: null, line: 0 }));
const texts = readResponses(refs);
console.log(JSON.stringify(texts.map((t) => t!.length)));
`;

Deno.test("gz-span: responses near the end of a ~300 MB stream read in bounded memory", async () => {
  await withTempDir(async (dir) => {
    const text = utf8(randomLines(28_000, 3));
    const gz = new Uint8Array(gzipSync(text));
    const path = join(dir, "run.jsonl.gz");
    Deno.writeFileSync(path, concat([gz, gz, gz, gz, gz, gz]));
    // the pointers of one stream's first lines, shifted past 5 streams: the last member's
    const one = join(dir, "one.jsonl.gz");
    Deno.writeFileSync(one, gz);
    const first = records(sourceFile(one, "canonical-jsonl", true)).slice(0, 5);
    const offsets = first.map((x) => [x.pointer!.offset + 5 * text.length, x.pointer!.length]);
    const m = await peakRss(READ_CHILD, [path, JSON.stringify(offsets)]);
    assert.deepEqual(
      JSON.parse(m.stdout),
      first.map((x) => (x.response as string).length),
      m.stderr,
    );
    console.log(
      `${(6 * text.length / MiB).toFixed(0)} MiB stream: 5 responses at the end in ${
        m.ms.toFixed(0)
      } ms, peak RSS ${(m.peak / MiB).toFixed(0)} MiB`,
    );
    assert.ok(6 * text.length > 280 * MiB);
    // reading the stream whole would need its 290 MiB on top of the ~110 MiB of a Deno process
    // with polars; 250 leaves room for a late garbage collection on a loaded machine
    assert.ok(m.peak < 250 * MiB, `peak RSS ${(m.peak / MiB).toFixed(0)} MiB`);
  });
});
