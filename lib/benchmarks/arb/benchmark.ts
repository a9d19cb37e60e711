/**
 * ARB as a registered {@link Benchmark}: its subjects are the tasks. The data set is served by
 * its authors through an API, not available offline, so rows carry their own reference and
 * are scored by answer type with `runlens arb` (`score.ts`), not by the row pipeline.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { arb } from "@runlens/benchmarks/arb/benchmark.ts";
 * assert.deepEqual(
 *   arb.tasks.map((t) => t.name),
 *   ["mathematics", "physics", "law", "mcat-reading", "mcat-science"],
 * );
 * assert.equal(arb.canonicalTask("MCAT (Science)"), "mcat-science");
 * assert.equal(arb.canonicalTask("chemistry"), null);
 * ```
 * @module
 */
import type { Benchmark } from "../types.ts";
import { ARB_SUBJECTS, normalizeSubject } from "./fields.ts";

/** ARB. */
export const arb: Benchmark = {
  name: "arb",
  label: "ARB",
  listOrder: 4,
  description: "ARB: Advanced Reasoning Benchmark (Sawada et al. 2023): mathematics, physics, " +
    "law and MCAT questions; scored by answer type.",
  tasks: ARB_SUBJECTS.map((name) => ({ name, size: null })),
  canonicalTask: (label) => {
    try {
      return normalizeSubject(label);
    } catch {
      return null;
    }
  },
  scorers: [],
};
