/**
 * JSON documents made safe to parse (issue 15, item 1): a one-pass byte scan measures nesting
 * depth and the member count of every object before `JSON.parse` sees the text, so a value
 * nested 100,000 deep or an object with a million keys never reaches the parser. Polars-free.
 *
 * The scan does not validate JSON (the parser does that next); it follows strings (and their
 * escapes) and brackets. For a document whose records sit at a known place — `outputs[*]` of
 * a BBH release file, `samples[*]` of an inspect log, the members of an OpenCompass
 * predictions object — a violation inside one record is pinned to that record (its index, key
 * and byte span), so that record alone can be quarantined ({@link parseDocument} replaces it
 * with `null` before parsing); a violation anywhere else makes the whole document unreadable.
 *
 * Depth counts open containers from the document's root (the root object is depth 1).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scanJsonLimits } from "@runlens/codecs/json_limits.ts";
 * const text = '{"outputs": [{"a": 1}, {"b": [[[[1]]]]}]}';
 * const scan = scanJsonLimits(new TextEncoder().encode(text), { maxDepth: 5, maxKeys: 10 }, [
 *   "outputs",
 *   "*",
 * ]);
 * assert.equal(scan.outside, null);
 * assert.deepEqual(scan.records.map((r) => [r.index, r.reason]), [
 *   [1, "JSON nested deeper than 5 levels (not read; --max-depth)"],
 * ]);
 * ```
 * @module
 */
import type { SourceLimits } from "./errors.ts";
import { count } from "../core/count.ts";

/** The limits the scan checks. */
export type JsonLimits = Pick<SourceLimits, "maxDepth" | "maxKeys">;

const n = count;

/**
 * The quarantine reason of a value nested deeper than `maxDepth`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(depthReason(1000), "JSON nested deeper than 1,000 levels (not read; --max-depth)");
 * ```
 */
export function depthReason(maxDepth: number): string {
  return `JSON nested deeper than ${n(maxDepth)} levels (not read; --max-depth)`;
}

/**
 * The quarantine reason of an object with more than `maxKeys` members.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(keysReason(10), "JSON object with more than 10 keys (not read; --max-keys)");
 * ```
 */
export function keysReason(maxKeys: number): string {
  return `JSON object with more than ${n(maxKeys)} keys (not read; --max-keys)`;
}

/**
 * Where records sit in a document: object keys and `"*"` (any member or element), from the
 * root. `["outputs", "*"]`: the elements of the root's `outputs` list (or the members of an
 * `outputs` object); `["*"]`: the members of the root object (or elements of a root list).
 */
export type RecordPath = readonly string[];

/** A record that breaks a limit. */
export interface BadSpan {
  /** 0-based position of the record among its container's members or elements. */
  index: number;
  /** The record's key when its container is an object, else null. */
  key: string | null;
  /** The record's bytes: `[start, end)` (brackets included). */
  start: number;
  end: number;
  /** Why it is not read (the first limit it breaks). */
  reason: string;
}

/** What {@link scanJsonLimits} found. */
export interface JsonLimitScan {
  /** Records that break a limit, in document order (each once). */
  records: BadSpan[];
  /** The first violation outside any record (the document is unreadable), else null. */
  outside: { reason: string; at: number } | null;
}

/**
 * Scan `bytes` (a JSON document, or any JSON text) for nesting deeper than `maxDepth` and
 * objects with more than `maxKeys` members; violations inside a record at `recordPath` are
 * reported per record, others in `outside` (the first one); with `recordPath` `[]` the root
 * value is the one record, with null there is none. Linear time, memory of `maxDepth`
 * frames.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const deep = new TextEncoder().encode("[".repeat(20) + "]".repeat(20));
 * const scan = scanJsonLimits(deep, { maxDepth: 10, maxKeys: 10 });
 * assert.deepEqual(scan.outside, { reason: depthReason(10), at: 10 });
 * const keys = new TextEncoder().encode('{"0": {"a": 1, "b": 2, "c": 3}, "1": {"a": 1}}');
 * const byRecord = scanJsonLimits(keys, { maxDepth: 10, maxKeys: 2 }, ["*"]);
 * assert.deepEqual(byRecord.records.map((r) => [r.key, r.start, r.end]), [["0", 6, 30]]);
 * ```
 */
