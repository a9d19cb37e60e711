/**
 * `bbeh-official`: the official BBEH scorer of `lib/benchmarks/bbeh/scorer.ts`, registered as a scorer.
 * Its polars form runs as a `prepare` step (`withBbehOfficial` builds helper columns), whose
 * outputs are renamed so they cannot clash with the frame's own `extracted`/`correct`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bbehOfficialScorer } from "@runlens/benchmarks/bbeh/official_scorer.ts";
 * assert.equal(bbehOfficialScorer.name, "bbeh-official");
 * assert.deepEqual(bbehOfficialScorer.score("The answer is: (B)", "(B)"), {
 *   extracted: "(b)",
 *   correct: true,
 * });
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { BBEH_OFFICIAL, bbehOfficial, withBbehOfficial } from "./scorer.ts";
import type { Scorer } from "../../scorers/types.ts";

const X = "__bbeh_official_extracted";
const C = "__bbeh_official_correct";
/** The re-score flag `withBbehOfficial` adds. */
const SLOW = "__bbeh_slow";

/** `bbeh-official`. */
export const bbehOfficialScorer: Scorer = {
  name: BBEH_OFFICIAL,
  description: "The official BBEH scorer (google-deepmind/bbeh evaluate.py): answer prefixes " +
    "(last occurrence), LaTeX unwrapping, lower-casing, then fuzzy match (option letters, " +
    "floats, quotes, brackets, a trailing '?').",
  source: "google-deepmind/bbeh bbeh/evaluate.py, ported in lib/benchmarks/bbeh/scorer.ts",
  benchmarks: ["bbeh"],
  needs: [],
  score(response, target) {
    const v = bbehOfficial(response, target);
    return { extracted: v.extracted, correct: v.correct };
  },
  prepare(lf, cols) {
    const keep = lf.columns.filter((c) => c === "extracted" || c === "correct");
    const saved = keep.map((c) => pl.col(c).alias(`__bbeh_saved_${c}`));
    let out = saved.length > 0 ? lf.withColumns(...saved) : lf;
    out = withBbehOfficial(out, cols.response, cols.target).rename({ extracted: X, correct: C });
    return keep.length > 0
      ? out.withColumns(...keep.map((c) => pl.col(`__bbeh_saved_${c}`).alias(c)))
        .drop(keep.map((c) => `__bbeh_saved_${c}`))
      : out;
  },
  expr: () => ({ extracted: pl.col(X), correct: pl.col(C), slow: pl.col(SLOW) }),
};
