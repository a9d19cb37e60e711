/**
 * Accuracy of scored ARB rows by model, subject and answer type (the shape of the paper's
 * Figure 1 and Table 2) with Wilson 95% intervals, and the unparseable rate (responses without
 * `ANSWER:`) per model and subject — the paper reports 25% for gpt-3.5-turbo on Law.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { arbAccuracy, arbUnparseable } from "@runlens/benchmarks/arb/accuracy.ts";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * import { benchmarkRows } from "@runlens/pipeline/benchmark_rows.ts";
 * // 8 hand-made rows of model "m1": 4 law multiple-choice, 2 numerical, 2 symbolic (physics)
 * const loaded = await loadRuns(["tests/fixtures/arb/analyses.jsonl"], "", { benchmarks: ["arb"] });
 * const rows = benchmarkRows(loaded, "arb");
 * const acc = arbAccuracy(rows); // model, subject, answer_type, image, rows, n, correct, accuracy, …
 * assert.equal(acc.height, 3);
 * const unp = arbUnparseable(rows); // model, subject, n, unparseable, rate, ci_low, ci_high
 * assert.deepEqual(unp.getColumn("rate").toArray(), [0, 25]); // physics, law
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { wilsonInterval } from "../../stats/wilson.ts";
import { groupRows, keySchema, typedFrame } from "./group.ts";

/** Default grouping of {@link arbAccuracy}. */
export const ACCURACY_BY = ["model", "subject", "answer_type", "image"];

/**
 * Accuracy per group over the auto-scored rows (`correct` not null; unparseable and invalid
 * answers count as wrong). Columns: the keys, `rows` (all rows), `n` (auto-scored rows),
 * `correct`, `accuracy` (% of n, null when n = 0), `ci_low`/`ci_high` (Wilson 95%, %),
 * `unparseable`, `needs_manual` (symbolic rows the CAS could not decide), `not_auto_scored`
 * (proof-like rows).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * import { benchmarkRows } from "@runlens/pipeline/benchmark_rows.ts";
 * // 8 hand-made rows of model "m1": 4 law multiple-choice, 2 numerical, 2 symbolic (physics)
 * const loaded = await loadRuns(["tests/fixtures/arb/analyses.jsonl"], "", { benchmarks: ["arb"] });
 * const rows = benchmarkRows(loaded, "arb");
 * const [physics, law] = arbAccuracy(rows, ["model", "subject"]).toRecords();
 * // law: 4 rows, 2 correct; the unparseable response counts as wrong
 * assert.deepEqual([law.n, law.correct, law.accuracy, law.unparseable], [4, 2, 50, 1]);
 * const ci = [law.ci_low, law.ci_high].map((x) => Number(x).toFixed(1));
 * assert.deepEqual(ci, ["15.0", "85.0"]); // Wilson 95%
 * // physics: 4 rows, one symbolic answer the CAS cannot decide is left out of n
 * assert.deepEqual([physics.rows, physics.n, physics.needs_manual], [4, 3, 1]);
 * ```
 */
export function arbAccuracy(rows: pl.DataFrame, by: readonly string[] = ACCURACY_BY): pl.DataFrame {
  const out = groupRows(rows, by).map(({ key, rows: g }) => {
    const scored = g.filter((r) => r.correct !== null);
    const correct = scored.filter((r) => r.correct === true).length;
    const ci = wilsonInterval(correct, scored.length);
    const count = (status: string) => g.filter((r) => r.status === status).length;
    return {
      ...key,
      rows: g.length,
      n: scored.length,
      correct,
      accuracy: scored.length === 0 ? null : (100 * correct) / scored.length,
      ci_low: ci?.low ?? null,
      ci_high: ci?.high ?? null,
      unparseable: count("unparseable"),
      needs_manual: count("needs-manual-check"),
      not_auto_scored: count("not-auto-scored"),
    };
  });
  return typedFrame(out, {
    ...keySchema(rows, by),
    rows: pl.Int32,
    n: pl.Int32,
    correct: pl.Int32,
    accuracy: pl.Float64,
    ci_low: pl.Float64,
    ci_high: pl.Float64,
    unparseable: pl.Int32,
    needs_manual: pl.Int32,
    not_auto_scored: pl.Int32,
  });
}

/** Default grouping of {@link arbUnparseable}. */
export const UNPARSEABLE_BY = ["model", "subject"];

/**
 * Share of responses without an `ANSWER:` delimiter per group, over the rows whose type asks
 * for one (proof-like rows are left out). Columns: the keys, `n`, `unparseable`, `rate` (%),
 * `ci_low`/`ci_high` (Wilson 95%, %).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * import { benchmarkRows } from "@runlens/pipeline/benchmark_rows.ts";
 * // 8 hand-made rows of model "m1": 4 law multiple-choice, 2 numerical, 2 symbolic (physics)
 * const loaded = await loadRuns(["tests/fixtures/arb/analyses.jsonl"], "", { benchmarks: ["arb"] });
 * const rows = benchmarkRows(loaded, "arb");
 * const [m1] = arbUnparseable(rows, ["model"]).toRecords();
 * assert.deepEqual([m1.n, m1.unparseable, m1.rate], [8, 1, 12.5]);
 * ```
 */
export function arbUnparseable(
  rows: pl.DataFrame,
  by: readonly string[] = UNPARSEABLE_BY,
): pl.DataFrame {
  const asked = rows.filter(pl.col("answer_type").neq(pl.lit("proof-like")));
  const out = groupRows(asked, by).map(({ key, rows: g }) => {
    const bad = g.filter((r) => r.status === "unparseable").length;
    const ci = wilsonInterval(bad, g.length);
    return {
      ...key,
      n: g.length,
      unparseable: bad,
      rate: (100 * bad) / g.length,
      ci_low: ci?.low ?? null,
      ci_high: ci?.high ?? null,
    };
  });
  return typedFrame(out, {
    ...keySchema(rows, by),
    n: pl.Int32,
    unparseable: pl.Int32,
    rate: pl.Float64,
    ci_low: pl.Float64,
    ci_high: pl.Float64,
  });
}
