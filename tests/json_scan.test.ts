/**
 * The byte-level scanner of lib/stream/scan.ts against `JSON.parse`: on random and mutated
 * lines both must accept and reject the same lines, and every recorded value must decode to
 * what `JSON.parse` gives (duplicate keys: last wins; escapes, lone surrogates, non-ASCII).
 */
import assert from "node:assert/strict";
import { isUtf8 } from "node:buffer";
import { mulberry32 } from "@runlens/core/rng.ts";
import { pyLen } from "@runlens/core/python.ts";
import {
  BLANK,
  decodeKey,
  decodeSpan,
  E_DEPTH,
  E_KEYS,
  findElement,
  findMember,
  K_STRING,
  MAX_DEPTH,
  scanErrorReason,
  scanLine,
  scanValue,
  setWordScan,
  skipValue,
  stringChars,
  stringUtf8Bytes,
  Tape,
} from "@runlens/codecs/json_scan.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();

const PIECES = [
  "a",
  "plain ascii text of some length, to fill whole words",
  "The answer is: ",
  " ",
  "é",
  "ß",
  "日本",
  "😀",
  "\n",
  "\t",
  '"',
  "\\",
  "/",
  "\u0000",
  "\u001f",
  "\u007f",
  "\u2028",
  "\ud800",
  "\udc00",
  "\ud83d",
  "\ude00",
  "0",
];

/** A random string, written with random escape choices. */
function randomString(rnd: () => number): { text: string; json: string } {
  let text = "";
  const n = Math.floor(rnd() * 8);
  for (let i = 0; i < n; i++) text += PIECES[Math.floor(rnd() * PIECES.length)];
  let json = '"';
  for (const ch of text) {
    const cps = ch.length === 2 ? [ch] : [ch];
    for (const c of cps) {
      const code = c.codePointAt(0)!;
      const r = rnd();
      if (c === '"') json += '\\"';
      else if (c === "\\") json += "\\\\";
      else if (code < 0x20) json += r < 0.5 ? JSON.stringify(c).slice(1, -1) : uEsc(code, rnd);
      else if (r < 0.2) {
        json += code > 0xffff
          ? uEsc(0xd800 + ((code - 0x10000) >> 10), rnd) +
            uEsc(0xdc00 + ((code - 0x10000) & 0x3ff), rnd)
          : uEsc(code, rnd);
      } else if (c === "/" && r < 0.5) json += "\\/";
      else if (code >= 0xd800 && code <= 0xdfff) json += uEsc(code, rnd); // lone surrogate
      else json += c;
    }
  }
  return { text, json: json + '"' };
}

function uEsc(code: number, rnd: () => number): string {
  const h = code.toString(16).padStart(4, "0");
  return "\\u" + (rnd() < 0.5 ? h : h.toUpperCase());
}

const NUMBERS = ["0", "-0", "12", "-3.25", "1e5", "2E-3", "0.5e+2", "123456789012345678901"];

function randomValue(rnd: () => number, depth: number): string {
  const r = rnd();
  if (depth > 4 || r < 0.35) return randomString(rnd).json;
  if (r < 0.5) return NUMBERS[Math.floor(rnd() * NUMBERS.length)];
  if (r < 0.55) return ["true", "false", "null"][Math.floor(rnd() * 3)];
  const ws = () => [" ", "", "\t", "\r", "  "][Math.floor(rnd() * 5)];
  const n = Math.floor(rnd() * 4);
  if (r < 0.8) {
    const keys = ["a", "b", "a", "resps", "doc", "\\u0061", "é"];
    const members: string[] = [];
    for (let i = 0; i < n; i++) {
      members.push(
        `${ws()}"${keys[Math.floor(rnd() * keys.length)]}"${ws()}:${ws()}${
          randomValue(rnd, depth + 1)
        }${ws()}`,
      );
    }
    return `{${members.join(",") || ws()}}`;
  }
  const items: string[] = [];
  for (let i = 0; i < n; i++) items.push(`${ws()}${randomValue(rnd, depth + 1)}${ws()}`);
  return `[${items.join(",") || ws()}]`;
}

const MUTATIONS = [
  "",
  "\n",
  "\u0001",
  "\\",
  '"',
  ",",
  "}",
  "]",
  "{",
  "[",
  ":",
  "x",
  "\\u12",
  "\\x",
  "-",
  ".",
  "e",
  "01",
  " ",
  "\r",
  "tru",
  "nul",
];

