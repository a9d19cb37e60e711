/**
 * The decompression budget of issue 15: a compressed member (ZIP member, gzip member) or file
 * may not inflate past `maxInflated` bytes, nor past `maxRatio` times its compressed size.
 * Decompressors count as they stream ({@link InflateBudget.input}, {@link InflateBudget.output})
 * and stop at the first chunk past a limit, so a compression bomb is refused after a few
 * megabytes, never held whole.
 *
 * The ratio is checked as the data streams: at any point the bytes inflated so far may not
 * exceed `maxRatio` × the compressed bytes handed to the decompressor so far (for the member
 * being inflated). At the member's end that is the plain rule "inflated ≤ maxRatio ×
 * compressed size"; checking it on the way refuses a bomb early (its ratio is high from its
 * first block on) and costs nothing for real logs (JSON compresses 5–50×). Decompressors are
 * fed in steps sized from the ratio seen so far ({@link InflateBudget.nextInput}: about 1 MiB
 * of output per step), so even a bomb allowed to run (limits raised) never inflates more than
 * a few megabytes at once.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { BudgetError, InflateBudget } from "@runlens/codecs/inflate_budget.ts";
 * const budget = new InflateBudget({ maxInflated: 1 << 30, maxRatio: 1000 });
 * budget.input(1000);
 * budget.output(900_000); // 900×: fine
 * assert.throws(() => budget.output(200_000), BudgetError); // 1,100,000 from 1,000 bytes
 * ```
 * @module
 */
import type { SourceLimits } from "./errors.ts";
import { count } from "../core/count.ts";

/** The limits a budget enforces. */
export type InflateLimits = Pick<SourceLimits, "maxInflated" | "maxRatio">;

/** Thrown when a member or file goes past its budget; `message` is the reason. */
export class BudgetError extends Error {}

const n = count;

/** Output one step of a decompressor should produce at most (about). */
export const STEP_OUTPUT = 1 << 20;
/** Compressed bytes of the first step of a member (its ratio is not known yet). */
const FIRST_STEP = 1 << 10;
const MIN_STEP = 1 << 9;
const MAX_STEP = 1 << 16;

/**
 * Counts the compressed input and the inflated output of one compressed file (with
 * {@link InflateBudget.startMember} for each member of a multi-member file) and throws
 * {@link BudgetError} past a limit.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const b = new InflateBudget({ maxInflated: 100, maxRatio: 1000 });
 * b.input(10);
 * assert.throws(() => b.output(101), /inflates past 100 bytes \(--max-inflated\)/);
 * ```
 */
export class InflateBudget {
  /** Compressed bytes of the current member handed to the decompressor. */
  memberIn = 0;
  /** Bytes the current member inflated to so far. */
  memberOut = 0;
  /** Bytes inflated over the whole file. */
  total = 0;

  /**
   * @param limits `maxInflated` (per file: the sum over its members) and `maxRatio` (per member)
   * @param cap an extra cap on the total (e.g. the largest document parsed whole) and its reason
   */
  constructor(
    readonly limits: InflateLimits,
    readonly cap: { bytes: number; reason: string } | null = null,
  ) {}

  /** A new member starts (the ratio is counted per member). */
  startMember(): void {
    this.memberIn = 0;
    this.memberOut = 0;
  }

  /**
   * How many compressed bytes to hand to the decompressor next: about {@link STEP_OUTPUT} of
   * output at the ratio seen so far (512 B – 64 KiB; 1 KiB to start a member). A decompressor
   * emits all of one step's output at once, so a bomb's step stays a few megabytes.
   */
  nextInput(): number {
    if (this.memberIn === 0) return FIRST_STEP;
    const ratio = Math.max(1, this.memberOut / this.memberIn);
    return Math.max(MIN_STEP, Math.min(MAX_STEP, Math.floor(STEP_OUTPUT / ratio)));
  }

  /** `bytes` more compressed bytes were handed to the decompressor. */
  input(bytes: number): void {
    this.memberIn += bytes;
  }

  /** The decompressor produced `bytes` more bytes; throws {@link BudgetError} past a limit. */
  output(bytes: number): void {
    this.memberOut += bytes;
    this.total += bytes;
    const { maxInflated, maxRatio } = this.limits;
    if (this.total > maxInflated) {
      throw new BudgetError(`inflates past ${n(maxInflated)} bytes (--max-inflated)`);
    }
    if (this.memberOut > maxRatio * this.memberIn) {
      throw new BudgetError(
        `inflates more than ${n(maxRatio)}× its compressed size (${n(this.memberOut)} bytes ` +
          `from ${n(this.memberIn)}: a compression bomb?) (--max-ratio)`,
      );
    }
    if (this.cap && this.total > this.cap.bytes) throw new BudgetError(this.cap.reason);
  }
}
