/**
 * The streamed gzip line sources (`lib/logs/sources/gzip_lines.ts`) against the in-memory path
 * (`readJsonlBytes`, `readLmEvalBytes`, `readCsvBytes` on the whole decompressed bytes): on the
 * fixtures under tests/fixtures/logs and generated variants (CRLF, byte order mark, blank and
 * odd-blank lines, truncated last lines, trailing blanks, Latin-1 lines, malformed lines,
 * lines past the limits, lines split across gzip members, long lines spanning many inflate
 * chunks, ≤ v0.4.2 lm-eval arrays), each gzipped into a temp dir, both must give the same
 * records (every field, the response's text, the `gz-span` pointer), the same bad lines and
 * the same interleaving. Then: corrupt and over-budget gzip data is a FileError naming the
 * file, and memory stays bounded on a ~300 MB-decompressed log (peak RSS of a child process).
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";
import { gunzipAll } from "@runlens/codecs/gzip_stream.ts";
import { DEFAULT_LIMITS, withLimits } from "@runlens/logs/limits.ts";
import { parseColumnMap } from "@runlens/logs/mapped.ts";
import { type BadRecord, type LogRecord, textOf } from "@runlens/logs/record.ts";
import { readCsvBytes } from "@runlens/logs/sources/csv.ts";
import { fromColumnMap } from "@runlens/logs/sources/fields.ts";
import {
  GZIP_SOURCES,
  gzipSourceFor,
  readGzipJsonLines,
} from "@runlens/logs/sources/gzip_lines.ts";
import { readInRanges, sourceFor } from "@runlens/logs/sources/all.ts";
import { DOCUMENT_SOURCES } from "@runlens/logs/sources/documents.ts";
import { JsonlReader, readJsonlBytes } from "@runlens/logs/sources/jsonl.ts";
import { readJsonLinesBytes } from "@runlens/logs/sources/lines.ts";
import { readLmEvalBytes } from "@runlens/logs/sources/lm_eval.ts";
import { SOURCES } from "@runlens/logs/sources/registry.ts";
import {
  type FieldMapping,
  FileError,
  type RecordSink,
  type SourceFile,
  type SourceLimits,
} from "@runlens/logs/sources/types.ts";
import { concat, peakRss, rng, utf8 } from "./_containers.ts";
import { withTempDir } from "./_tmp.ts";

const FIXTURES = "tests/fixtures/logs";
const DATE = "2025-01-25T04-48-43.622918";
const MiB = 1 << 20;

/** What a reader handed its sink, comparable with deepEqual (spans as their text). */
interface Seen {
  items: (LogRecord | { bad: BadRecord })[];
  error: string | null;
}

function sink(seen: Seen): RecordSink {
  return {
    record: (r) => seen.items.push({ ...r, response: textOf(r.response) ?? r.response }),
    bad: (b) => seen.items.push({ bad: b }),
  };
}

/** Run `read`, catching a FileError into `error`. */
function run(read: (s: RecordSink) => void): Seen {
  const seen: Seen = { items: [], error: null };
  try {
    read(sink(seen));
  } catch (e) {
    if (!(e instanceof FileError)) throw e;
    seen.error = e.message;
  }
  return seen;
}

function gzFile(
  path: string,
  format: string,
  fields: FieldMapping | null = null,
  name = path.replace(/\.gz$/, ""),
): SourceFile {
  return {
    id: 0,
    path,
    name,
    format,
    gzip: true,
    defaultRun: "run",
    fields,
    size: Deno.statSync(path).size,
  };
}

/** The in-memory reading of the decompressed bytes (today's gzip path). */
function inMemory(file: SourceFile, limits: SourceLimits): Seen {
  return run((s) => {
    const bytes = gunzipAll(file.path, limits);
    if (file.format.endsWith("csv")) readCsvBytes(file, bytes, s, limits);
    else if (file.format.startsWith("lm-eval")) readLmEvalBytes(file, bytes, s, limits);
    else readJsonlBytes(file, bytes, s, limits);
  });
}

/** The streamed reading. */
function streamed(file: SourceFile, limits: SourceLimits): Seen {
  return run((s) => gzipSourceFor(file.format)!.read(file, s, limits));
}