export function scanJsonLimits(
  bytes: Uint8Array,
  limits: JsonLimits,
  recordPath: RecordPath | null = null,
): JsonLimitScan {
  const { maxDepth, maxKeys } = limits;
  // records are the members of the frame at depth D (D = 0: the root value is the record)
  const D = recordPath ? recordPath.length : -1;
  const frames = Math.min(maxDepth, 1 << 20) + 2;
  // per frame (index = depth): object?, member count, ordinal of the current member,
  // whether the path matches down to it, and (for depth ≤ D) the current member's key span
  const isObject = new Uint8Array(frames);
  const keys = new Int32Array(frames);
  const ordinal = new Int32Array(frames);
  const matched = new Uint8Array(frames);
  const keyStart = new Int32Array(frames);
  const keyEnd = new Int32Array(frames);
  const keyEscaped = new Uint8Array(frames);
  const expectKey = new Uint8Array(frames);
  const out: JsonLimitScan = { records: [], outside: null };
  const tooDeep = depthReason(maxDepth);
  const tooWide = keysReason(maxKeys);
  matched[0] = 1;
  let depth = 0;
  // the record being scanned (a container at depth D + 1), if any
  let recStart = -1;
  let recIndex = 0;
  let recKey: string | null = null;
  let recReason: string | null = null;
  const violation = (reason: string, at: number) => {
    if (recStart >= 0) recReason ??= reason;
    else out.outside ??= { reason, at };
  };
  const len = bytes.length;
  for (let i = 0; i < len; i++) {
    const b = bytes[i];
    if (b === 0x22) {
      // a string: find its end
      const start = i;
      let escaped = 0;
      i++;
      while (i < len) {
        const c = bytes[i];
        if (c === 0x22) break;
        if (c === 0x5c) {
          escaped = 1;
          i++;
        }
        i++;
      }
      if (depth > 0 && depth <= D && depth < frames && isObject[depth] && expectKey[depth]) {
        keyStart[depth] = start + 1;
        keyEnd[depth] = Math.min(i, len);
        keyEscaped[depth] = escaped;
      }
      if (depth < frames) expectKey[depth] = 0;
      continue;
    }
    if (b === 0x7b || b === 0x5b) {
      // a container opens as the value of the current member of the frame at `depth`
      const parent = depth;
      depth++;
      if (parent === D && recStart < 0 && parent < frames && matched[parent] && selects(parent)) {
        recStart = i;
        recIndex = ordinal[parent];
        recKey = D === 0 ? null : currentKey(parent);
        recReason = null;
      }
      if (depth > maxDepth) {
        violation(tooDeep, i);
        continue;
      }
      isObject[depth] = b === 0x7b ? 1 : 0;
      keys[depth] = 0;
      ordinal[depth] = 0;
      expectKey[depth] = b === 0x7b ? 1 : 0;
      keyStart[depth] = -1;
      matched[depth] = parent === 0 ? 1 : parent < D && matched[parent] && selects(parent) ? 1 : 0;
      continue;
    }
    if (b === 0x7d || b === 0x5d) {
      if (depth === 0) continue; // unbalanced: the parser will say so
      depth--;
      if (recStart >= 0 && depth === D) {
        if (recReason !== null) {
          out.records.push({
            index: recIndex,
            key: recKey,
            start: recStart,
            end: i + 1,
            reason: recReason,
          });
        }
        recStart = -1;
      }
      continue;
    }
    if (depth === 0 || depth > maxDepth) continue;
    if (b === 0x3a && isObject[depth]) {
      keys[depth]++;
      if (keys[depth] === maxKeys + 1) violation(tooWide, i);
    } else if (b === 0x2c) {
      ordinal[depth]++;
      if (isObject[depth]) expectKey[depth] = 1;
    }
  }
  if (recStart >= 0 && recReason !== null) {
    // a record left open (truncated document): still name it
    out.records.push({
      index: recIndex,
      key: recKey,
      start: recStart,
      end: len,
      reason: recReason,
    });
  }
  return out;

  /** Whether the current member of the frame at depth `d` (1 ≤ d ≤ D) is on the path. */
  function selects(d: number): boolean {
    if (d === 0) return true;
    const want = recordPath![d - 1];
    if (want === "*") return true;
    if (!isObject[d]) return String(ordinal[d]) === want;
    return currentKey(d) === want;
  }

  function currentKey(d: number): string | null {
    if (!isObject[d] || keyStart[d] < 0) return null;
    const raw = bytes.subarray(keyStart[d], keyEnd[d]);
    if (!keyEscaped[d]) return decoder.decode(raw);
    try {
      return JSON.parse(`"${decoder.decode(raw)}"`);
    } catch {
      return decoder.decode(raw);
    }
  }
}

