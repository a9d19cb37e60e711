/**
 * Word Sorting, new-alphabet subset: does the model sort by the standard English alphabet
 * instead of the new one? (BBEH paper, Appendix A.22: models restate the new alphabet but return
 * the list in English order.)
 *
 * The words are read from the question ("… separate them with comma: w1, w2, …"); items whose
 * English sort equals the gold answer cannot tell the two apart and are left out.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * import {
 *   englishSorted,
 *   englishSortShare,
 * } from "@runlens/benchmarks/bbeh/failure/word_sorting.ts";
 * assert.equal(englishSorted("… separate them with comma: pear, apple"), "apple, pear");
 * // new-alphabet items 10 and 14; the run answers item 10 in English order
 * const english = "implementations, manipulations, murray, notifications, photosynthesis, " +
 *   "sweatband, transformations";
 * const gold14 = "administrations, manipulations, rationalizations, photosynthesis, " +
 *   "specifications, syndrome, therefrom";
 * const log = Deno.makeTempFileSync({ suffix: ".csv" });
 * Deno.writeTextFileSync(
 *   log,
 *   `run,model,task,example_index,response
 * r1,m,word_sorting,10,"The answer is: ${english}"
 * r1,m,word_sorting,14,"The answer is: ${gold14}"
 * `,
 * );
 * const { rows } = await loadRuns([log], resolveDataDir());
 * Deno.removeSync(log);
 * const table = englishSortShare(rows); // english_sort_share, english_sort_of_wrong, …
 * assert.deepEqual(table.select("measure", "count", "n").rows(), [
 *   ["english_sort_share", 1, 2],
 *   ["english_sort_of_wrong", 1, 1],
 *   ["informative_items", 2, 2],
 * ]);
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { hasFinalAnswer, withSubsetLabel } from "./labels.ts";
import { requireColumns, shareMeasures } from "./shares.ts";

const WORDS_AFTER = "separate them with comma:";

/**
 * The words of a new-alphabet question sorted in standard English order, joined with ", "
 * (the gold answer's format); null when the question has no word list.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(englishSorted("Sort … and separate them with comma: b, a, c"), "a, b, c");
 * assert.equal(englishSorted("Is there a mistake in this sequence?"), null);
 * ```
 */
export function englishSorted(input: string): string | null {
  const at = input.lastIndexOf(WORDS_AFTER);
  if (at < 0) return null;
  const words = input.slice(at + WORDS_AFTER.length).trim().split(/\s*,\s*/)
    .filter((w) => w.length > 0);
  if (words.length === 0) return null;
  return [...words].sort((a, b) => a < b ? -1 : a > b ? 1 : 0).join(", ");
}

/** Normalise a list answer like the official scorer (lowercase, ", " → ","). */
function norm(e: pl.Expr): pl.Expr {
  return e.str.toLowerCase().str.replaceAll(", ", ",", true);
}

/**
 * Share table for the new-alphabet items of word_sorting whose English sort differs from the
 * gold answer: `english_sort_share` (answers equal to the English sort, out of answered rows)
 * and `english_sort_of_wrong` (out of wrong answered rows); `informative_items` (such items out
 * of all new-alphabet rows).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * // new-alphabet items 10 and 14; the run answers item 10 in English order
 * const english = "implementations, manipulations, murray, notifications, photosynthesis, " +
 *   "sweatband, transformations";
 * const gold14 = "administrations, manipulations, rationalizations, photosynthesis, " +
 *   "specifications, syndrome, therefrom";
 * const log = Deno.makeTempFileSync({ suffix: ".csv" });
 * Deno.writeTextFileSync(
 *   log,
 *   `run,model,task,example_index,response
 * r1,m,word_sorting,10,"The answer is: ${english}"
 * r1,m,word_sorting,14,"The answer is: ${gold14}"
 * `,
 * );
 * const { rows } = await loadRuns([log], resolveDataDir());
 * Deno.removeSync(log);
 * const share = englishSortShare(rows)
 *   .filter(pl.col("measure").eq(pl.lit("english_sort_share")));
 * assert.equal(share.getColumn("share").toArray()[0], 50);
 * ```
 */
export function englishSortShare(rows: pl.DataFrame): pl.DataFrame {
  requireColumns(
    rows,
    [
      "run",
      "model",
      "task",
      "example_index",
      "input",
      "target",
      "response",
      "extracted",
      "correct",
    ],
    "englishSortShare",
  );
  const df = withSubsetLabel(rows, "word_sorting", "variant")
    .filter(pl.col("subset").eq(pl.lit("new_alphabet_sorting")));
  const items = df.select("example_index", "input").unique({
    subset: ["example_index"],
    keep: "first",
  });
  const inputs = items.getColumn("input").toArray() as string[];
  const english = pl.DataFrame({
    example_index: items.getColumn("example_index"),
    __english: pl.Series("__english", inputs.map(englishSorted), pl.Utf8),
  });
  const labelled = df.join(english, { on: "example_index", how: "left" }).withColumns(
    norm(pl.col("__english")).alias("__english"),
    norm(pl.col("target")).alias("__gold"),
  );
  const informative = pl.col("__english").neq(pl.col("__gold")).fillNull(false);
  const answered = hasFinalAnswer().and(informative);
  const isEnglish = pl.col("extracted").eq(pl.col("__english"));
  return shareMeasures(labelled, [
    { measure: "english_sort_share", hit: isEnglish, of: answered },
    {
      measure: "english_sort_of_wrong",
      hit: isEnglish,
      of: answered.and(pl.col("correct").fillNull(false).not()),
    },
    { measure: "informative_items", hit: informative, of: pl.lit(true) },
  ]);
}