function mutate(line: string, rnd: () => number): string {
  const at = Math.floor(rnd() * (line.length + 1));
  const r = rnd();
  if (r < 0.3) return line.slice(0, at) + line.slice(at + 1); // delete one char
  if (r < 0.4) return line.slice(0, at); // truncate
  const m = MUTATIONS[Math.floor(rnd() * MUTATIONS.length)];
  return line.slice(0, at) + m + line.slice(at);
}

/** The parsed value at tape entry `e` (walking up the parents), as JSON.parse placed it. */
function parsedAt(tape: Tape, b: Uint8Array, root: unknown, e: number): unknown {
  const path: (string | number)[] = [];
  for (let x = e; x >= 0; x = tape.parent[x]) {
    path.unshift(tape.keyStart[x] >= 0 ? decodeKey(b, tape, x) : tape.index[x]);
  }
  let v = root as Record<string | number, unknown>;
  for (const k of path) v = v[k] as Record<string | number, unknown>;
  return v;
}

/** Compare one line: same accept/reject, same values. Returns whether it was accepted. */
function check(line: string): boolean {
  const b = enc.encode(line);
  const tape = new Tape();
  const nl = b.indexOf(0x0a);
  const lineEnd = nl < 0 ? b.length : nl;
  const text = dec.decode(b.subarray(0, lineEnd));
  let parsed: unknown;
  let ok = true;
  try {
    parsed = JSON.parse(text);
  } catch {
    ok = false;
  }
  const r = scanLine(b, 0, b.length, tape);
  if (r === BLANK) {
    assert.equal(text.trim().replace(/[\r\t ]/g, ""), "", `blank: ${JSON.stringify(line)}`);
    assert.equal(ok, false);
    return false;
  }
  assert.equal(r >= 0, ok, `accept differs for ${JSON.stringify(line)} (${tape.error})`);
  if (!ok) return false;
  assert.equal(r, lineEnd);
  for (let e = 0; e < tape.n; e++) {
    // Only the last member of a key is the one JSON.parse keeps.
    if (tape.keyStart[e] >= 0) {
      const key = decodeKey(b, tape, e);
      if (findMember(tape, b, tape.parent[e], enc.encode(key), key) !== e) continue;
    } else if (findElement(tape, tape.parent[e], tape.index[e]) !== e) {
      assert.fail("element lookup");
    }
    let skip = false;
    for (let x = tape.parent[e]; x >= 0; x = tape.parent[x]) {
      if (tape.keyStart[x] >= 0) {
        const k = decodeKey(b, tape, x);
        if (findMember(tape, b, tape.parent[x], enc.encode(k), k) !== x) skip = true;
      }
    }
    if (skip) continue;
    const expected = parsedAt(tape, b, parsed, e);
    const got = JSON.parse(dec.decode(b.subarray(tape.start[e], tape.end[e])));
    assert.deepEqual(got, expected);
    if (tape.kind[e] === K_STRING) {
      const s = decodeSpan(b, tape.start[e], tape.end[e], (tape.flags[e] & 1) !== 0);
      assert.equal(s, expected, `string value in ${JSON.stringify(line)}`);
      assert.equal(stringChars(tape, e), pyLen(s), `chars of ${JSON.stringify(s)}`);
      assert.equal(stringUtf8Bytes(tape, e), enc.encode(s).length, `bytes of ${JSON.stringify(s)}`);
    }
  }
  return true;
}

for (const words of [true, false]) {
  Deno.test(`scanner agrees with JSON.parse on random and mutated lines (${words ? "word" : "byte"} loop)`, () => {
    setWordScan(words);
    const rnd = mulberry32(7);
    let accepted = 0, rejected = 0;
    for (let i = 0; i < 20000; i++) {
      let line = randomValue(rnd, 0);
      if (rnd() < 0.6) line = mutate(line, rnd);
      if (rnd() < 0.2) line = mutate(line, rnd);
      if (!isUtf8(enc.encode(line))) continue;
      if (check(line)) accepted++;
      else rejected++;
    }
    assert.ok(accepted > 5000 && rejected > 5000, `${accepted} accepted, ${rejected} rejected`);
    setWordScan(true);
  });
}

