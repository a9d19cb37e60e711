/**
 * The official BBEH verdict of a response read from its JSON bytes, decoding only the tail of
 * the response when that provably gives the same verdict, else the whole text; either way the
 * verdict comes from the conformance-tested scalar port (`bbehExtract`/`bbehFuzzyMatch` of
 * `scorer.ts`, which is what `bbehOfficial` runs). The `bbeh-official` scorer exposes it as
 * `scoreSpan` (`official_scorer.ts`). This module does not load polars.
 *
 * Why the tail is enough: the official extraction strips the response S, then for each answer
 * prefix P_0..P_3 in order keeps the text after the LAST occurrence of the prefix when it
 * occurs. Let T be a suffix of the response and k the first prefix (in that order) found in
 * strip(T). If no earlier prefix P_j (j < k) occurs in S, the first prefix step that fires on
 * S is P_k, and its last occurrence in S lies in T (T is a suffix holding one), so both leave
 * the same text and every later step sees the same string: extract(T) = extract(S). The
 * condition "no P_j in S" is checked on the raw bytes before T: an occurrence of a prefix
 * (ASCII letters, spaces, colon) in the decoded text is an occurrence in the raw JSON bytes at
 * the same place unless one of its characters is written as a `\u` escape of printable ASCII
 * (scanner flag `F_U_ASCII`: such responses always take the full path); the other escapes
 * (`\n`, `\"`, …) decode to characters no prefix holds, and a raw match cannot start inside
 * an escape (prefixes start with `T`, which is neither an escape letter nor a hex digit). An
 * occurrence in S that lies in T would make P_j found in T first, so only occurrences starting
 * before T can matter. The tail starts at a character boundary that is not inside an escape
 * ({@link tailStart}), so T is exactly a suffix of the decoded response. (The bytes are valid
 * UTF-8: the line readers check that before scanning.) Whether an answer was found
 * (`bbehAnswerFound`) is the same too: on the tail path a prefix occurs in strip(T), a
 * substring of strip(S), so both say "found" exactly when the (same) extraction is right, or
 * not empty and of the target's form — functions of the extraction and the target alone.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bbehNormalizeTarget } from "@runlens/benchmarks/bbeh/scorer.ts";
 * const b = new TextEncoder().encode(JSON.stringify("x".repeat(5000) + " The answer is: (B)"));
 * const v = bbehVerdictFromSpan(b, 0, b.length, 0, bbehNormalizeTarget("(B)"));
 * assert.deepEqual(v, { extracted: "(b)", correct: true, found: true, fast: true }); // the tail only
 * ```
 * @module
 */
import { F_ESCAPE, F_U_ASCII } from "../../codecs/json_scan.ts";
import { pyStrip } from "../../core/python.ts";
import { BBEH_ANSWER_PREFIXES, bbehAnswerFound, bbehExtract, bbehFuzzyMatch } from "./scorer.ts";

/**
 * Bytes of the response's end decoded on the fast path (the default of
 * {@link bbehVerdictFromSpan}). Short: the answer is nearly always in the last line, and a
 * response of more than twice this takes the fast path. On responses of 330–930 characters
 * (a generated canonical log) 128 bytes decode the tail alone for 95% of them and cost
 * 1.8 µs a verdict against 2.8 µs with 1,024 (which decoded all of them whole); a tail
 * without an answer prefix costs one more decode of the whole text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(TAIL_BYTES, 128);
 * ```
 */
export const TAIL_BYTES = 128;

const PREFIX_BYTES = BBEH_ANSWER_PREFIXES.map((p) => new TextEncoder().encode(p));
/** Keeps a leading U+FEFF (a default TextDecoder drops it; `JSON.parse` and the rules keep it). */
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * A verdict and whether the tail path gave it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const b = new TextEncoder().encode('"The answer is: 7"'); // short: decoded whole
 * const v: SpanVerdict = bbehVerdictFromSpan(b, 0, b.length, 0, "7");
 * assert.deepEqual(v, { extracted: "7", correct: true, found: true, fast: false });
 * ```
 */
export interface SpanVerdict {
  /** The normalised prediction (`bbehExtract`). */
  extracted: string;
  /** The official verdict. */
  correct: boolean;
  /** Whether an answer was found (`bbehAnswerFound`). */
  found: boolean;
  /** True when only the tail was decoded. */
  fast: boolean;
}

const hexValue = (c: number) =>
  c >= 0x30 && c <= 0x39
    ? c - 0x30
    : c >= 0x61 && c <= 0x66
    ? c - 87
    : c >= 0x41 && c <= 0x46
    ? c - 55
    : -1;

function hex4At(b: Uint8Array, p: number): number {
  let v = 0;
  for (let k = 0; k < 4; k++) {
    const h = hexValue(b[p + k]);
    if (h < 0) return -1;
    v = (v << 4) | h;
  }
  return v;
}

/** Whether the backslash at `k` starts an escape (an even run of backslashes precedes it). */
function escapes(b: Uint8Array, lo: number, k: number): boolean {
  if (b[k] !== 0x5c) return false;
  let r = 0;
  for (let j = k - 1; j >= lo && b[j] === 0x5c; j--) r++;
  return r % 2 === 0;
}

/**
 * The first position at or after `p` inside the content `[lo, hi)` of a validated JSON string
 * where decoding may start: not a UTF-8 continuation byte, not inside an escape, not between
 * the two escapes of a surrogate pair. Decoding `[tailStart(…), hi)` gives a suffix of the
 * decoded string.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const b = new TextEncoder().encode(JSON.stringify("a\né")); // "a\\né": 2 + 2 + 2 bytes
 * assert.equal(tailStart(b, 1, b.length - 1, 3), 4); // inside the escape "\\n": after it
 * assert.equal(tailStart(b, 1, b.length - 1, 5), 6); // inside "é": at the end
 * ```
 */
