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
 * {@link embeddedMatch} is the scalar form (documentation and tests); the scoring code uses the
 * polars forms {@link questionKeyExpr} and {@link embeddedExpr}.
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

/** Chat-template and tokenizer tails stripped from the end of a prompt, wherever they sit. */
export const TEMPLATE_TAILS: readonly string[] = [
  "<|im_end|>",
  "<|im_start|>assistant",
  "<|eot_id|>",
  "<|start_header_id|>assistant<|end_header_id|>",
  "<|end|>",
  "<|assistant|>",
  "<|endoftext|>",
  "<end_of_turn>",
  "<start_of_turn>model",
  "[/INST]",
  "</s>",
  "<｜Assistant｜>",
  "<think>",
];

/**
 * Answer cues stripped from the end of a prompt when they start a word (after whitespace or at
 * the very start). Case-sensitive. The last one is the BBEH paper's answer-format instruction.
 */
export const ANSWER_CUES: readonly string[] = [
  "A:",
  "Answer:",
  "Let's think step by step.",
  "Assistant:",
  "### Response:",
  'Think step by step, and when you provide the final answer, please use the prefix "The ' +
  'answer is:" without any modification, and provide the answer directly, with no ' +
  'formatting, no bolding, and no markup. For instance: "The answer is: 42" or "The answer ' +
  'is: yes". If the question is multiple choice with a single correct answer, the final ' +
  'answer must only be the letter corresponding to the correct answer. For example, "The ' +
  'answer is: (a)"',
];

/** What may stand right before an embedded question (then "", " ", "  " or a tab). */
export const QUESTION_LEADS: readonly string[] = [
  "\n",
  "Q:",
  "Question:",
  "[INST]",
  "User:",
  "Human:",
  "<|user|>",
];

/** Python's whitespace (what `str.strip()` removes), as a regex class body. */
const WS = "\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\x{1680}\\x{2000}-\\x{200a}" +
  "\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}";
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Regex (Rust syntax) of the trailing junk {@link questionKey} removes. */
export const TRAILING_JUNK = `(?:[${WS}]+|${TEMPLATE_TAILS.map(escape).join("|")}|` +
  `(?:^|[${WS}])(?:${ANSWER_CUES.map(escape).join("|")}))*$`;
const LEADING_WS = `^[${WS}]+`;
const TRAILING_JS = new RegExp(
  `(?:[${WS.replaceAll("\\x{", "\\u{")}]+|${TEMPLATE_TAILS.map(escape).join("|")}|` +
    `(?:^|[${WS.replaceAll("\\x{", "\\u{")}])(?:${ANSWER_CUES.map(escape).join("|")}))*$`,
  "u",
);
const LEADING_JS = new RegExp(`^[${WS.replaceAll("\\x{", "\\u{")}]+`, "u");

/**
 * The normalised question text (step 1 of the module rule).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(questionKey("  Q: Is it?\nA: Let's think step by step.<|im_end|>\n"), "Q: Is it?");
 * ```
 */
export function questionKey(text: string): string {
  return text.replace(LEADING_JS, "").replace(TRAILING_JS, "");
}

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

const SPACERS = ["", " ", "  ", "\t"];

/**
 * Whether the data-set question `question` is the one asked at the end of `logged` (steps 1–2
 * of the module rule; step 3, uniqueness, needs the other questions of the task).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const chat = "<|im_start|>user\nIs 7 prime?<|im_end|>\n<|im_start|>assistant\n";
 * assert.equal(embeddedMatch(chat, "Is 7 prime?"), true);
 * ```
 */
export function embeddedMatch(logged: string, question: string): boolean {
  const key = questionKey(logged);
  const q = questionKey(question);
  if (q === "") return false;
  if (key === q) return true;
  if (!key.endsWith(q)) return false;
  const before = key.slice(0, key.length - q.length);
  return QUESTION_LEADS.some((lead) => SPACERS.some((s) => before.endsWith(lead + s)));
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

/**
 * For a data-set question known to be cut short (BBH snarks 88 stops at its first "A:"):
 * whether the logged text's last question starts with it, after a question lead.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const prompt = "Q: x\nA: y\n\nQ: Which is it? (A) The NBA\nA:";
 * assert.equal(startsLastQuestion(prompt, "Which is it? (A) The NB"), true);
 * ```
 */
export function startsLastQuestion(logged: string, question: string): boolean {
  const key = questionKey(logged);
  const q = questionKey(question);
  if (q === "") return false;
  return QUESTION_LEADS.some((lead) =>
    SPACERS.some((spacer) => {
      const at = key.lastIndexOf(lead + spacer + q);
      return at >= 0 && !key.slice(at + lead.length).includes(`\n\n${lead}`);
    })
  );
}
