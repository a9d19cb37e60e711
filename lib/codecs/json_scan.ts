/**
 * A validating, byte-level JSON scanner for one line of a JSON-lines file: it walks the bytes
 * once, accepts exactly what `JSON.parse` accepts (RFC 8259 grammar: no control characters
 * below U+0020 inside strings, only the escapes `\" \\ \/ \b \f \n \r \t \uXXXX`, numbers
 * `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`, the literals `true`, `false`, `null`,
 * whitespace = space, tab, CR) and, instead of building objects, records on a {@link Tape}
 * the byte spans of the values in the top {@link TAPE_DEPTH} levels (object members with
 * their key spans, array elements with their positions). Callers decode only the values
 * they need ({@link decodeString}). Hand-written on purpose, for the hostile-input limits:
 * `JSON.parse` builds the whole value and has neither limit below, while this scan refuses a
 * deep or wide line before anything is allocated and keeps byte spans, so the line is
 * quarantined with its reason in bounded memory.
 *
 * Two limits `JSON.parse` does not have, reported with their own reasons (never as malformed
 * JSON), both parameters of {@link scanLine} (the readers pass `SourceLimits`, `limits.ts`):
 * nesting deeper than `maxDepth` levels ({@link E_DEPTH}) and an object with more than
 * `maxKeys` members at any depth ({@link E_KEYS}). The tape records at most `tape.cap` values
 * (default {@link MAX_TAPE}); past that the scan goes on (validating, counting depth and keys)
 * without recording, and `tape.partial` tells the caller to read the line another way.
 * A line feed ends the line (JSON lines), so it is never whitespace inside a value;
 * {@link scanValue} scans a value of a document instead, where line feeds are whitespace. UTF-8
 * validity is checked apart (see `lines.ts`): the scanner only looks at ASCII structure.
 *
 * Per string it also counts what lengths need without decoding: UTF-8 continuation bytes and
 * what escapes save, so that the Python `len` (code points) and the UTF-8 length of the
 * decoded text follow from the span ({@link stringChars}, {@link stringUtf8Bytes}).
 *
 * @example
 * ```ts
 * import { decodeString, scanLine, Tape, findMember } from "@runlens/codecs/json_scan.ts";
 * const bytes = new TextEncoder().encode('{"a": [1, "x\\ny"], "a": "last"}');
 * const tape = new Tape();
 * console.assert(scanLine(bytes, 0, bytes.length, tape) === bytes.length);
 * const a = findMember(tape, bytes, -1, new TextEncoder().encode("a"));
 * console.assert(decodeString(bytes, tape, a) === "last"); // duplicate keys: last wins
 * ```
 * @module
 */
import { count } from "../core/count.ts";

/** Default `maxDepth`: values nested deeper than this are refused ("nested deeper than …"). */
export const MAX_DEPTH = 1000;
/** Default `maxKeys`: objects with more members than this are refused ("more than … keys"). */
export const MAX_KEYS = 100_000;
/** Values at depths 1..TAPE_DEPTH (the root is depth 0) are recorded on the tape. */
export const TAPE_DEPTH = 3;
/** Default `tape.cap`: at most this many values are recorded per line (then `partial`). */
export const MAX_TAPE = 1 << 16;

/** Kinds of recorded values. */
export const K_OBJECT = 1;
export const K_ARRAY = 2;
export const K_STRING = 3;
export const K_NUMBER = 4;
export const K_TRUE = 5;
export const K_FALSE = 6;
export const K_NULL = 7;

/** String flag: the raw span holds a backslash (escapes must be decoded). */
export const F_ESCAPE = 1;
/** String flag: a `\u` escape decodes to printable ASCII (U+0020–U+007F). */
export const F_U_ASCII = 2;
/** Key flag: the key's raw span holds a backslash. */
export const F_KEY_ESCAPE = 4;

/** Error codes of {@link scanLine} (`tape.error`). */
export const E_SYNTAX = 1;
export const E_CONTROL = 2;
export const E_ESCAPE = 3;
export const E_EOL = 4;
export const E_DEPTH = 5;
export const E_TRAILING = 7;
export const E_KEYS = 8;

/** Returned by {@link scanLine} for a line holding only whitespace. */
export const BLANK = -2;