const decoder = new TextDecoder();

/**
 * `bytes` with the byte spans `spans` (sorted, not overlapping) replaced by `null`: a document
 * with its over-limit records blanked out, ready for `JSON.parse`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const text = new TextEncoder().encode('{"a": [1, [[2]], 3]}');
 * const out = blankSpans(text, [{ start: 10, end: 15 }]);
 * assert.equal(new TextDecoder().decode(out), '{"a": [1, null, 3]}');
 * ```
 */
export function blankSpans(
  bytes: Uint8Array,
  spans: readonly { start: number; end: number }[],
): Uint8Array {
  if (spans.length === 0) return bytes;
  const NULL = [0x6e, 0x75, 0x6c, 0x6c];
  let size = bytes.length;
  for (const s of spans) size += 4 - (s.end - s.start);
  const out = new Uint8Array(size);
  let from = 0;
  let at = 0;
  for (const s of spans) {
    out.set(bytes.subarray(from, s.start), at);
    at += s.start - from;
    out.set(NULL, at);
    at += 4;
    from = s.end;
  }
  out.set(bytes.subarray(from), at);
  return out;
}

/**
 * The byte span `[start, end)` (quotes included) of the JSON string at `path` (object keys
 * and array indices from the root) in `bytes`, or null when the value there is not a string
 * or absent. With duplicate keys the last one counts, as `JSON.parse` takes it. For pointers
 * into a document (e.g. a ZIP member's `output.completion`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const bytes = new TextEncoder().encode('{"output": {"choices": [{"text": "a\\"b"}]}}');
 * const span = findStringSpan(bytes, ["output", "choices", 0, "text"]);
 * assert.deepEqual(span, { start: 33, end: 39 });
 * assert.equal(JSON.parse(new TextDecoder().decode(bytes.subarray(33, 39))), 'a"b');
 * assert.equal(findStringSpan(bytes, ["output", "missing"]), null);
 * ```
 */
export function findStringSpan(
  bytes: Uint8Array,
  path: readonly (string | number)[],
): { start: number; end: number } | null {
  const D = path.length;
  if (D === 0) return null;
  // frames 1..D: object?, ordinal, current key, on the path?
  const isObject: boolean[] = [];
  const ordinal: number[] = [];
  const key: (string | null)[] = [];
  const onPath: boolean[] = [true];
  const expectKey: boolean[] = [];
  let depth = 0;
  let found: { start: number; end: number } | null = null;
  const len = bytes.length;
  const here = (d: number) => {
    const want = path[d - 1];
    return onPath[d] && (isObject[d] ? key[d] === String(want) : ordinal[d] === want);
  };
  for (let i = 0; i < len; i++) {
    const b = bytes[i];
    if (b === 0x22) {
      const start = i;
      let escaped = false;
      i++;
      while (i < len && bytes[i] !== 0x22) {
        if (bytes[i] === 0x5c) {
          escaped = true;
          i++;
        }
        i++;
      }
      if (depth >= 1 && depth <= D && isObject[depth] && expectKey[depth]) {
        const raw = decoder.decode(bytes.subarray(start + 1, i));
        key[depth] = escaped ? safeParseString(raw) : raw;
        expectKey[depth] = false;
      } else if (depth === D && here(D)) {
        found = { start, end: i + 1 };
      }
      continue;
    }
    if (b === 0x7b || b === 0x5b) {
      const parent = depth;
      depth++;
      if (depth <= D) {
        isObject[depth] = b === 0x7b;
        ordinal[depth] = 0;
        key[depth] = null;
        expectKey[depth] = b === 0x7b;
        onPath[depth] = parent === 0 ? true : parent < D && here(parent);
      } else if (depth === D + 1 && here(D)) found = null; // a container, not a string
      continue;
    }
    if (b === 0x7d || b === 0x5d) {
      if (depth > 0) depth--;
      continue;
    }
    if (depth >= 1 && depth <= D) {
      if (b === 0x2c) {
        ordinal[depth]++;
        if (isObject[depth]) expectKey[depth] = true;
      } else if (depth === D && here(D) && b !== 0x3a && b > 0x20) {
        found = null; // a number, literal or other scalar at the path
      }
    }
  }
  return found;
}

function safeParseString(raw: string): string | null {
  try {
    return JSON.parse(`"${raw}"`);
  } catch {
    return null;
  }
}
