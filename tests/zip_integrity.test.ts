/**
 * Integrity of ZIP archives (`codecs/zip.ts`) and inspect `.eval` logs (`sources/inspect.ts`),
 * issue 15 item 2: a member whose CRC-32 or size is wrong (deflate, zstd, stored), data
 * altered under the old CRC in `header.json`, `summaries.json`, `_journal/start.json` or a
 * sample, mismatched local headers, truncated and garbage archives, unsupported methods,
 * corrupt zstd frames — each an error naming the archive and the member, never a silent read.
 * A seeded mutation loop over real and fixture archives checks that whatever the reader
 * accepts, an independent check (node:zlib) finds intact.
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT } from "@runlens/core/data_dir.ts";
import { DEFAULT_LIMITS } from "@runlens/logs/limits.ts";
import { crc32, crc32Table } from "@runlens/codecs/crc32.ts";
import { FileError } from "@runlens/codecs/errors.ts";
import { ZipArchive, ZstdFrameGuard } from "@runlens/codecs/zip.ts";
import {
  buildZip,
  concat,
  DEFLATE,
  deflateRepeated,
  type Entry,
  gzipBytes,
  pack,
  peakRss,
  READ_CHILD,
  rng,
  STORED,
  utf8,
  zipProblem,
  ZSTD,
  zstd,
  zstdRepeated,
} from "./_containers.ts";
import { collect } from "./_collect.ts";
import { dataTest } from "./_data.ts";
import { withTempDir } from "./_tmp.ts";

const INSPECT = join(REPO_ROOT, "tests", "fixtures", "logs", "formats", "inspect");

const SPEC = { task: "bbeh", task_args: {}, model: "openai/gpt-4o" };
const sample = (id: number, epoch = 1) =>
  JSON.stringify({
    id,
    epoch,
    input: `question ${id}`,
    target: "x",
    metadata: { task: "nycc" },
    output: { completion: `The answer is: ${id}` },
    scores: { s: { value: "C" } },
  });

/** The members of a small `.eval` (header, samples, summaries, reductions, journal). */
function evalEntries(method: number, crashed = false): Entry[] {
  const members: [string, string][] = [
    ["_journal/start.json", JSON.stringify({ version: 2, eval: SPEC })],
    ["samples/1_epoch_1.json", sample(1)],
    ["samples/2_epoch_1.json", sample(2)],
    ["summaries.json", JSON.stringify([{ id: 1, epoch: 1 }, { id: 2, epoch: 1 }])],
    ["reductions.json", "[]"],
  ];
  if (!crashed) {
    members.push(["header.json", JSON.stringify({ version: 2, status: "success", eval: SPEC })]);
  }
  return members.map(([name, text]) => ({ name, method, data: utf8(text) }));
}

/** Read `bytes` as a `.eval` with the inspect source; the records, or the error message. */
function readEval(bytes: Uint8Array): { records: number; bad: number } | string {
  return withTempDir((dir) => {
    const path = join(dir, "run.eval");
    Deno.writeFileSync(path, bytes);
    try {
      const got = collect("inspect-eval", path);
      return { records: got.records.length, bad: got.bad.length };
    } catch (e) {
      if (!(e instanceof FileError)) throw e; // anything else is a bug
      return e.message.replace(`${path}: `, "");
    }
  });
}

Deno.test("crc32: native and table agree", () => {
  const r = rng(1);
  for (let k = 0; k < 50; k++) {
    const bytes = new Uint8Array(Math.floor(r() * 5000)).map(() => Math.floor(r() * 256));
    assert.equal(crc32(bytes), crc32Table(bytes));
    const cut = Math.floor(r() * bytes.length);
    assert.equal(crc32(bytes.subarray(cut), crc32(bytes.subarray(0, cut))), crc32(bytes));
  }
});