/**
 * The values of one scanned line, as parallel typed arrays indexed by entry number. Entry
 * `e` has a parent entry (`-1`: a member of the root), a key span (`keyStart`..`keyEnd`,
 * the bytes between the quotes; `-1` for array elements), a value span (`start`..`end`,
 * quotes included for strings), its kind, flags, and for array elements its position. The
 * root value's kind is `rootKind`. Reused from line to line (no allocation per line).
 */
export class Tape {
  /** Number of recorded entries. */
  n = 0;
  /** Kind of the root value (K_*). */
  rootKind = 0;
  /** Error code (E_*) of the last failed scan, 0 if none. */
  error = 0;
  /** Byte position of the error. */
  errorAt = 0;
  /** The limit that was passed (E_DEPTH: maxDepth, E_KEYS: maxKeys). */
  errorLimit = 0;
  /** Most values recorded per line. */
  cap = MAX_TAPE;
  /** Some values of the last scanned line were not recorded (more than `cap`). */
  partial = false;
  parent = new Int32Array(256);
  keyStart = new Int32Array(256);
  keyEnd = new Int32Array(256);
  start = new Int32Array(256);
  end = new Int32Array(256);
  kind = new Uint8Array(256);
  flags = new Uint8Array(256);
  index = new Int32Array(256);
  /** Strings: UTF-8 continuation bytes in the raw span. */
  cont = new Int32Array(256);
  /** Strings: code points saved by escapes (`\n`: 1, `\u00e9`: 5, a surrogate pair: 11). */
  escChars = new Int32Array(256);
  /** Strings: UTF-8 bytes saved by escapes (`\n`: 1, `\u00e9`: 4, a surrogate pair: 8). */
  escBytes = new Int32Array(256);

  /** Make room for one more entry; false when the cap is reached. */
  grow(): boolean {
    const cap = this.parent.length;
    if (this.n >= this.cap) return false;
    if (this.n < cap) return true;
    const next = Math.min(cap * 2, Math.max(this.cap, 256));
    const g32 = (a: Int32Array) => {
      const b = new Int32Array(next);
      b.set(a);
      return b;
    };
    const g8 = (a: Uint8Array) => {
      const b = new Uint8Array(next);
      b.set(a);
      return b;
    };
    this.parent = g32(this.parent);
    this.keyStart = g32(this.keyStart);
    this.keyEnd = g32(this.keyEnd);
    this.start = g32(this.start);
    this.end = g32(this.end);
    this.kind = g8(this.kind);
    this.flags = g8(this.flags);
    this.index = g32(this.index);
    this.cont = g32(this.cont);
    this.escChars = g32(this.escChars);
    this.escBytes = g32(this.escBytes);
    return true;
  }
}

/**
 * Whether strings are scanned a 32-bit word at a time (ASCII text runs) or byte by byte; the
 * benchmark compares both (`RUNLENS_SCAN_BYTES=1` selects bytes).
 */
export let WORDS = true;
try {
  WORDS = Deno.env.get("RUNLENS_SCAN_BYTES") !== "1";
} catch {
  // no env permission: words
}
/** Select the string loop (tests run both). */
export function setWordScan(on: boolean): void {
  WORDS = on;
}
let wordsOf: ArrayBufferLike | null = null;
let words: Int32Array | null = null;

// Per-string statistics of the last scanned string (module state: no allocation).
let sCont = 0;
let sEscChars = 0;
let sEscBytes = 0;
let sFlags = 0;

const HEX = new Int8Array(256).fill(-1);
for (let i = 0; i < 10; i++) HEX[0x30 + i] = i;
for (let i = 0; i < 6; i++) HEX[0x41 + i] = HEX[0x61 + i] = 10 + i;

/** The code unit of the 4 hex digits at `p`, or -1. */
function hex4(b: Uint8Array, p: number, end: number): number {
  if (p + 4 > end) return -1;
  const a = HEX[b[p]], c = HEX[b[p + 1]], d = HEX[b[p + 2]], e = HEX[b[p + 3]];
  if ((a | c | d | e) < 0) return -1;
  return (a << 12) | (c << 8) | (d << 4) | e;
}

/**
 * Scan a string whose opening quote is at `p`; returns the position after the closing
 * quote, or the negated position of the error (+1, so 0 stays distinguishable) with the
 * error code in `tape.error`. Sets the module's per-string statistics.
 */