/** Both readings agree; returns the number of records and bad lines compared. */
function same(file: SourceFile, limits = DEFAULT_LIMITS, what = file.path): number {
  const want = inMemory(file, limits);
  const got = streamed(file, limits);
  assert.equal(got.error, want.error, `${what}: error`);
  assert.deepEqual(got.items, want.items, what);
  return want.items.length;
}

/** `text` gzipped, cut into `members` gzip members at arbitrary byte positions. */
function gzipIn(text: Uint8Array, members = 1, seed = 1): Uint8Array {
  const r = rng(seed);
  const cuts = Array.from({ length: members - 1 }, () => Math.floor(r() * text.length))
    .sort((a, b) => a - b);
  const bounds = [0, ...cuts, text.length];
  return concat(
    bounds.slice(1).map((end, i) => new Uint8Array(gzipSync(text.subarray(bounds[i], end)))),
  );
}

// ------------------------------------------------------------------ variants

const latin1 = (text: string) =>
  Uint8Array.from([...text].map((c) => c === "é" ? 0xe9 : c.charCodeAt(0)));

/** Variants of a JSON-lines text, by name. */
function variants(text: string): Record<string, Uint8Array> {
  const lines = text.replace(/\n$/, "").split("\n");
  const last = lines.at(-1)!;
  const cut = lines.slice(0, -1).join("\n") + "\n" + last.slice(0, Math.floor(last.length / 2));
  return {
    original: utf8(text),
    crlf: utf8(text.replace(/\n/g, "\r\n")),
    bom: utf8("\ufeff" + text),
    bom_only: utf8("\ufeff"),
    empty: new Uint8Array(0),
    blank_lines: utf8(lines.map((l, i) => i % 2 ? `\n  \t\n${l}` : l).join("\n") + "\n\n"),
    odd_blank_lines: utf8(
      lines.map((l, i) => i === 1 ? `\u2028\n\u00a0 \n\v\n\ufeff\n${l}` : l).join("\n") + "\n",
    ),
    trailing_blank_open: utf8(text.replace(/\n$/, "") + "\n \n\t"),
    truncated: utf8(cut),
    truncated_then_blank: utf8(cut + "\n  "),
    truncated_then_blank_lf: utf8(cut + "\n  \n"),
    latin1: latin1(
      lines.map((l, i) => i === 1 ? l.replace(/"([^"]*)"\s*}?\s*$/, '"$1é"}') : l).join("\n") +
        "\n",
    ),
    malformed: utf8(
      [lines[0], '{"a": 1,}', "{", '{"a": "\\x"}', "}{", '\ufeff{"a": 1}', ...lines.slice(1)]
        .join("\n") + "\n",
    ),
    not_objects: utf8([lines[0], "[1, 2]", '"text"', "null", ...lines.slice(1)].join("\n") + "\n"),
  };
}

/** Canonical lines with escapes, non-ASCII and long responses (spanning inflate chunks). */
function escapes(): string {
  const r = rng(7);
  const rows: unknown[] = [
    { task: "nycc", example_index: 1, response: 'a\nb "q" \\ é \ud83d\ude00 \u2028 \u0000' },
    { task: "nycc", example_index: 2, response: "\ud800 lone", note: "\udfff" },
    { task: "nycc", example_index: 3, response: "\ufeffstarts with a BOM" },
    { task: "nycc", example_index: 4, response: "é".repeat(3_000_000) }, // 6 MB: many chunks
    { task: "nycc", example_index: 5, response: 7 },
    { task: "nycc", example_index: 6, response: ["list"] },
    { task: "nycc", example_index: 7, response: "x".repeat(300_000) + String(r()) },
  ];
  return rows.map((x) => JSON.stringify(x)).join("\n") + "\n";
}

const JSONL: [string, string | null][] = [
  ["mixed.jsonl", null],
  ["tree/a.jsonl", null],
  ["bbh/canonical.jsonl", null],
  ["formats/mapped/renamed.jsonl", "response=output"],
  ["formats/mapped/positional.jsonl", "task=0,example_index=1,response=2"],
  ["formats/mapped/transcripts.jsonl", "response=message_log.-1.content,task==nycc"],
];

