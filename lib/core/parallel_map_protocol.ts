/**
 * What `parallel_map.ts` and its Worker (`parallel_map_worker.ts`) share: how a function is
 * named ({@link ExportedFunction}), the states of a job's shared buffer, and the JSON that
 * carries items and results. In a module of its own so that the Worker need not import the
 * module that starts it (which would make the two a cycle).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const text = toJson([1, NaN, -0, Infinity]);
 * assert.deepEqual(fromJson(text), [1, NaN, -0, Infinity]); // JSON.stringify loses the last three
 * ```
 * @module
 */

/** A function exported by a module, `(item) => result`. */
export interface ExportedFunction {
  /** The module's URL (`import.meta.resolve` or `new URL(…, import.meta.url).href`). */
  module: string;
  /** The export's name. */
  name: string;
}

/** A job's state, the first Int32 of its shared buffer: the Worker has not finished. */
export const PENDING = 0;
/** The Worker wrote its results' JSON (length in the second Int32) after the state words. */
export const DONE = 1;
/** The Worker failed, or its results did not fit: the caller maps the share itself. */
export const FAILED = 2;

/** JSON that keeps NaN, ±Infinity and -0 (JSON.stringify writes null, null and 0). */
export function toJson(value: unknown): string {
  return JSON.stringify(
    value,
    (_, v) =>
      typeof v === "number" && (!Number.isFinite(v) || Object.is(v, -0))
        ? { "\u0000number": Object.is(v, -0) ? "-0" : String(v) }
        : v,
  );
}

/** The value {@link toJson} wrote. */
export function fromJson(text: string): unknown {
  return JSON.parse(
    text,
    (_, v) =>
      v !== null && typeof v === "object" && "\u0000number" in v ? Number(v["\u0000number"]) : v,
  );
}
