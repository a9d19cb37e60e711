/**
 * Find a data-set question inside a logged prompt: the rule that ties a log row without an
 * `example_index` to its example when the log keeps the whole prompt (few-shot exemplars, a
 * chat template, an answer cue) instead of the bare question.
 *
 * The rule, conservative on purpose:
 * 1. **Normalise** both texts ({@link questionKey}): strip surrounding whitespace, then strip,
 *    repeatedly, known trailing cues — chat-template tails ({@link TEMPLATE_TAILS}, e.g.
 *    `<|im_end|>\n<|im_start|>assistant\n`) anywhere, and answer cues ({@link ANSWER_CUES}, e.g.
 *    `A:`, `A: Let's think step by step.`) only where they start a word (`…DNA:` keeps its
 *    `A:`). The same normalisation applies to the data set's input, so a question that itself
 *    ends with a cue still matches.
 * 2. **Embedded**: the normalised question must equal the normalised log text, or be its
 *    suffix starting at a question boundary: the text before it ends with a newline or a
 *    question lead, followed by nothing, one or two spaces or a tab ({@link QUESTION_LEADS}: `Q:`, `Question:`,
 *    `[INST]`, …). A question that merely ends the prompt mid-line does not match.
 * 3. **Unique**: when several different questions of the task satisfy 2 (one is a suffix of
 *    the other, both at a boundary), the row is ambiguous and is not matched.
 *
 * The scalar forms ({@link questionKey}, {@link embeddedMatch}, {@link startsLastQuestion}) live
 * in the polars-free `question_key.ts` and are re-exported here; this module adds the polars
 * forms {@link questionKeyExpr} and {@link embeddedExpr} that `identify.ts` uses.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { embeddedMatch } from "@runlens/pipeline/input_match.ts";
 * const prompt = "Q: 1 + 1?\nA: 2\n\nQ: not True is\nA: Let's think step by step.";
 * assert.ok(embeddedMatch(prompt, "not True is"));
 * assert.ok(!embeddedMatch(prompt, "True is")); // starts mid-line: no boundary
 * ```
 * @module
 */
import pl from "nodejs-polars";
import {
  ANSWER_CUES,
  embeddedMatch,
  QUESTION_LEADS,
  questionKey,
  SPACERS,
  startsLastQuestion,
  TEMPLATE_TAILS,
} from "./question_key.ts";

// The scalar rule lives in the polars-free `question_key.ts` (scoring Workers load it).
export {
  ANSWER_CUES,
  embeddedMatch,
  QUESTION_LEADS,
  questionKey,
  startsLastQuestion,
  TEMPLATE_TAILS,
};

/** Python's whitespace (what `str.strip()` removes), as a regex class body. */
const WS = "\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\x{1680}\\x{2000}-\\x{200a}" +
  "\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}";
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Regex (Rust syntax) of the trailing junk {@link questionKey} removes. */
export const TRAILING_JUNK = `(?:[${WS}]+|${TEMPLATE_TAILS.map(escape).join("|")}|` +
  `(?:^|[${WS}])(?:${ANSWER_CUES.map(escape).join("|")}))*$`;
const LEADING_WS = `^[${WS}]+`;

/**
 * {@link questionKey} as a polars expression.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const df = pl.DataFrame({ input: ["  Q: Is it?\nA: Let's think step by step.<|im_end|>\n"] });
 * const keys = df.select(questionKeyExpr(pl.col("input")).alias("key"));
 * assert.deepEqual(keys.getColumn("key").toArray(), ["Q: Is it?"]); // as questionKey
 * ```
 */
export function questionKeyExpr(e: pl.Expr): pl.Expr {
  return e.str.replace(LEADING_WS, "").str.replace(TRAILING_JUNK, "");
}

/**
 * {@link embeddedMatch} in polars, on already normalised columns (`loggedKey`, `questionKey`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const pairs = pl.DataFrame({
 *   __log_key: ["Q: 1 + 1?\nA: 2\n\nQ: not True is", "Q: not True is"],
 *   __ds_key: ["not True is", "True is"],
 * });
 * const kept = pairs.filter(embeddedExpr(pl.col("__log_key"), pl.col("__ds_key")));
 * assert.deepEqual(kept.getColumn("__ds_key").toArray(), ["not True is"]);
 * ```
 */
export function embeddedExpr(loggedKey: pl.Expr, question: pl.Expr): pl.Expr {
  let ok = loggedKey.eq(question);
  for (const lead of QUESTION_LEADS) {
    for (const spacer of SPACERS) {
      ok = ok.or(loggedKey.str.endsWith(pl.concatString([pl.lit(lead + spacer), question], "")));
    }
  }
  return question.str.lengths().gt(0).and(ok);
}