Deno.test("gzip JSONL: streamed records equal the in-memory path on fixtures and variants", () =>
  withTempDir((dir) => {
    const texts: [string, string, string | null][] = JSONL.map(([f, map]) => [
      f,
      Deno.readTextFileSync(join(FIXTURES, f)),
      map,
    ]);
    texts.push(["escapes.jsonl", escapes(), null]);
    let n = 0, compared = 0;
    for (const [name, text, map] of texts) {
      for (const [variant, bytes] of Object.entries(variants(text))) {
        for (const members of [1, 3]) {
          const path = join(dir, `${n++}_${variant}_${name.replaceAll("/", "_")}.gz`);
          Deno.writeFileSync(path, gzipIn(bytes, members, n));
          const mapping = map === null ? null : fromColumnMap(parseColumnMap(map));
          const format = map === null ? "canonical-jsonl" : "mapped-jsonl";
          const file = gzFile(path, format, mapping);
          compared += same(file, DEFAULT_LIMITS, `${name} [${variant}, ${members} members]`);
        }
      }
    }
    assert.ok(compared > 1000, `${compared} compared`);
  }));

Deno.test("gzip JSONL: the line summary and limits (long, deep, many keys) as in memory", () =>
  withTempDir((dir) => {
    const ok = '{"task": "nycc", "example_index": 1, "response": "x", "run": "r1"}';
    const lines = [
      ok,
      `{"task": "nycc", "response": "${"y".repeat(3000)}"}`,
      `{"task": "nycc", "x": ${"[".repeat(30)}${"]".repeat(30)}}`,
      `{"task": "nycc", "x": {${Array.from({ length: 60 }, (_, i) => `"k${i}": ${i}`)}}}`,
      '{"task": "nycc", "run": "r2", "x": ' + "[".repeat(40),
      ok,
      "z".repeat(5000),
    ];
    const limits = withLimits({ maxDepth: 20, maxKeys: 50, maxLineBytes: 2000 });
    for (const [k, text] of [lines.join("\n") + "\n", lines.join("\n")].entries()) {
      const path = join(dir, `limits${k}.jsonl.gz`);
      Deno.writeFileSync(path, gzipSync(utf8(text)));
      const file = gzFile(path, "canonical-jsonl");
      assert.equal(same(file, limits), lines.length);
      // the summary of the streamed reader equals that of the bytes reader
      const quiet = { record: () => {}, bad: () => {} };
      const want = readJsonLinesBytes(
        new JsonlReader(file, quiet, limits, "gz-span"),
        gunzipAll(path, limits),
      );
      const got = readGzipJsonLines(new JsonlReader(file, quiet, limits, "gz-span"));
      assert.deepEqual(got, want);
      assert.equal(got.unterminatedLast, k === 1);
    }
  }));

Deno.test("gzip lm-eval: streamed records equal the in-memory path (lines, variants, arrays)", () =>
  withTempDir((root) => {
    const folder = join(root, "org__tiny-model");
    Deno.mkdirSync(folder);
    const src = join(FIXTURES, "bbh/lm_eval/org__tiny-model");
    Deno.copyFileSync(join(src, `results_${DATE}.json`), join(folder, `results_${DATE}.json`));
    const text = Deno.readTextFileSync(
      join(src, `samples_bbh_cot_fewshot_snarks_${DATE}.jsonl`),
    );
    const extra = [
      { doc_id: 90, resps: [["r1 é\n", "r2 \ud83d\ude00", "r3"]], filtered_resps: ["(A)"] },
      {
        doc_id: 91,
        resps: [[["-2.5", "False"]], [["-0.5", "True"]]],
        arguments: { gen_args_0: { arg_1: " (A)" }, gen_args_1: { arg_1: " (B) " } },
      },
      { doc_id: 92, resps: [['"quoted" \\ \u2028']], filtered_resps: [["x", "y"]] },
    ].map((x) => JSON.stringify(x)).join("\n") + "\n";
    let n = 0, compared = 0;
    for (const [variant, bytes] of Object.entries(variants(text + extra))) {
      const sub = join(root, `v${n++}`, "org__tiny-model");
      Deno.mkdirSync(sub, { recursive: true });
      Deno.copyFileSync(join(src, `results_${DATE}.json`), join(sub, `results_${DATE}.json`));
      const path = join(sub, `samples_bbh_cot_fewshot_snarks_${DATE}.jsonl.gz`);
      Deno.writeFileSync(path, gzipIn(bytes, 2, n));
      compared += same(gzFile(path, "lm-eval"), DEFAULT_LIMITS, `lm-eval [${variant}]`);
    }
    assert.ok(compared > 100, `${compared} compared`);
    // ≤ v0.4.2: one JSON array, inflated whole
    const items = (text + extra).trim().split("\n").map((l) => JSON.parse(l));
    for (const bom of ["", "\ufeff"]) {
      const path = join(folder, `samples_bbh_cot_fewshot_snarks_${DATE}${bom ? "b" : ""}.json.gz`);
      Deno.writeFileSync(path, gzipSync(utf8(bom + JSON.stringify([...items, 5], null, 2))));
      const file = gzFile(path, "lm-eval");
      assert.equal(same(file), items.length + 2 + 1); // the repeats give 3 records
      assert.equal(gzipSourceFor("lm-eval-array"), gzipSourceFor("lm-eval"));
    }
  }));

