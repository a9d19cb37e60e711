/**
 * Hyperbaton: does the model fall back on standard English adjective order? (BBEH paper,
 * Appendix A.8: models induce the variant's partial order but pick options that follow
 * opinion → size → age → shape → color → origin → material → purpose.)
 *
 * What is feasible from the text: every option of every item is checked against standard
 * English order with a lexicon of the 94 adjectives the task uses (words not in the lexicon
 * belong to the noun, e.g. "fire extinguisher"). Options hold up to 7 adjectives in shuffled
 * order, so hardly any follows English order throughout; the unit is the adjacent adjective
 * pair. An answer is the concatenation of option letters ("BC"); for the wrongly selected
 * options we report the share of pairs in English order, against the same share among all
 * non-gold options (what picking at random would give).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * import {
 *   englishOrderConsistent,
 *   hyperbatonEnglishOrder,
 * } from "@runlens/benchmarks/bbeh/failure/hyperbaton.ts";
 * assert.equal(englishOrderConsistent("lovely small old red german glass drinking cup"), true);
 * // a run log: hyperbaton items 0 and 1 (gold "E" for both); item 1 also picks A
 * const log = Deno.makeTempFileSync({ suffix: ".csv" });
 * Deno.writeTextFileSync(
 *   log,
 *   `run,model,task,example_index,response
 * r1,m,hyperbaton,0,The answer is: E
 * r1,m,hyperbaton,1,The answer is: AE
 * `,
 * );
 * const { rows } = await loadRuns([log], resolveDataDir());
 * Deno.removeSync(log);
 * const table = hyperbatonEnglishOrder(rows); // measures english_pairs_in_wrong_picks, …
 * // the wrong pick A ("green ethiopian exercise tiny pyramidal awful paper cup"): 4 of 6 pairs
 * assert.deepEqual(table.select("measure", "count", "n").row(0), [
 *   "english_pairs_in_wrong_picks",
 *   4,
 *   6,
 * ]);
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { requireColumns, shareMeasures } from "./shares.ts";

/** Standard English adjective order (the paper's A.8). */
export const ENGLISH_ADJECTIVE_ORDER = [
  "opinion",
  "size",
  "age",
  "shape",
  "color",
  "origin",
  "material",
  "purpose",
] as const;

/** The adjectives of BBEH hyperbaton by category (every option word that is not the noun). */
export const HYPERBATON_LEXICON: Record<(typeof ENGLISH_ADJECTIVE_ORDER)[number], string[]> = {
  opinion: [
    "awful",
    "good",
    "lovely",
    "mysterious",
    "nice",
    "obnoxious",
    "repulsive",
    "ridiculous",
    "silly",
    "terrible",
    "wonderful",
  ],
  size: [
    "big",
    "enormous",
    "huge",
    "large",
    "little",
    "massive",
    "medium-size",
    "midsize",
    "normal-size",
    "small",
    "tiny",
  ],
  age: ["ancient", "archaic", "brand-new", "new", "old", "old-fashioned"],
  shape: ["circular", "prismlike", "pyramidal", "rectangular", "spherical", "square", "triangular"],
  color: [
    "aqua",
    "black",
    "blue",
    "brown",
    "crimson",
    "cyan",
    "gray",
    "green",
    "indigo",
    "magenta",
    "maroon",
    "pink",
    "red",
    "teal",
    "violet",
    "white",
    "yellow",
  ],
  origin: [
    "american",
    "bangladeshi",
    "brazilian",
    "chinese",
    "congolese",
    "egyptian",
    "ethiopian",
    "filipino",
    "german",
    "indian",
    "indonesian",
    "iranian",
    "japanese",
    "mexican",
    "nigerian",
    "pakistani",
    "russian",
    "thai",
    "turkish",
    "vietnamese",
  ],
  material: [
    "cardboard",
    "cloth",
    "fiberglass",
    "glass",
    "iron",
    "leather",
    "paper",
    "plastic",
    "rubber",
    "steel",
    "wood",
    "wool",
  ],
  purpose: [
    "drinking",
    "driving",
    "eating",
    "exercise",
    "hiking",
    "smoking",
    "snorkeling",
    "typing",
    "walking",
    "whittling",
  ],
};

const RANK = new Map<string, number>(
  ENGLISH_ADJECTIVE_ORDER.flatMap((cat, i) => HYPERBATON_LEXICON[cat].map((w) => [w, i])),
);

/**
 * Whether each adjacent pair of a phrase's adjectives (lexicon words) follows standard English
 * order, in phrase order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * // color→size no, size→age yes; "ball" is not in the lexicon (the noun)
 * assert.deepEqual(englishPairs("red small old ball"), [false, true]);
 * ```
 */
export function englishPairs(phrase: string): boolean[] {
  const ranks = phrase.toLowerCase().split(/\s+/).map((w) => RANK.get(w))
    .filter((r): r is number => r !== undefined);
  return ranks.slice(1).map((r, i) => ranks[i] < r);
}

/**
 * Whether a phrase's adjectives follow standard English order strictly.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(englishOrderConsistent("red small ball"), false); // color before size
 * assert.equal(englishOrderConsistent("small red ball"), true);
 * ```
 */
