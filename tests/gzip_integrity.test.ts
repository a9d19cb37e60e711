/**
 * Integrity of gzip data (`codecs/gzip_stream.ts`), issue 15 item 2: every member's header,
 * CRC-32 and ISIZE checked, several members read in turn, truncation anywhere an error, bytes
 * after the last member an error (zero padding excepted); the output is the same whatever the
 * chunking of the input; line blocks carry exact offsets and line numbers and never hold an
 * overlong line. A seeded mutation loop checks that whatever is accepted decompresses to what
 * node:zlib finds in the intact parts.
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { DEFAULT_LIMITS } from "@runlens/logs/limits.ts";
import {
  gunzipAll,
  gunzipChunks,
  gunzipHead,
  gunzipLines,
  GunzipStream,
  OVERLONG_HEAD,
} from "@runlens/codecs/gzip_stream.ts";
import { FileError } from "@runlens/codecs/errors.ts";
import {
  concat,
  deflateRepeated,
  gzipBytes,
  gzipMember,
  peakRss,
  READ_CHILD,
  rng,
  utf8,
} from "./_containers.ts";
import { collect } from "./_collect.ts";
import { withTempDir } from "./_tmp.ts";

const text = (n: number, seed = 1) => {
  const r = rng(seed);
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    lines.push(
      JSON.stringify({
        task: "nycc",
        example_index: i,
        response: "x".repeat(Math.floor(r() * 300)) + r(),
      }),
    );
  }
  return utf8(lines.join("\n") + "\n");
};

/** gunzipAll of in-memory bytes; the error message (FileError only) when it fails. */
function gunzip(bytes: Uint8Array, limits = DEFAULT_LIMITS): Uint8Array | string {
  try {
    return gunzipAll("x.gz", limits, { bytes });
  } catch (e) {
    if (!(e instanceof FileError)) throw e;
    return e.reason;
  }
}

Deno.test("gzip: valid data, one or several members, header fields, empty members", () => {
  const a = text(200), b = text(50, 2);
  assert.deepEqual(gunzip(gzipBytes(a)), a);
  assert.deepEqual(
    gunzip(concat([gzipBytes(a), gzipBytes(b), gzipBytes(new Uint8Array())])),
    concat([a, b]),
  );
  // FEXTRA, FNAME, FCOMMENT and FHCRC set: the header CRC-16 is checked
  const body = gzipBytes(a).subarray(10);
  const fields = concat([
    utf8("\u0004\u0000abcd"),
    utf8("name.jsonl\u0000"),
    utf8("a comment\u0000"),
  ]);
  const head = concat([new Uint8Array([0x1f, 0x8b, 8, 4 | 8 | 16 | 2, 0, 0, 0, 0, 0, 3]), fields]);
  const hcrc = Number(BigInt.asUintN(32, BigInt(crcOf(head)))) & 0xffff;
  const withCrc = concat([head, new Uint8Array([hcrc & 0xff, hcrc >> 8]), body]);
  assert.deepEqual(gunzip(withCrc), a);
  const wrong = withCrc.slice();
  wrong[head.length] ^= 1;
  assert.equal(gunzip(wrong), "gzip member 1: header CRC-16 mismatch");
  // zero padding after the last member is ignored (tape blocks)
  assert.deepEqual(gunzip(concat([gzipBytes(a), new Uint8Array(100)])), a);
});