function scanString(b: Uint8Array, p: number, end: number, tape: Tape): number {
  let cont = 0, escC = 0, escB = 0, flags = 0;
  let i = p + 1;
  for (;;) {
    // The hot loop: plain text bytes, four at a time where the bytes are ASCII text.
    let x = 0;
    if (WORDS) {
      if (b.buffer !== wordsOf) {
        wordsOf = b.buffer;
        words = new Int32Array(b.buffer, 0, b.buffer.byteLength >> 2);
      }
      const off = b.byteOffset;
      const w32 = words!;
      for (;;) {
        // bytewise up to a word boundary, or through a word holding a special or non-ASCII byte
        while (i < end && ((off + i) & 3) !== 0) {
          x = b[i];
          if (x < 0x20 || x === 0x22 || x === 0x5c) break;
          if (x >= 0x80 && (x & 0xc0) === 0x80) cont++;
          i++;
        }
        if (i >= end || ((off + i) & 3) !== 0) break;
        // whole words while no byte is < 0x20, '"', '\\' or >= 0x80
        let k = (off + i) >> 2;
        const kEnd = (off + end) >> 2;
        while (k < kEnd) {
          const w = w32[k];
          const q = w ^ 0x22222222, s = w ^ 0x5c5c5c5c;
          if (
            ((((w - 0x20202020) | (q - 0x01010101) | (s - 0x01010101)) & ~(q & s)) | w) & 0x80808080
          ) break;
          k++;
        }
        i = (k << 2) - off;
        if (k >= kEnd) {
          // the last partial word
          while (i < end) {
            x = b[i];
            if (x < 0x20 || x === 0x22 || x === 0x5c) break;
            if (x >= 0x80 && (x & 0xc0) === 0x80) cont++;
            i++;
          }
          break;
        }
        // this word holds something: walk it bytewise
        const stop = i + 4;
        while (i < stop) {
          x = b[i];
          if (x < 0x20 || x === 0x22 || x === 0x5c) break;
          if (x >= 0x80 && (x & 0xc0) === 0x80) cont++;
          i++;
        }
        if (i < stop) break;
      }
    } else {
      while (i < end) {
        x = b[i];
        if (x < 0x20 || x === 0x22 || x === 0x5c) break;
        if (x >= 0x80 && (x & 0xc0) === 0x80) cont++;
        i++;
      }
    }
    if (i >= end) return fail(tape, E_EOL, i);
    if (x === 0x22) {
      sCont = cont;
      sEscChars = escC;
      sEscBytes = escB;
      sFlags = flags;
      return i + 1;
    }
    if (x < 0x20) return fail(tape, x === EOL ? E_EOL : E_CONTROL, i);
    // backslash
    flags |= F_ESCAPE;
    const e = i + 1 < end ? b[i + 1] : -1;
    if (
      e === 0x22 || e === 0x5c || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e ||
      e === 0x72 || e === 0x74
    ) {
      escC += 1;
      escB += 1;
      i += 2;
      continue;
    }
    if (e !== 0x75) return fail(tape, E_ESCAPE, i);
    const u = hex4(b, i + 2, end);
    if (u < 0) return fail(tape, E_ESCAPE, i);
    if (u >= 0xd800 && u <= 0xdbff && b[i + 6] === 0x5c && b[i + 7] === 0x75) {
      const v = hex4(b, i + 8, end);
      if (v >= 0xdc00 && v <= 0xdfff) { // a surrogate pair: 12 bytes, one code point, 4 bytes
        escC += 11;
        escB += 8;
        i += 12;
        continue;
      }
    }
    if (u >= 0x20 && u < 0x80) flags |= F_U_ASCII;
    escC += 5;
    escB += 6 - (u < 0x80 ? 1 : u < 0x800 ? 2 : 3);
    i += 6;
  }
}

function fail(tape: Tape, code: number, at: number): number {
  tape.error = code;
  tape.errorAt = at;
  return -(at + 1);
}

// Lines: the line feed ends the value (EOL = 0x0a) and is no whitespace (LF_WS = 0x20, a
// repeat of the space). Documents: no byte ends the value (EOL = 0x100) and the line feed is
// whitespace (LF_WS = 0x0a). Set per scan.
let EOL = 0x0a;
let LF_WS = 0x20;

