/**
 * `readRange` with `reuseBuffer` keeps its buffer for the next range (a Worker reads hundreds of
 * files): a range read after a bigger one, in a buffer that still holds the bigger one's bytes,
 * gives exactly the lines it gives in a fresh buffer — including an unterminated last line and
 * a range starting mid-file.
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readRange } from "@runlens/codecs/line_ranges.ts";
import { withTempDir } from "./_tmp.ts";

/** The lines of `[start, end)` of `path` as text, read with or without buffer reuse. */
function lines(path: string, start: number, end: number, reuseBuffer: boolean): string[] {
  const out: string[] = [];
  const decoder = new TextDecoder();
  readRange(path, start, end, 64 << 10, (b, s, limit) => {
    const nl = b.indexOf(0x0a, s);
    out.push(decoder.decode(b.subarray(s, nl < 0 || nl > limit ? limit : nl)));
    return -1;
  }, { reuseBuffer });
  return out;
}

Deno.test("readRange reusing its buffer across ranges: the same lines as fresh buffers", () =>
  withTempDir((dir) => {
    const big = join(dir, "big.jsonl");
    const long = "x".repeat(900);
    Deno.writeTextFileSync(
      big,
      Array.from({ length: 600 }, (_, i) => `{"i":${i},"t":"${long}"}\n`).join(""),
    );
    const small = join(dir, "small.jsonl");
    Deno.writeTextFileSync(small, '{"a":1}\n\n{"b":"é"}\n{"c":"no final newline"}');
    const bigSize = Deno.statSync(big).size;
    const expected = {
      small: lines(small, 0, 1 << 20, false),
      tail: lines(big, bigSize - 5000, bigSize, false),
    };
    assert.deepEqual(expected.small, ['{"a":1}', "", '{"b":"é"}', '{"c":"no final newline"}']);
    for (let round = 0; round < 2; round++) {
      assert.equal(lines(big, 0, bigSize, true).length, 600); // fills the kept buffer
      assert.deepEqual(lines(small, 0, 1 << 20, true), expected.small);
      assert.deepEqual(lines(big, bigSize - 5000, bigSize, true), expected.tail);
      assert.deepEqual(lines(small, 3, 1 << 20, true), expected.small.slice(1));
    }
  }));