Deno.test("zip: valid archives (stored, deflate, zstd, mixed, with a comment) read whole", () => {
  for (const method of [STORED, DEFLATE, ZSTD]) {
    const bytes = buildZip(evalEntries(method), "a comment");
    assert.equal(zipProblem(bytes), null);
    assert.deepEqual(readEval(bytes), { records: 2, bad: 0 });
    const zip = ZipArchive.fromBytes("x.eval", bytes);
    zip.verifyAll(DEFAULT_LIMITS);
    assert.equal(
      new TextDecoder().decode(zip.read("samples/2_epoch_1.json", DEFAULT_LIMITS)),
      sample(2),
    );
  }
  const mixed = evalEntries(DEFLATE).map((e, i) => ({
    ...e,
    method: [STORED, DEFLATE, ZSTD][i % 3],
  }));
  assert.deepEqual(readEval(buildZip(mixed)), { records: 2, bad: 0 });
  // zstd frames with a content checksum and with several frames in one member
  const two = evalEntries(ZSTD).map((e) =>
    e.name === "samples/1_epoch_1.json"
      ? {
        ...e,
        packed: {
          compressed: concat([zstd(e.data!.subarray(0, 10), true), zstd(e.data!.subarray(10))]),
          crc: crc32(e.data!),
          size: e.data!.length,
        },
      }
      : e
  );
  assert.deepEqual(readEval(buildZip(two)), { records: 2, bad: 0 });
  // a crashed run: no header.json, the spec from _journal/start.json
  assert.deepEqual(readEval(buildZip(evalEntries(DEFLATE, true))), { records: 2, bad: 0 });
});

Deno.test("zip: a wrong CRC-32 in any member, any method, is an error naming it", () => {
  for (const method of [STORED, DEFLATE, ZSTD]) {
    for (
      const member of [
        "header.json",
        "summaries.json",
        "_journal/start.json",
        "samples/2_epoch_1.json",
        "reductions.json",
      ]
    ) {
      const entries = evalEntries(method).map((e) =>
        e.name === member ? { ...e, crcLocal: 0xdeadbeef, crcCentral: 0xdeadbeef } : e
      );
      const got = readEval(buildZip(entries));
      assert.equal(typeof got, "string", `${member} (${method})`);
      assert.match(
        got as string,
        new RegExp(
          `^member ${
            member.replace(/[./]/g, "\\$&")
          }: CRC-32 mismatch \\(data 0x[0-9a-f]{8}, declared 0xdeadbeef\\)$`,
        ),
      );
    }
  }
});

Deno.test("zip: data altered under the old CRC (same length, still JSON) is an error", () => {
  for (const method of [DEFLATE, ZSTD]) {
    for (
      const member of [
        "header.json",
        "summaries.json",
        "_journal/start.json",
        "samples/1_epoch_1.json",
      ]
    ) {
      const entries = evalEntries(method).map((e) => {
        if (e.name !== member) return e;
        const text = new TextDecoder().decode(e.data);
        const changed = utf8(text.replace(/[a-z]/, (c) => (c === "x" ? "y" : "x")));
        return { ...e, packed: { ...pack(changed, method), crc: crc32(e.data!) } };
      });
      const bytes = buildZip(entries);
      assert.notEqual(zipProblem(bytes), null);
      assert.match(
        readEval(bytes) as string,
        new RegExp(`^member ${member.replace(/[./]/g, "\\$&")}: CRC-32 mismatch`),
      );
    }
  }
});

Deno.test("zip: sizes, local headers, methods, names and flags that disagree are errors", () => {
  const one = (change: Partial<Entry>, member = "samples/1_epoch_1.json", method = DEFLATE) =>
    readEval(
      buildZip(evalEntries(method).map((e) => (e.name === member ? { ...e, ...change } : e))),
    );
  const size = sample(1).length;
  assert.equal(
    one({ sizeLocal: size + 5, sizeCentral: size + 5 }),
    `member samples/1_epoch_1.json: inflates to ${size} bytes, not the declared ${size + 5}`,
  );
  assert.equal(
    one({ sizeLocal: size - 5, sizeCentral: size - 5 }),
    `member samples/1_epoch_1.json: inflates past its declared size of ${size - 5} bytes`,
  );
  assert.equal(
    one({ sizeLocal: size - 5, sizeCentral: size - 5 }, "samples/1_epoch_1.json", ZSTD),
    `member samples/1_epoch_1.json: inflates past its declared size of ${size - 5} bytes`,
  );
  assert.match(
    one({ crcLocal: 1 }) as string,
    /local header CRC-32 0x00000001 differs from the central/,
  );
  assert.match(
    one({ nameCentral: "samples/9_epoch_1.json" }) as string,
    /^member samples\/9_epoch_1\.json: the local header names it "samples\/1_epoch_1\.json"$/,
  );
  assert.equal(
    one({ method: 12 }),
    "member samples/1_epoch_1.json: unsupported ZIP compression method 12",
  );
  assert.equal(one({ flags: 0x0801 }), "member samples/1_epoch_1.json: encrypted (not read)");
  assert.equal(
    one({ sizeCentral: size + 1, sizeLocal: size + 1 }, "reductions.json", STORED),
    "member reductions.json: stored, but its sizes differ",
  );
  const dup = evalEntries(DEFLATE);
  dup.push({ ...dup[1] });
  assert.equal(readEval(buildZip(dup)), "member samples/1_epoch_1.json: duplicate member name");
  // a data descriptor (flag bit 3): local CRC and sizes are zero, the central ones count
  assert.deepEqual(
    readEval(
      buildZip(
        evalEntries(DEFLATE).map((e) => ({ ...e, flags: 0x0808, crcLocal: 0, sizeLocal: 0 })),
      ),
    ),
    { records: 2, bad: 0 },
  );
});