/** Skip JSON whitespace (the line feed only in documents). */
function skipWs(b: Uint8Array, p: number, end: number): number {
  while (p < end) {
    const x = b[p];
    if (x !== 0x20 && x !== 0x09 && x !== 0x0d && x !== LF_WS) break;
    p++;
  }
  return p;
}

/** The end of the number at `p`, or the negated error position. */
function scanNumber(b: Uint8Array, p: number, end: number, tape: Tape): number {
  let i = p;
  if (b[i] === 0x2d) i++;
  if (i >= end) return fail(tape, E_SYNTAX, i);
  if (b[i] === 0x30) i++;
  else if (b[i] >= 0x31 && b[i] <= 0x39) {
    i++;
    while (i < end && b[i] >= 0x30 && b[i] <= 0x39) i++;
  } else return fail(tape, E_SYNTAX, i);
  if (i < end && b[i] === 0x2e) {
    i++;
    const s = i;
    while (i < end && b[i] >= 0x30 && b[i] <= 0x39) i++;
    if (i === s) return fail(tape, E_SYNTAX, i);
  }
  if (i < end && (b[i] === 0x65 || b[i] === 0x45)) {
    i++;
    if (i < end && (b[i] === 0x2b || b[i] === 0x2d)) i++;
    const s = i;
    while (i < end && b[i] >= 0x30 && b[i] <= 0x39) i++;
    if (i === s) return fail(tape, E_SYNTAX, i);
  }
  return i;
}

/** Whether the ASCII word `w` is at `p`. */
function word(b: Uint8Array, p: number, end: number, w: string): boolean {
  if (p + w.length > end) return false;
  for (let k = 0; k < w.length; k++) if (b[p + k] !== w.charCodeAt(k)) return false;
  return true;
}

// Container stack (module state).
let stackKind = new Uint8Array(64);
let stackEntry = new Int32Array(64);
let stackCount = new Int32Array(64);

function growStack(): void {
  const n = stackKind.length * 2;
  const k = new Uint8Array(n), e = new Int32Array(n), c = new Int32Array(n);
  k.set(stackKind);
  e.set(stackEntry);
  c.set(stackCount);
  stackKind = k;
  stackEntry = e;
  stackCount = c;
}

/**
 * Scan the line starting at `pos` (up to the next line feed, or `end`). Returns the position
 * of the line's end (its line feed, or `end`) when the line holds one valid JSON value
 * (`tape` then describes it), {@link BLANK} for a line of only space, tab and CR, or -1 with
 * `tape.error`/`tape.errorAt` set; the caller finds the line's end itself then. A value
 * nested deeper than `maxDepth` levels or an object with more than `maxKeys` members is an
 * error ({@link E_DEPTH}, {@link E_KEYS}), found before anything deeper is looked at.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const tape = new Tape();
 * const b = new TextEncoder().encode('{"a": {"b": 1}}\n');
 * assert.equal(scanLine(b, 0, b.length, tape), 15); // the line feed
 * assert.equal(scanLine(b, 0, b.length, tape, 1), -1); // depth 2 > maxDepth 1
 * assert.equal(tape.error, E_DEPTH);
 * ```
 */
export function scanLine(
  b: Uint8Array,
  pos: number,
  end: number,
  tape: Tape,
  maxDepth: number = MAX_DEPTH,
  maxKeys: number = MAX_KEYS,
): number {
  EOL = 0x0a;
  LF_WS = 0x20;
  tape.n = 0;
  tape.error = 0;
  tape.rootKind = 0;
  tape.partial = false;
  const p = skipWs(b, pos, end);
  if (p >= end || b[p] === 0x0a) return BLANK;
  const q = scanAt(b, p, end, tape, maxDepth, maxKeys);
  if (q < 0) return -1;
  const r = skipWs(b, q, end);
  if (r >= end || b[r] === 0x0a) return r;
  fail(tape, E_TRAILING, r);
  return -1;
}