Deno.test("gzip CSV: read whole under the cap, as the in-memory path", () =>
  withTempDir((dir) => {
    const csvs: [string, string | null][] = [
      ["mixed.csv", null],
      ["formats/mapped/answers.csv", "input=0,response=1,target=2,task==nycc"],
    ];
    for (const [name, map] of csvs) {
      const path = join(dir, name.replaceAll("/", "_") + ".gz");
      Deno.writeFileSync(path, gzipSync(Deno.readFileSync(join(FIXTURES, name))));
      const mapping = map === null ? null : fromColumnMap(parseColumnMap(map));
      const file = gzFile(path, map === null ? "canonical-csv" : "mapped-csv", mapping);
      assert.ok(same(file) > 3);
    }
    const path = join(dir, "big.csv.gz");
    Deno.writeFileSync(path, gzipSync(utf8("task,response\n" + "nycc,x\n".repeat(100_000))));
    const file = gzFile(path, "canonical-csv");
    const small = withLimits({ maxInflated: 100_000 });
    assert.match(streamed(file, small).error!, /big\.csv\.gz: .*inflates past 100,000 bytes/);
  }));

Deno.test("gzip sources: corrupt, truncated, over-budget or UTF-16 data is a FileError naming the file", () =>
  withTempDir((dir) => {
    const text = utf8(
      Array.from({ length: 2000 }, (_, i) => JSON.stringify({ task: "nycc", i, response: "r" }))
        .join("\n") + "\n",
    );
    const gz = new Uint8Array(gzipSync(text));
    const flipped = gz.slice();
    flipped[gz.length - 6] ^= 0xff; // the CRC-32 in the trailer
    const cases: [string, Uint8Array, RegExp, SourceLimits?][] = [
      ["crc.jsonl.gz", flipped, /crc\.jsonl\.gz: gzip member 1 .*CRC-32 mismatch/],
      ["cut.jsonl.gz", gz.subarray(0, gz.length >> 1), /cut\.jsonl\.gz: .*truncated/],
      ["garbage.jsonl.gz", concat([gz, utf8("junk")]), /garbage\.jsonl\.gz: .*trailing garbage/],
      ["plain.jsonl.gz", text, /plain\.jsonl\.gz: not gzip data/],
      [
        "utf16.jsonl.gz",
        new Uint8Array(gzipSync(Uint8Array.from([0xff, 0xfe, 0x7b, 0, 0x7d, 0]))),
        /utf16\.jsonl\.gz: UTF-16 text/,
      ],
      [
        "budget.jsonl.gz",
        gz,
        /budget\.jsonl\.gz: gzip member 1 .*inflates past 10,000 bytes \(--max-inflated\)/,
        withLimits({ maxInflated: 10_000 }),
      ],
      [
        "ratio.jsonl.gz",
        gz,
        /ratio\.jsonl\.gz: gzip member 1 .*inflates more than 2× its compressed size/,
        withLimits({ maxRatio: 2 }),
      ],
    ];
    for (const [name, bytes, error, limits] of cases) {
      const path = join(dir, name);
      Deno.writeFileSync(path, bytes);
      for (const format of ["canonical-jsonl", "lm-eval"]) {
        const got = streamed(gzFile(path, format), limits ?? DEFAULT_LIMITS);
        assert.match(got.error ?? "", error, `${name} (${format})`);
        // the in-memory path fails the same way
        assert.equal(inMemory(gzFile(path, format), limits ?? DEFAULT_LIMITS).error, got.error);
      }
    }
    assert.match(
      streamed(gzFile(dirname(join(dir, "x")), "canonical-jsonl"), DEFAULT_LIMITS).error!,
      /a directory, not a file/,
    );
  }));