Deno.test("zip: truncated, garbage and empty archives are errors naming the file", () => {
  for (const method of [DEFLATE, ZSTD]) {
    const bytes = buildZip(evalEntries(method));
    for (let cut = 1; cut < bytes.length; cut += 13) {
      const got = readEval(bytes.subarray(0, cut));
      assert.equal(typeof got, "string", `cut at ${cut}`);
    }
  }
  const r = rng(7);
  const random = new Uint8Array(3000).map(() => Math.floor(r() * 256));
  assert.equal(readEval(random), "not a ZIP archive (no end-of-central-directory record)");
  assert.equal(
    readEval(concat([utf8("PK\u0003\u0004"), random])),
    "corrupt ZIP archive (no end-of-central-directory record: truncated?)",
  );
  assert.equal(readEval(new Uint8Array()), "not a ZIP archive (empty file)");
  assert.equal(
    readEval(buildZip([])),
    "neither header.json nor _journal/start.json holds the eval spec",
  );
  assert.equal(
    readEval(gzipBytes(utf8('{"a": 1}\n'))),
    "not a ZIP archive (no end-of-central-directory record)",
  );
  assert.equal(
    readEval(utf8("this is not an inspect log\n")),
    "not a ZIP archive (no end-of-central-directory record)",
  );
  // members that are not valid JSON (the spec's and a sample's) name the member
  const bad = evalEntries(DEFLATE).map((
    e,
  ) => (e.name === "header.json" ? { ...e, data: utf8('{"eval": {') } : e));
  assert.match(readEval(buildZip(bad)) as string, /^member header\.json: not valid JSON \(/);
  const badStart = evalEntries(DEFLATE).map((
    e,
  ) => (e.name === "_journal/start.json" ? { ...e, data: utf8("not json") } : e));
  assert.match(
    readEval(buildZip(badStart)) as string,
    /^member _journal\/start\.json: not valid JSON/,
  );
  const badSample = evalEntries(ZSTD).map((
    e,
  ) => (e.name === "samples/2_epoch_1.json" ? { ...e, data: utf8('{"id": NaX}') } : e));
  assert.match(
    readEval(buildZip(badSample)) as string,
    /^member samples\/2_epoch_1\.json: not valid JSON/,
  );
  // summaries.json is verified, not parsed: invalid JSON there is read past
  const badSummaries = evalEntries(DEFLATE).map((
    e,
  ) => (e.name === "summaries.json" ? { ...e, data: utf8("[1, 2") } : e));
  assert.deepEqual(readEval(buildZip(badSummaries)), { records: 2, bad: 0 });
  // a sample that is no object is one bad record
  const scalar = evalEntries(DEFLATE).map((
    e,
  ) => (e.name === "samples/2_epoch_1.json" ? { ...e, data: utf8("[1]") } : e));
  assert.deepEqual(readEval(buildZip(scalar)), { records: 1, bad: 1 });
});

Deno.test("zip: corrupt zstd frames and oversized windows are refused before decoding", () => {
  const flipped = evalEntries(ZSTD).map((e) =>
    e.name === "samples/1_epoch_1.json"
      ? {
        ...e,
        corrupt: (c: Uint8Array) => {
          const o = c.slice();
          o[o.length - 3] ^= 0x5a;
          return o;
        },
      }
      : e
  );
  assert.match(readEval(buildZip(flipped)) as string, /^member samples\/1_epoch_1\.json: /);
  // a frame header declaring a 2 GB window: refused before fzstd allocates it
  const g = new ZstdFrameGuard(1 << 27, 1 << 30);
  assert.throws(
    () => g.scan(new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0xf8])),
    /zstd window of 2,[0-9,]+ bytes, over the 134,217,728 accepted/,
  );
  const big = evalEntries(ZSTD).map((e) =>
    e.name === "samples/1_epoch_1.json"
      ? {
        ...e,
        corrupt: (c: Uint8Array) => {
          const o = c.slice();
          o[4] = 0x00;
          o[5] = 0xf8;
          return o;
        },
      }
      : e
  );
  // (the zstd writer declares a content size: the guard sees a single-segment frame changed)
  assert.match(readEval(buildZip(big)) as string, /^member samples\/1_epoch_1\.json: /);
  // a frame declaring more content than the member's size
  const g2 = new ZstdFrameGuard(1 << 27, 100);
  assert.throws(
    () => g2.scan(new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, 0xa0, 0x00, 0x10, 0x00, 0x00])),
    /declares 4,096 bytes, more than the member's 100/,
  );
});