Deno.test("scanner: hand-picked edge cases", () => {
  const cases = [
    '{"a":1}',
    ' {"a" : [ ] , "b":{}}\r',
    '{"a":"\\ud83d\\ude00"}',
    '{"a":"\\ud83d"}',
    '{"a":"\\ude00\\ud83d"}',
    '{"a":"x\\u0000y"}',
    '{"a":"tab\there"}',
    '{"a":01}',
    '{"a":1.}',
    '{"a":.5}',
    '{"a":-}',
    '{"a":1e}',
    '{"a":"\\U0041"}',
    '{"a":"\\u00G1"}',
    '{"a",1}',
    '{"a":1,}',
    "[1,]",
    "[1 2]",
    '{"a":1}}',
    '{"a":1} x',
    '"just a string"',
    "123",
    "true",
    "nul",
    '{"a":tru}',
    '{"a": [1, [2, [3, [4, "deep"]]]]}',
    '{"a":1,"a":2}',
    '{"\\u0061":1,"a":2,"\\u0061":3}',
    '{"a":"line\nbreak"}',
    '{"a":1}\n{"b":2}',
    '\u00a0{"a":1}', // NBSP is not JSON whitespace
    '{"a":"\u2028"}',
    '{"a":"\ufeffyes","\ufeffk":1}', // a raw U+FEFF starting a string or key is kept
  ];
  for (const c of cases) check(c);
});

Deno.test("scanner: nesting cap and blank lines", () => {
  const tape = new Tape();
  const deep = enc.encode("[".repeat(MAX_DEPTH + 1) + "]".repeat(MAX_DEPTH + 1));
  assert.equal(scanLine(deep, 0, deep.length, tape), -1);
  assert.equal(tape.error, E_DEPTH);
  const ok = enc.encode("[".repeat(MAX_DEPTH) + "]".repeat(MAX_DEPTH));
  assert.equal(scanLine(ok, 0, ok.length, tape), ok.length);
  const blank = enc.encode(" \t\r\n{}");
  assert.equal(scanLine(blank, 0, blank.length, tape), BLANK);
});

Deno.test("scanner: limits are parameters (depth, keys), the tape cap makes a partial tape", () => {
  const tape = new Tape();
  const nested = enc.encode('{"a": [[[["x"]]]]}');
  assert.equal(scanLine(nested, 0, nested.length, tape, 5), nested.length);
  assert.equal(scanLine(nested, 0, nested.length, tape, 4), -1);
  assert.equal(tape.error, E_DEPTH);
  assert.equal(scanErrorReason(tape, 0), "nested deeper than 4 levels (--max-depth); not read");
  const keys = (n: number) =>
    enc.encode(`{"x": {${Array.from({ length: n }, (_, i) => `"k${i}": ${i}`).join(", ")}}}`);
  assert.ok(scanLine(keys(10), 0, keys(10).length, tape, 1000, 10) > 0);
  assert.equal(scanLine(keys(11), 0, keys(11).length, tape, 1000, 10), -1);
  assert.equal(tape.error, E_KEYS);
  assert.equal(scanErrorReason(tape, 0), "an object with more than 10 keys (--max-keys); not read");
  // arrays are not limited by maxKeys
  const list = enc.encode(`[${Array.from({ length: 50 }, (_, i) => i).join(",")}]`);
  assert.ok(scanLine(list, 0, list.length, tape, 1000, 10) > 0);
  // the tape cap: the scan goes on, unrecorded values make the tape partial
  tape.cap = 8;
  const wide = enc.encode(`{"a": [${"1,".repeat(20)}2], "b": "last"}`);
  assert.equal(scanLine(wide, 0, wide.length, tape), wide.length);
  assert.equal(tape.partial, true);
  assert.equal(tape.n, 8);
  const small = enc.encode('{"a": 1}');
  assert.equal(scanLine(small, 0, small.length, tape), small.length);
  assert.equal(tape.partial, false);
  tape.cap = 1 << 16;
});

Deno.test("scanValue reads values of a document (line feeds are whitespace); skipValue", () => {
  const tape = new Tape();
  const doc = enc.encode('[\n {"a":\n "x"},\n [1,\n 2]\n]');
  const first = scanValue(doc, 1, doc.length, tape);
  assert.equal(dec.decode(doc.subarray(3, first)), '{"a":\n "x"}');
  assert.equal(findMember(tape, doc, -1, enc.encode("a")) >= 0, true);
  // a line feed inside a string is still a control character
  const bad = enc.encode('["a\nb"]');
  assert.equal(scanValue(bad, 1, bad.length, tape), -1);
  assert.equal(scanValue(enc.encode("  \n "), 0, 4, tape), BLANK);
  const deep = enc.encode(`${"[".repeat(50)}"]]"${"]".repeat(50)}, 1`);
  assert.equal(skipValue(deep, 0, deep.length), deep.length - 3);
  assert.equal(skipValue(enc.encode("12, 3"), 0, 5), 2);
  assert.equal(skipValue(enc.encode('["open'), 0, 6), -1);
});