/**
 * Scan one JSON value of a document (line feeds are whitespace) starting at `pos` (after
 * whitespace), e.g. one element of an array: returns the position after the value, or -1 with
 * `tape.error` set; {@link BLANK} when only whitespace is left before `end`. What follows the
 * value is not looked at. Limits as in {@link scanLine}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const tape = new Tape();
 * const b = new TextEncoder().encode('[\n  {"a":\n 1},\n  {"a": 2}\n]');
 * assert.equal(scanValue(b, 1, b.length, tape), 13); // the first element, after its "}"
 * assert.equal(tape.rootKind, K_OBJECT);
 * ```
 */
export function scanValue(
  b: Uint8Array,
  pos: number,
  end: number,
  tape: Tape,
  maxDepth: number = MAX_DEPTH,
  maxKeys: number = MAX_KEYS,
): number {
  EOL = 0x100;
  LF_WS = 0x0a;
  tape.n = 0;
  tape.error = 0;
  tape.rootKind = 0;
  tape.partial = false;
  try {
    const p = skipWs(b, pos, end);
    if (p >= end) return BLANK;
    return scanAt(b, p, end, tape, maxDepth, maxKeys);
  } finally {
    EOL = 0x0a;
    LF_WS = 0x20;
  }
}

/** Scan the value at `p` (not whitespace); the position after it, or -1 (`tape.error`). */
function scanAt(
  b: Uint8Array,
  p: number,
  end: number,
  tape: Tape,
  maxDepth: number,
  maxKeys: number,
): number {
  let depth = 0; // depth of the value about to be scanned
  // Phase: expecting a value at `p` (after whitespace).
  value: for (;;) {
    p = skipWs(b, p, end);
    if (p >= end || b[p] === EOL) {
      fail(tape, E_EOL, p);
      return -1;
    }
    const x = b[p];
    // Record the value when it is at depths 1..TAPE_DEPTH (and the tape has room).
    let entry = -1;
    if (depth >= 1 && depth <= TAPE_DEPTH) {
      if (tape.grow()) {
        entry = tape.n++;
        tape.start[entry] = p;
        tape.flags[entry] = 0;
        tape.parent[entry] = depth === 1 ? -1 : stackEntry[depth - 1];
        if (stackKind[depth - 1] === K_OBJECT) {
          tape.keyStart[entry] = pendingKeyStart;
          tape.keyEnd[entry] = pendingKeyEnd;
          tape.flags[entry] = pendingKeyFlags;
          tape.index[entry] = -1;
        } else {
          tape.keyStart[entry] = -1;
          tape.keyEnd[entry] = -1;
          tape.index[entry] = stackCount[depth - 1];
        }
      } else tape.partial = true;
    }
    let kind: number;
    if (x === 0x7b || x === 0x5b) {
      kind = x === 0x7b ? K_OBJECT : K_ARRAY;
      if (entry >= 0) tape.kind[entry] = kind;
      else if (depth === 0) tape.rootKind = kind;
      if (depth + 1 > maxDepth) {
        tape.errorLimit = maxDepth;
        fail(tape, E_DEPTH, p);
        return -1;
      }
      if (depth + 1 >= stackKind.length) growStack();
      stackKind[depth] = kind;
      stackEntry[depth] = entry;
      stackCount[depth] = 0;
      depth++;
      p = skipWs(b, p + 1, end);
      if (p < end && b[p] === (kind === K_OBJECT ? 0x7d : 0x5d)) { // empty container
        p++;
        depth--;
        if (entry >= 0) tape.end[entry] = p;
      } else if (kind === K_OBJECT) {
        p = scanKey(b, p, end, tape);
        if (p < 0) return -1;
        continue value;
      } else continue value;
    } else {
      if (x === 0x22) {
        kind = K_STRING;
        const q = scanString(b, p, end, tape);
        if (q < 0) return -1;
        if (entry >= 0) {
          tape.flags[entry] |= sFlags;
          tape.cont[entry] = sCont;
          tape.escChars[entry] = sEscChars;
          tape.escBytes[entry] = sEscBytes;
        }
        p = q;
      } else if (x === 0x2d || (x >= 0x30 && x <= 0x39)) {
        kind = K_NUMBER;
        const q = scanNumber(b, p, end, tape);
        if (q < 0) return -1;
        p = q;
      } else if (x === 0x74 && word(b, p, end, "true")) {
        kind = K_TRUE;
        p += 4;
      } else if (x === 0x66 && word(b, p, end, "false")) {
        kind = K_FALSE;
        p += 5;
      } else if (x === 0x6e && word(b, p, end, "null")) {
        kind = K_NULL;
        p += 4;
      } else {
        fail(tape, E_SYNTAX, p);
        return -1;
      }
      if (entry >= 0) {
        tape.kind[entry] = kind;
        tape.end[entry] = p;
      } else if (depth === 0) tape.rootKind = kind;
    }
    // Phase: after a complete value at depth `depth` (its container is depth-1).
    for (;;) {
      if (depth === 0) return p;
      const ck = stackKind[depth - 1];
      if (++stackCount[depth - 1] > maxKeys && ck === K_OBJECT) {
        tape.errorLimit = maxKeys;
        fail(tape, E_KEYS, p);
        return -1;
      }
      p = skipWs(b, p, end);
      if (p >= end || b[p] === EOL) {
        fail(tape, E_EOL, p);
        return -1;
      }
      const c = b[p];
      if (c === 0x2c) { // ","
        p++;
        if (ck === K_OBJECT) {
          p = scanKey(b, skipWs(b, p, end), end, tape);
          if (p < 0) return -1;
        }
        continue value;
      }
      if (c === (ck === K_OBJECT ? 0x7d : 0x5d)) { // the container closes
        p++;
        depth--;
        const ce = stackEntry[depth];
        if (ce >= 0) tape.end[ce] = p;
        continue;
      }
      fail(tape, E_SYNTAX, p);
      return -1;
    }
  }
}