Deno.test("sourceFor (all.ts): gzip line and CSV files get the gzip source, in one unit", () => {
  const file = (format: string, gzip: boolean) => ({
    id: 0,
    path: "x",
    name: "x",
    format,
    gzip,
    defaultRun: "x",
    size: 1 << 30,
  });
  for (const format of Object.keys(GZIP_SOURCES)) {
    assert.equal(sourceFor(file(format, true)), GZIP_SOURCES[format]);
    assert.equal(sourceFor(file(format, false)), SOURCES[format]);
    assert.equal(readInRanges(file(format, true)), false);
  }
  for (const format of Object.keys(DOCUMENT_SOURCES)) {
    assert.equal(sourceFor(file(format, true)), DOCUMENT_SOURCES[format]);
  }
  assert.equal(gzipSourceFor("toString"), null);
});

/** Lines of a realistic log, `n` of them (~1.6 KB each, compressing ~5×). */
function logLines(n: number, seed: number): Uint8Array {
  const r = rng(seed);
  const words = ["the", "answer", "is", "é", "step", "so", "\n", '"', "\\", "2028"];
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const len = 100 + Math.floor(r() * 400);
    const response = Array.from({ length: len }, () => words[Math.floor(r() * words.length)])
      .join(" ") + ` ${r()}`;
    out.push(JSON.stringify({ task: "nycc", example_index: i % 150, response, model: "m" }));
  }
  return utf8(out.join("\n") + "\n");
}

const COUNT_CHILD = `
import { DEFAULT_LIMITS } from "@runlens/logs/limits.ts";
import { gzipSourceFor } from "@runlens/logs/sources/gzip_lines.ts";
import { textOf } from "@runlens/logs/record.ts";
const [path] = Deno.args;
const file = { id: 0, path, name: path.replace(/\\.gz$/, ""), format: "canonical-jsonl",
  gzip: true, defaultRun: "x", size: Deno.statSync(path).size };
let n = 0, chars = 0, bad = 0;
gzipSourceFor(file.format)!.read(file, {
  record: (r) => { n++; chars += textOf(r.response)!.length; },
  bad: () => bad++,
}, DEFAULT_LIMITS);
console.log(JSON.stringify({ n, chars, bad }));
`;

Deno.test("gzip JSONL: a ~300 MB-decompressed log streams in bounded memory", async () => {
  await withTempDir(async (dir) => {
    const path = join(dir, "run.jsonl.gz");
    // 4 members of ~75 MB each: cheap to build, 300 MB to inflate and read
    const text = concat(Array.from({ length: 4 }, (_, k) => logLines(15_000, k)));
    const gz = new Uint8Array(gzipSync(text));
    Deno.writeFileSync(path, concat([gz, gz, gz, gz]));
    const m = await peakRss(COUNT_CHILD, [path]);
    const out = JSON.parse(m.stdout);
    assert.equal(out.n, 4 * 60_000, m.stderr);
    assert.equal(out.bad, 0);
    const size = 4 * text.length;
    console.log(
      `${(size / MiB).toFixed(0)} MiB decompressed (${(4 * gz.length / MiB).toFixed(0)} MiB ` +
        `gzip): peak RSS ${(m.peak / MiB).toFixed(0)} MiB, ${m.ms.toFixed(0)} ms`,
    );
    assert.ok(size > 280 * MiB, `${size}`);
    assert.ok(m.peak < 200 * MiB, `peak RSS ${(m.peak / MiB).toFixed(0)} MiB`);
  });
});