export function tailStart(b: Uint8Array, lo: number, hi: number, p: number): number {
  if (p <= lo) return lo;
  for (;;) {
    if (p >= hi) return hi;
    if ((b[p] & 0xc0) === 0x80) {
      p++;
      continue;
    }
    // Inside an escape that starts in the 5 bytes before p?
    let moved = false;
    for (let k = p - 1; k >= lo && k >= p - 5; k--) {
      if (!escapes(b, lo, k)) continue;
      const len = b[k + 1] === 0x75 ? 6 : 2;
      if (k + len > p) {
        p = k + len;
        moved = true;
      }
      break;
    }
    if (moved) continue;
    // Between the escapes of a surrogate pair?
    if (
      p - 6 >= lo && escapes(b, lo, p) && b[p + 1] === 0x75 && escapes(b, lo, p - 6) &&
      b[p - 5] === 0x75
    ) {
      const hi16 = hex4At(b, p - 4), lo16 = hex4At(b, p + 2);
      if (hi16 >= 0xd800 && hi16 <= 0xdbff && lo16 >= 0xdc00 && lo16 <= 0xdfff) {
        p += 6;
        continue;
      }
    }
    return p;
  }
}

/** Whether `pat` occurs in `b` starting in `[from, before)` (the match may run up to `limit`). */
function occursFrom(
  b: Uint8Array,
  from: number,
  before: number,
  limit: number,
  pat: Uint8Array,
): boolean {
  const n = pat.length;
  let i = b.indexOf(pat[0], from);
  while (i >= 0 && i < before) {
    if (i + n <= limit) {
      let k = 1;
      while (k < n && b[i + k] === pat[k]) k++;
      if (k === n) return true;
    }
    i = b.indexOf(pat[0], i + 1);
  }
  return false;
}

/** The first prefix (official order) that `text` contains, -1 if none. */
function firstPrefix(text: string): number {
  for (let j = 0; j < BBEH_ANSWER_PREFIXES.length; j++) {
    if (text.includes(BBEH_ANSWER_PREFIXES[j])) return j;
  }
  return -1;
}

/**
 * Score the response whose JSON string span (quotes included) is `[start, end)` of `b`,
 * `flags` being its scanner flags (`F_ESCAPE`, `F_U_ASCII` of `lib/codecs/json_scan.ts`),
 * against the NORMALISED target (`bbehNormalizeTarget`). Equal to
 * `bbehOfficial(JSON.parse(span), target)` on every input; `fast` tells whether only the last
 * `tailBytes` bytes (or a little less, to start at a character) were decoded. Responses of at
 * most `2 * tailBytes` bytes are always decoded whole.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { F_ESCAPE } from "@runlens/codecs/json_scan.ts";
 * // the tail holds "The final answer is", but "The answer is:", earlier in the official
 * // order, occurs before the tail: the whole text is decoded (same verdict, by the rules)
 * const text = "The answer is: (A)\n" + "…".repeat(2000) + "\nThe final answer is (B)";
 * const b = new TextEncoder().encode(JSON.stringify(text));
 * const v = bbehVerdictFromSpan(b, 0, b.length, F_ESCAPE, "(b)");
 * assert.deepEqual(v, { extracted: "(b)", correct: true, found: true, fast: false });
 * ```
 */
export function bbehVerdictFromSpan(
  b: Uint8Array,
  start: number,
  end: number,
  flags: number,
  normTarget: string,
  tailBytes: number = TAIL_BYTES,
): SpanVerdict {
  const lo = start + 1, hi = end - 1;
  const escaped = (flags & F_ESCAPE) !== 0;
  if (hi - lo > 2 * tailBytes && (flags & F_U_ASCII) === 0) {
    const p = tailStart(b, lo, hi, hi - tailBytes);
    const tail = escaped
      ? JSON.parse('"' + decoder.decode(b.subarray(p, hi)) + '"') as string
      : decoder.decode(b.subarray(p, hi));
    const k = firstPrefix(pyStrip(tail));
    let ok = k >= 0;
    for (let j = 0; ok && j < k; j++) {
      if (occursFrom(b, lo, p, hi, PREFIX_BYTES[j])) ok = false;
    }
    if (ok) return verdictOf(tail, normTarget, true);
  }
  const text = escaped
    ? JSON.parse(decoder.decode(b.subarray(start, end))) as string
    : decoder.decode(b.subarray(lo, hi));
  return verdictOf(text, normTarget, false);
}

/** The verdict of a text (the whole response, or a tail that gives the same one). */
function verdictOf(text: string, normTarget: string, fast: boolean): SpanVerdict {
  const extracted = bbehExtract(text);
  return {
    extracted,
    correct: bbehFuzzyMatch(extracted, normTarget),
    found: bbehAnswerFound(text, extracted, normTarget),
    fast,
  };
}