function crcOf(bytes: Uint8Array): number {
  // CRC-32 of the header, for FHCRC (its low 16 bits)
  let c = 0xffffffff;
  for (const byte of bytes) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

Deno.test("gzip: bad CRC, bad ISIZE, truncation, garbage and a bad second member are named", () => {
  const a = text(100);
  const gz = gzipBytes(a);
  const flip = (at: number) => {
    const o = gz.slice();
    o[at] ^= 0x40;
    return o;
  };
  assert.match(
    gunzip(flip(gz.length - 8)) as string,
    /^gzip member 1 \(at byte 0\): CRC-32 mismatch \(data 0x[0-9a-f]{8}, trailer 0x[0-9a-f]{8}\)$/,
  );
  assert.match(
    gunzip(flip(gz.length - 2)) as string,
    /^gzip member 1 \(at byte 0\): size mismatch \(inflated to [\d,]+ bytes, trailer ISIZE [\d,]+\)$/,
  );
  assert.equal(
    gunzip(gz.subarray(0, gz.length - 3)),
    "gzip member 1 (at byte 0): truncated (the file ends inside its trailer)",
  );
  assert.equal(
    gunzip(gz.subarray(0, 200)),
    "gzip member 1 (at byte 0): truncated (the file ends inside its compressed data)",
  );
  assert.equal(
    gunzip(gz.subarray(0, 5)),
    "gzip member 1 (at byte 0): truncated (the file ends inside its header)",
  );
  assert.equal(gunzip(new Uint8Array()), "empty file (no gzip member)");
  assert.equal(gunzip(a), "not gzip data (no gzip signature)");
  assert.equal(
    gunzip(concat([gz, utf8("garbage")])),
    "bytes after gzip member 1 that are not a gzip member (trailing garbage)",
  );
  assert.match(
    gunzip(concat([gz, new Uint8Array([0, 0, 7])])) as string,
    /trailing garbage at byte/,
  );
  const second = gzipBytes(text(10, 3));
  second[second.length - 6] ^= 1;
  assert.match(
    gunzip(concat([gz, second])) as string,
    new RegExp(
      `^gzip member 2 \\(at byte ${gz.length.toLocaleString("en-US")}\\): CRC-32 mismatch`,
    ),
  );
  assert.match(gunzip(flip(3)) as string, /^gzip member 1: reserved header flags set$|header/);
  const method = gz.slice();
  method[2] = 7;
  assert.equal(gunzip(method), "gzip member 1: compression method 7, not deflate");
  // the truncation of every prefix is an error, never another exception
  for (let cut = 1; cut < gz.length; cut += 7) {
    assert.equal(typeof gunzip(gz.subarray(0, cut)), "string");
  }
});

Deno.test("gzip: the output does not depend on how the input is cut into chunks", () => {
  const r = rng(3);
  const a = text(300), b = text(20, 9);
  const gz = concat([gzipBytes(a), gzipBytes(b)]);
  for (let round = 0; round < 40; round++) {
    const s = new GunzipStream(DEFAULT_LIMITS);
    const out: Uint8Array[] = [];
    for (let at = 0; at < gz.length;) {
      const step = round === 0 ? 1 : 1 + Math.floor(r() * (round < 20 ? 16 : 5000));
      out.push(...s.push(gz.subarray(at, at + step)));
      at += step;
    }
    s.end();
    assert.deepEqual(concat(out), concat([a, b]), `round ${round}`);
    assert.equal(s.members, 2);
  }
});

Deno.test("gzip lines: offsets, line numbers, unterminated last lines, overlong lines", () => {
  const r = rng(11);
  for (let round = 0; round < 30; round++) {
    // lines of random lengths, some over the limit, some empty, CRLF, no final newline
    const parts: string[] = [];
    const n = 1 + Math.floor(r() * 200);
    for (let i = 0; i < n; i++) {
      const len = r() < 0.05 ? 5000 + Math.floor(r() * 200_000) : Math.floor(r() * 400);
      parts.push("y".repeat(len) + (r() < 0.1 ? "\r" : ""));
    }
    const body = parts.join("\n") + (r() < 0.5 ? "\n" : "");
    const plain = utf8(body);
    const limits = { ...DEFAULT_LIMITS, maxLineBytes: 4096 };
    const blocks = [...gunzipLines("l.gz", limits, { bytes: gzipBytes(plain) })];
    // rebuild the lines from the blocks and compare with a plain split
    const expected = body.split("\n");
    if (expected.at(-1) === "") expected.pop();
    let line = 1;
    let offset = 0;
    const seen: string[] = [];
    for (const b of blocks) {
      assert.equal(b.line, line);
      assert.equal(b.offset, offset);
      if (b.overlong !== undefined) {
        assert.equal(b.lines, 1);
        assert.ok(b.overlong > 4096);
        assert.deepEqual(
          b.bytes,
          plain.subarray(offset, offset + Math.min(b.overlong, OVERLONG_HEAD)),
        );
        seen.push("<overlong>");
        offset += b.overlong + 1;
      } else {
        const t = new TextDecoder().decode(b.bytes);
        const ls = t.split("\n");
        if (ls.at(-1) === "") ls.pop();
        assert.equal(ls.length, b.lines);
        seen.push(...ls);
        offset += b.bytes.length;
      }
      line += b.lines;
    }
    assert.deepEqual(
      seen,
      expected.map((l) => (utf8(l).length > 4096 ? "<overlong>" : l)),
      `round ${round}`,
    );
    const last = blocks.at(-1);
    if (last) assert.equal(last.unterminatedLast, !body.endsWith("\n"));
  }
});

Deno.test("gzip: files on disk, the head for detection, and the sources read gzip documents", () => {
  withTempDir((dir) => {
    const plain = text(500);
    const path = join(dir, "run.jsonl.gz");
    Deno.writeFileSync(path, gzipSync(plain));
    let total = 0;
    for (const c of gunzipChunks(path, DEFAULT_LIMITS)) total += c.length;
    assert.equal(total, plain.length);
    assert.deepEqual(
      gunzipHead(Deno.readFileSync(path).subarray(0, 100), 20),
      plain.subarray(0, 20),
    );
    assert.equal(gunzipHead(utf8("nope"), 10).length, 0);
    // a document source on a corrupt gzip document: an error naming file and member
    const mcpbr = join(dir, "results.json.gz");
    const gz = gzipSync(
      Deno.readFileSync("tests/fixtures/logs/formats/mcpbr/bbh-sonnet/results.json"),
    );
    gz[gz.length - 7] ^= 1;
    Deno.writeFileSync(mcpbr, gz);
    assert.throws(
      () => collect("mcpbr", mcpbr, { gzip: true }),
      /results\.json\.gz: gzip member 1 \(at byte 0\): CRC-32 mismatch/,
    );
  });
});

Deno.test("gzip: seeded mutations are read only to what the intact data holds", () => {
  const r = rng(20260415);
  const a = text(80), b = text(30, 5);
  const original = concat([gzipBytes(a), gzipBytes(b)]);
  let read = 0, refused = 0;
  for (let k = 0; k < 400; k++) {
    const bytes = original.slice();
    const at = Math.floor(r() * bytes.length);
    const op = k % 4;
    let mutated: Uint8Array;
    if (op === 3) {
      bytes[4 + (k % 6)] ^= 1 + Math.floor(r() * 255); // MTIME, XFL, OS: not checked
      mutated = bytes;
    } else if (op === 0) {
      bytes[at] ^= 1 + Math.floor(r() * 255);
      mutated = bytes;
    } else if (op === 1) mutated = bytes.subarray(0, at);
    else mutated = concat([bytes.subarray(0, at), bytes.subarray(at + 1 + Math.floor(r() * 30))]);
    const got = gunzip(mutated);
    if (typeof got === "string") {
      refused++;
      continue;
    }
    read++;
    // accepted: node:zlib reads the same (header fields like MTIME may have changed)
    assert.deepEqual(got, new Uint8Array(gunzipSync(mutated)), `round ${k}`);
    // (a cut exactly after the first member leaves a valid file of its content)
    const whole = concat([a, b]);
    assert.ok(
      got.length === whole.length ? got.every((x, i) => x === whole[i]) : got.length === a.length,
      `round ${k}`,
    );
  }
  assert.ok(refused > 250 && read >= 100, `${read} read, ${refused} refused`);
});

const MiB = 2 ** 20;

Deno.test("gzip bombs: 1 GB of zeros or newlines in 1 MB is refused within bounded memory", async () => {
  await withTempDir(async (dir) => {
    for (const [name, fill] of [["zeros.jsonl.gz", 0], ["newlines.jsonl.gz", 0x0a]] as const) {
      const path = join(dir, name);
      Deno.writeFileSync(path, gzipMember(deflateRepeated(fill, 2 ** 30)));
      assert.ok(Deno.statSync(path).size < 1.1 * MiB);
      const m = await peakRss(READ_CHILD, ["lines", path]);
      const out = JSON.parse(m.stdout);
      assert.match(
        out.error,
        new RegExp(
          `${name}: gzip member 1 \\(at byte 0\\): inflates more than 1,000× its compressed size`,
        ),
      );
      // measured: ~65 MiB (a Deno process alone: ~60 MiB)
      assert.ok(m.peak < 200 * MiB, `${name}: peak RSS ${(m.peak / MiB).toFixed(0)} MiB`);
      console.log(`${name}: peak RSS ${(m.peak / MiB).toFixed(0)} MiB, ${m.ms.toFixed(0)} ms`);
    }
    // the size budget: a file inflating past --max-inflated (here lowered) stops there
    const path = join(dir, "big.jsonl.gz");
    Deno.writeFileSync(path, gzipBytes(text(20000)));
    const limits = { ...DEFAULT_LIMITS, maxInflated: 1 << 20 };
    assert.throws(
      () => [...gunzipLines(path, limits)],
      /big\.jsonl\.gz: gzip member 1 \(at byte 0\): inflates past 1,048,576 bytes \(--max-inflated\)/,
    );
  });
});

Deno.test("gzip: a large real-looking log streams as lines in bounded memory", async () => {
  await withTempDir(async (dir) => {
    const path = join(dir, "run.jsonl.gz");
    // ~250 MB of JSON lines (compressing ~40×), written in pieces
    const gz = new Uint8Array(
      gzipSync(concat(Array.from({ length: 40 }, (_, k) => text(12000, k)))),
    );
    Deno.writeFileSync(path, concat([gz, gz, gz, gz]));
    const m = await peakRss(READ_CHILD, ["lines", path]);
    assert.deepEqual(JSON.parse(m.stdout), { ok: 4 * 40 * 12000, bad: [] });
    assert.ok(m.peak < 250 * MiB, `peak RSS ${(m.peak / MiB).toFixed(0)} MiB`);
    console.log(
      `${(4 * gz.length / MiB).toFixed(0)} MiB gzip: peak RSS ${(m.peak / MiB).toFixed(0)} MiB, ${
        m.ms.toFixed(0)
      } ms`,
    );
  });
});