let pendingKeyStart = 0;
let pendingKeyEnd = 0;
let pendingKeyFlags = 0;

/** Scan `"key" :` at `p`; returns the position after the colon (or -1). */
function scanKey(b: Uint8Array, p: number, end: number, tape: Tape): number {
  if (p >= end || b[p] !== 0x22) {
    fail(tape, p >= end || b[p] === EOL ? E_EOL : E_SYNTAX, p);
    return -1;
  }
  const q = scanString(b, p, end, tape);
  if (q < 0) return -1;
  pendingKeyStart = p + 1;
  pendingKeyEnd = q - 1;
  pendingKeyFlags = sFlags & F_ESCAPE ? F_KEY_ESCAPE : 0;
  let r = skipWs(b, q, end);
  if (r >= end || b[r] !== 0x3a) {
    fail(tape, r >= end || b[r] === EOL ? E_EOL : E_SYNTAX, r);
    return -1;
  }
  r++;
  return r;
}

/**
 * The end of the JSON value at `p` (after whitespace) without validating it: brackets are
 * matched (iteratively, any depth) and strings skipped; line feeds are whitespace. For
 * stepping over a value a limit refused. -1 when the value does not end before `end`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const b = new TextEncoder().encode('[[["]"]]], 2');
 * assert.equal(skipValue(b, 0, b.length), 9);
 * ```
 */
export function skipValue(b: Uint8Array, p: number, end: number): number {
  while (p < end && (b[p] === 0x20 || b[p] === 0x09 || b[p] === 0x0d || b[p] === 0x0a)) p++;
  if (p >= end) return -1;
  let depth = 0;
  for (; p < end; p++) {
    const x = b[p];
    if (x === 0x22) {
      p++;
      while (p < end && b[p] !== 0x22) p += b[p] === 0x5c ? 2 : 1;
      if (p >= end) return -1;
      if (depth === 0) return p + 1;
    } else if (x === 0x7b || x === 0x5b) depth++;
    else if (x === 0x7d || x === 0x5d) {
      if (--depth <= 0) return depth === 0 ? p + 1 : -1;
    } else if (
      depth === 0 && (x === 0x2c || x === 0x20 || x === 0x0a || x === 0x0d || x === 0x09)
    ) {
      return p; // the end of a number or literal
    }
  }
  return depth === 0 ? p : -1;
}

/** Keeps a leading U+FEFF: a string value may start with one (`JSON.parse` keeps it). */
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * The text of a string entry, exactly as `JSON.parse` gives it: the bytes between the quotes
 * decoded as UTF-8, and, only when the span holds a backslash, the escapes resolved by
 * `JSON.parse` of the (already validated) span. Null for an entry that is not a string.
 */