Deno.test("zip: the committed fixtures: intact ones read, the corrupt one is named", () => {
  for (const kind of ["deflate", "zstd"]) {
    const zip = ZipArchive.open(join(INSPECT, kind, "bbeh_run.eval"));
    zip.verifyAll(DEFAULT_LIMITS);
    zip.close();
  }
  const corrupt = join(REPO_ROOT, "tests", "fixtures", "broken_logs", "corrupt_zstd.eval");
  assert.throws(
    () => collect("inspect-eval", corrupt),
    /corrupt_zstd\.eval: member samples\/1_epoch_2\.json: corrupt zstd data/,
  );
});

/** Mutate `bytes` once (seeded): flip, bit flip, cut, duplicate, zero, delete or insert. */
function mutate(bytes: Uint8Array, r: () => number): Uint8Array {
  const n = bytes.length;
  const pos = () => Math.floor(r() * n);
  const op = Math.floor(r() * 7);
  const out = bytes.slice();
  if (op === 0) {
    out[pos()] ^= 1 + Math.floor(r() * 255);
    return out;
  }
  if (op === 1) {
    out[pos()] ^= 1 << Math.floor(r() * 8);
    return out;
  }
  if (op === 2) return bytes.slice(0, 1 + pos());
  if (op === 3) {
    const a = pos(), len = 1 + Math.floor(r() * Math.min(512, n - a)), c = pos();
    return concat([bytes.subarray(0, c), bytes.subarray(a, a + len), bytes.subarray(c)]);
  }
  if (op === 4) {
    const a = pos();
    out.fill(0, a, a + 1 + Math.floor(r() * 64));
    return out;
  }
  if (op === 5) {
    const a = pos();
    return concat([bytes.subarray(0, a), bytes.subarray(a + 1 + Math.floor(r() * 64))]);
  }
  const a = pos();
  const junk = new Uint8Array(1 + Math.floor(r() * 32)).map(() => Math.floor(r() * 256));
  return concat([bytes.subarray(0, a), junk, bytes.subarray(a)]);
}

/** Mutations of `archives`: the reader accepts only archives an independent check finds intact. */
function mutationLoop(
  archives: Uint8Array[],
  rounds: number,
  seed: number,
): { read: number; refused: number } {
  const r = rng(seed);
  let read = 0, refused = 0;
  for (let k = 0; k < rounds; k++) {
    const original = archives[k % archives.length];
    const bytes = mutate(original, r);
    const got = readEval(bytes);
    if (typeof got === "string") {
      refused++;
      continue;
    }
    read++;
    const problem = zipProblem(bytes);
    assert.equal(problem, null, `round ${k}: read an archive with ${problem}`);
  }
  return { read, refused };
}

Deno.test("zip: seeded mutations of fixture archives are read only when intact", () => {
  const archives = [
    Deno.readFileSync(join(INSPECT, "deflate", "bbeh_run.eval")),
    Deno.readFileSync(join(INSPECT, "zstd", "bbeh_run.eval")),
    buildZip(evalEntries(STORED)),
  ];
  const { read, refused } = mutationLoop(archives, 300, 20260415);
  assert.ok(refused > 200, `refused ${refused}`);
  assert.ok(read > 0, `read ${read}`);
});

