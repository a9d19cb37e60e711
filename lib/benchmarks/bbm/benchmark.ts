/**
 * BIG-Bench Mistake as a registered {@link Benchmark}: chain-of-thought traces of five BBH
 * tasks with the first logical mistake annotated. Its runs are mistake-finding answers
 * (`trace_index`, `response`), loaded and scored by the one pipeline under the step numbering
 * the user states (`scoring.ts`), then classified (early, late, …) by `runlens bbm` and
 * notebook 03 through its {@link Benchmark.mistakeFinding} hook.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bbm } from "@runlens/benchmarks/bbm/benchmark.ts";
 * assert.deepEqual(bbm.tasks.map((t) => t.size), [986, 300, 300, 300, 300]);
 * assert.equal(bbm.canonicalTask("Word_Sorting"), "word_sorting");
 * ```
 * @module
 */
import type { HeadlineCI } from "../../stats/headline_ci.ts";
import type { Benchmark } from "../types.ts";
import { bbmAggregate, locationAccuracyCI } from "./aggregate.ts";
import { bbmMistakeFinding } from "./mistake_finding.ts";
import { scoring } from "./scoring.ts";

/** BIG-Bench Mistake. */
export const bbm: Benchmark = {
  ...scoring,
  listOrder: 3,
  description: "BIG-Bench Mistake (Tyen et al. 2024): 2,186 CoT traces of five BBH tasks with " +
    "the first logical mistake annotated (WHGTyen/BIG-Bench-Mistake).",
  data: {
    folder: "big-bench-mistake",
    sources: [
      { repo: "WHGTyen/BIG-Bench-Mistake", commit: "270683a4ecce6f3b22c4ab28a204ab8fa09f2517" },
    ],
    manifest: new URL("./manifest.json", import.meta.url).href,
    dataFiles: ".jsonl",
  },
  scoringModule: new URL("./scoring.ts", import.meta.url).href,
  mistakeFinding: bbmMistakeFinding,
  commands: { bbm: new URL("./command.ts", import.meta.url).href },
  aggregate: bbmAggregate,
  aggregateKeys: [{ key: "location_accuracy", label: "BBM location accuracy (traces / 2,186)" }],
  aggregateIntervals: (rows, aggregate): Record<string, HeadlineCI> =>
    aggregate.location_accuracy === null ? {} : { location_accuracy: locationAccuracyCI(rows)! },
};