export function decodeString(b: Uint8Array, tape: Tape, e: number): string | null {
  if (e < 0 || tape.kind[e] !== K_STRING) return null;
  return decodeSpan(b, tape.start[e], tape.end[e], (tape.flags[e] & F_ESCAPE) !== 0);
}

/**
 * Decode a validated JSON string span `[start, end)` (quotes included), as `JSON.parse` does.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const b = new TextEncoder().encode('"\ufeffhi"');
 * assert.equal(decodeSpan(b, 0, b.length, false), "\ufeffhi"); // the leading U+FEFF kept
 * ```
 */
export function decodeSpan(b: Uint8Array, start: number, end: number, escaped: boolean): string {
  if (!escaped) return decoder.decode(b.subarray(start + 1, end - 1));
  return JSON.parse(decoder.decode(b.subarray(start, end)));
}

/** The key of entry `e` as text (decoding escapes). */
export function decodeKey(b: Uint8Array, tape: Tape, e: number): string {
  const s = tape.keyStart[e] - 1, t = tape.keyEnd[e] + 1;
  return decodeSpan(b, s, t, (tape.flags[e] & F_KEY_ESCAPE) !== 0);
}

/** Python `len` of a string entry's decoded text (code points). */
export function stringChars(tape: Tape, e: number): number {
  return tape.end[e] - tape.start[e] - 2 - tape.cont[e] - tape.escChars[e];
}

/** UTF-8 length of a string entry's decoded text (a lone surrogate counts 3, as TextEncoder). */
export function stringUtf8Bytes(tape: Tape, e: number): number {
  return tape.end[e] - tape.start[e] - 2 - tape.escBytes[e];
}

/**
 * The last member of object entry `parent` (`-1`: the root) whose key is `key` (raw UTF-8
 * bytes of the key text), or -1. Keys written with escapes are decoded before comparing, so
 * `"\u0061"` matches `a`; the last match wins, as with `JSON.parse`.
 */
export function findMember(
  tape: Tape,
  b: Uint8Array,
  parent: number,
  key: Uint8Array,
  keyText?: string,
): number {
  let found = -1;
  const n = tape.n;
  const len = key.length;
  for (let e = 0; e < n; e++) {
    if (tape.parent[e] !== parent || tape.keyStart[e] < 0) continue;
    const ks = tape.keyStart[e];
    if (tape.flags[e] & F_KEY_ESCAPE) {
      if (decodeKey(b, tape, e) === (keyText ?? decoder.decode(key))) found = e;
      continue;
    }
    if (tape.keyEnd[e] - ks !== len) continue;
    let k = 0;
    while (k < len && b[ks + k] === key[k]) k++;
    if (k === len) found = e;
  }
  return found;
}

/** The element `i` of array entry `parent`, or -1. */
export function findElement(tape: Tape, parent: number, i: number): number {
  const n = tape.n;
  for (let e = 0; e < n; e++) {
    if (tape.parent[e] === parent && tape.index[e] === i && tape.keyStart[e] < 0) return e;
  }
  return -1;
}

/**
 * One-line reasons for the scanner's error codes (`lineStart`: the offset positions count
 * from). The limits name the flag that raises them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const tape = new Tape();
 * const b = new TextEncoder().encode("[[[1]]]");
 * scanLine(b, 0, b.length, tape, 2);
 * assert.equal(scanErrorReason(tape, 0), "nested deeper than 2 levels (--max-depth); not read");
 * ```
 */
export function scanErrorReason(tape: Tape, lineStart: number): string {
  const at = tape.errorAt - lineStart;
  switch (tape.error) {
    case E_DEPTH:
      return `nested deeper than ${count(tape.errorLimit)} levels ` +
        "(--max-depth); not read";
    case E_KEYS:
      return `an object with more than ${count(tape.errorLimit)} keys ` +
        "(--max-keys); not read";
    case E_CONTROL:
      return `malformed JSON (control character in a string at byte ${at})`;
    case E_ESCAPE:
      return `malformed JSON (bad escape at byte ${at})`;
    case E_EOL:
      return `malformed JSON (unexpected end of line at byte ${at})`;
    case E_TRAILING:
      return `malformed JSON (unexpected data after the value at byte ${at})`;
    default:
      return `malformed JSON (unexpected character at byte ${at})`;
  }
}