dataTest(
  "zip: seeded mutations of the real inspect .eval logs are read only when intact",
  (data) => {
    const dir = join(data, "logs", "inspect");
    const archives = [...Deno.readDirSync(dir)].filter((e) => e.name.endsWith(".eval")).map((e) =>
      Deno.readFileSync(join(dir, e.name))
    );
    assert.equal(archives.length, 3);
    const { refused } = mutationLoop(archives, 200, 7);
    assert.ok(refused > 100);
  },
);

const MiB = 2 ** 20;
const GB = 2 ** 30;

Deno.test(".eval bombs: 2 GB members in 2 MB (deflate) or 64 KB (zstd) are refused, RSS bounded", async () => {
  // a sample refused by the budget is one bad record (the other sample is read); a member
  // inflating past its declared size is corrupt (the file is an error)
  await withTempDir(async (dir) => {
    const cases: [string, Entry, "bad" | "error" | "ok", RegExp, Record<string, number>?][] = [];
    const sample = (packed: Entry["packed"], method: number, lie = false): Entry => ({
      name: "samples/1_epoch_1.json",
      method,
      packed,
      ...(lie ? { sizeLocal: 1000, sizeCentral: 1000 } : {}),
    });
    const pad = ['{"id": 1, "epoch": 1, "pad": "', '"}'] as const;
    const deflateBomb = deflateRepeated(0x61, 2 * GB, ...pad);
    const zstdBomb = zstdRepeated(0x61, 2 * GB, ...pad);
    const declared =
      /member samples\/1_epoch_1\.json: declares 2,147,483,680 bytes from [\d,]+ compressed, more than 1,000× \(a compression bomb\?\) \(--max-ratio\)/;
    const lied = /member samples\/1_epoch_1\.json: inflates past its declared size of 1,000 bytes/;
    cases.push(["deflate-honest", sample(deflateBomb, DEFLATE), "bad", declared]);
    cases.push(["zstd-honest", sample(zstdBomb, ZSTD), "bad", declared]);
    cases.push(["deflate-lying", sample(deflateBomb, DEFLATE, true), "error", lied]);
    cases.push(["zstd-lying", sample(zstdBomb, ZSTD, true), "error", lied]);
    // ratio and size limits raised: the member that is only verified streams through
    // (256 MB of it), the one parsed whole stops at the largest document
    cases.push([
      "summaries-streamed",
      {
        name: "summaries.json",
        method: DEFLATE,
        packed: deflateRepeated(0x61, GB / 4, '["', '"]'),
      },
      "ok",
      /^$/,
      { maxRatio: 1e9 },
    ]);
    cases.push([
      "sample-over-document-cap",
      sample(deflateBomb, DEFLATE),
      "bad",
      /member samples\/1_epoch_1\.json: inflates larger than 536,870,888 bytes, the most runlens parses as one JSON document/,
      { maxRatio: 1e9 },
    ]);
    for (const [name, bomb, outcome, expected, limits] of cases) {
      const path = join(dir, `${name}.eval`);
      const entries = evalEntries(bomb.method).filter((e) => e.name !== bomb.name);
      Deno.writeFileSync(path, buildZip([...entries, bomb]));
      const m = await peakRss(READ_CHILD, [
        "inspect-eval",
        path,
        "plain",
        JSON.stringify(limits ?? {}),
      ]);
      const out = JSON.parse(m.stdout);
      if (outcome === "ok") assert.deepEqual(out, { ok: 2, bad: [] }, name);
      else if (outcome === "bad") {
        assert.equal(out.ok, 2, name);
        assert.equal(out.bad.length, 1, name);
        assert.match(`member ${out.bad[0].replace(/^sample /, "")}`, expected, name);
      } else assert.match(out.error ?? "", expected, name);
      // a bomb read whole takes gigabytes; ~135 MiB alone, up to 224 seen under heavy load
      const bound = name === "sample-over-document-cap" ? 900 * MiB : 300 * MiB;
      assert.ok(m.peak < bound, `${name}: peak RSS ${(m.peak / MiB).toFixed(0)} MiB`);
      console.log(
        `${name} (${(Deno.statSync(path).size / MiB).toFixed(2)} MiB): peak RSS ${
          (m.peak / MiB).toFixed(0)
        } MiB, ${m.ms.toFixed(0)} ms`,
      );
    }
  });
});