export function englishOrderConsistent(phrase: string): boolean {
  return englishPairs(phrase).every((x) => x);
}

/**
 * The options of a hyperbaton question: letter → the English-order verdict of each adjacent
 * adjective pair ("None of the above" is left out).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const input = "(A) small red ball\n(B) red old big car\n(K) None of the above";
 * const options = hyperbatonOptions(input);
 * assert.deepEqual(options, { A: [true], B: [false, false] });
 * ```
 */
export function hyperbatonOptions(input: string): Record<string, boolean[]> {
  const out: Record<string, boolean[]> = {};
  for (const m of input.matchAll(/^\(([A-Z])\) (.+)$/gm)) {
    if (/^none of the above/i.test(m[2].trim())) continue;
    out[m[1]] = englishPairs(m[2]);
  }
  return out;
}

/** Share of English-ordered pairs of an option (0 when it has no pair). */
export function englishShare(pairs: readonly boolean[]): number {
  return pairs.length === 0 ? 0 : pairs.filter((x) => x).length / pairs.length;
}

/** Whether the letters in column `col` include the option letter in `__letter`. */
function containsLetter(col: string): pl.Expr {
  const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ".split("");
  let chain = pl.when(pl.col("__letter").eq(pl.lit(letters[0])))
    .then(pl.col(col).str.contains(letters[0], true));
  for (const l of letters.slice(1)) {
    chain = chain.when(pl.col("__letter").eq(pl.lit(l))).then(pl.col(col).str.contains(l, true));
  }
  return chain.otherwise(pl.lit(false));
}

/**
 * Share table for hyperbaton, counted over adjacent adjective pairs of options (no option of
 * the task follows English order throughout, so pairs are the unit): `english_pairs_in_wrong_picks`
 * (pairs in English order, out of the pairs of wrongly selected options),
 * `english_pairs_in_distractors` (the same over all non-gold options shown: the chance level),
 * and `english_pairs_in_gold` (over the gold options).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * // a run log: hyperbaton items 0 and 1 (gold "E" for both); item 1 also picks A
 * const log = Deno.makeTempFileSync({ suffix: ".csv" });
 * Deno.writeTextFileSync(
 *   log,
 *   `run,model,task,example_index,response
 * r1,m,hyperbaton,0,The answer is: E
 * r1,m,hyperbaton,1,The answer is: AE
 * `,
 * );
 * const { rows } = await loadRuns([log], resolveDataDir());
 * Deno.removeSync(log);
 * const table = hyperbatonEnglishOrder(rows);
 * // pairs in English order: 4/6 in the wrong pick, 53/108 in all distractors, 5/10 in the gold
 * assert.deepEqual(table.getColumn("count").toArray(), [4, 53, 5]);
 * assert.deepEqual(table.getColumn("n").toArray(), [6, 108, 10]);
 * ```
 */
export function hyperbatonEnglishOrder(rows: pl.DataFrame): pl.DataFrame {
  requireColumns(
    rows,
    ["run", "model", "task", "example_index", "input", "target", "extracted"],
    "hyperbatonEnglishOrder",
  );
  const df = rows.filter(pl.col("task").eq(pl.lit("hyperbaton")));
  const items = df.select(pl.col("example_index").cast(pl.Int32), pl.col("input"))
    .unique({ subset: ["example_index"], keep: "first" });
  const idx = items.getColumn("example_index").toArray() as number[];
  const inputs = items.getColumn("input").toArray() as string[];
  const pair = { example_index: [] as number[], letter: [] as string[], english: [] as boolean[] };
  inputs.forEach((input, i) => {
    for (const [letter, pairs] of Object.entries(hyperbatonOptions(input))) {
      for (const english of pairs) {
        pair.example_index.push(idx[i]);
        pair.letter.push(letter);
        pair.english.push(english);
      }
    }
  });
  const pairs = pl.DataFrame({
    example_index: pl.Series("example_index", pair.example_index, pl.Int32),
    __letter: pl.Series("__letter", pair.letter, pl.Utf8),
    __english: pl.Series("__english", pair.english, pl.Bool),
  });
  const letters = pl.col("extracted").fillNull("").str.toUpperCase()
    .str.replaceAll("[\\s,()]", "");
  const picks = df.withColumns(
    pl.col("example_index").cast(pl.Int32),
    pl.when(letters.str.contains("^[A-Z]+$")).then(letters).otherwise(pl.lit(""))
      .alias("__pred"),
    pl.col("target").str.toUpperCase().alias("__gold"),
  ).join(pairs, { on: "example_index", how: "inner" }).withColumns(
    containsLetter("__pred").alias("__picked"),
    containsLetter("__gold").alias("__is_gold"),
  );
  const picked = pl.col("__picked"), gold = pl.col("__is_gold"), en = pl.col("__english");
  return shareMeasures(picks, [
    { measure: "english_pairs_in_wrong_picks", hit: en, of: picked.and(gold.not()) },
    { measure: "english_pairs_in_distractors", hit: en, of: gold.not() },
    { measure: "english_pairs_in_gold", hit: en, of: gold },
  ]);
}
