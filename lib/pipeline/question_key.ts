/**
 * The question-text rule in plain TypeScript, without polars (scoring
 * Workers load it): the normalised question text ({@link questionKey}), whether a data-set
 * question is the one asked at the end of a logged prompt ({@link embeddedMatch},
 * {@link isEmbeddedKey}), and the rule for a data-set question known to be cut short
 * ({@link startsLastQuestion}, {@link truncatedKeyMatch}).
 *
 * The rule, conservative on purpose:
 * 1. **Normalise** both texts: strip surrounding whitespace (Python's set), then strip,
 *    repeatedly, known trailing cues — chat-template tails ({@link TEMPLATE_TAILS}) anywhere,
 *    and answer cues ({@link ANSWER_CUES}) only where they start a word.
 * 2. **Embedded**: the normalised question equals the normalised log text, or is its suffix
 *    starting at a question boundary: the text before it ends with a lead
 *    ({@link QUESTION_LEADS}: a newline, `Q:`, `Question:`, `[INST]`, …) followed by nothing,
 *    one or two spaces or a tab.
 * 3. **Unique** (checked by the callers): several different questions that fit → ambiguous.
 *
 * {@link questionKey} peels the junk off the end token by token instead of running one regex
 * over the whole text (`question_key.test.ts` keeps that regex as its oracle): the same result (no cue or tail is a suffix of another, and
 * none ends with whitespace, so the peeling is deterministic), in time proportional to the
 * junk instead of the whole prompt.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { embeddedMatch, questionKey } from "@runlens/pipeline/question_key.ts";
 * const prompt = "Q: 1 + 1?\nA: 2\n\nQ: not True is\nA: Let's think step by step.";
 * assert.equal(questionKey(prompt), "Q: 1 + 1?\nA: 2\n\nQ: not True is");
 * assert.ok(embeddedMatch(prompt, "not True is"));
 * assert.ok(!embeddedMatch(prompt, "True is")); // starts mid-line: no boundary
 * ```
 * @module
 */
import { PY_WHITESPACE } from "../core/python.ts";

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

/** What may follow a lead before the question. */
export const SPACERS: readonly string[] = ["", " ", "  ", "\t"];

const WS = new Set(PY_WHITESPACE);

/** Tokens by the code of their last character: the only ones worth trying at an end. */
function byLast(tokens: readonly string[]): Map<number, string[]> {
  const m = new Map<number, string[]>();
  for (const t of tokens) {
    const c = t.charCodeAt(t.length - 1);
    m.set(c, [...(m.get(c) ?? []), t]);
  }
  return m;
}
const TAILS_BY_LAST = byLast(TEMPLATE_TAILS);
const CUES_BY_LAST = byLast(ANSWER_CUES);
const LEADS_BY_LAST = byLast(QUESTION_LEADS);
const isWs = (c: string | undefined) => c !== undefined && WS.has(c);

/**
 * The normalised question text (step 1 of the module rule).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(questionKey("  Q: Is it?\nA: Let's think step by step.<|im_end|>\n"), "Q: Is it?");
 * assert.equal(questionKey("Spell DNA:"), "Spell DNA:"); // "A:" inside a word is not a cue
 * assert.equal(questionKey("Q: one\r\ntwo\r\n"), "Q: one\ntwo"); // CRLF read as LF
 * ```
 */
export function questionKey(text: string): string {
  // a log written on Windows or round-tripped through a spreadsheet has CRLF line ends where
  // the data sets have LF: the same question either way
  if (text.includes("\r\n")) text = text.replaceAll("\r\n", "\n");
  let start = 0;
  while (start < text.length && WS.has(text[start])) start++;
  let end = text.length;
  peel: while (end > start) {
    const last = text.charCodeAt(end - 1);
    if (WS.has(text[end - 1])) {
      end--;
      continue;
    }
    for (const tail of TAILS_BY_LAST.get(last) ?? []) {
      if (end - start >= tail.length && text.startsWith(tail, end - tail.length)) {
        end -= tail.length;
        continue peel;
      }
    }
    for (const cue of CUES_BY_LAST.get(last) ?? []) {
      const at = end - cue.length;
      if (at >= start && text.startsWith(cue, at) && (at === start || isWs(text[at - 1]))) {
        end = at;
        continue peel;
      }
    }
    break;
  }
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

/**
 * Whether the normalised question `question` is the one asked at the end of the normalised
 * log text `logged` (step 2 of the module rule, on keys already normalised).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(isEmbeddedKey("Q: a?\nA: b\n\nQ: c?", "c?"), true);
 * assert.equal(isEmbeddedKey("Tell me: c?", "c?"), false);
 * ```
 */
export function isEmbeddedKey(logged: string, question: string): boolean {
  if (question === "") return false;
  const at = logged.length - question.length;
  if (at === 0) return logged === question;
  // a slice compared with === is several times faster in V8 than endsWith on long texts
  if (at < 0 || logged.slice(at) !== question) return false;
  return isBoundaryAt(logged, at);
}

/** Whether `text[0:at]` ends with a question boundary (a lead and a spacer). */
export function isBoundaryAt(text: string, at: number): boolean {
  for (const spacer of SPACERS) {
    const p = at - spacer.length;
    if (p < 1 || (spacer !== "" && !text.startsWith(spacer, p))) continue;
    for (const lead of LEADS_BY_LAST.get(text.charCodeAt(p - 1)) ?? []) {
      if (p >= lead.length && text.startsWith(lead, p - lead.length)) return true;
    }
  }
  return false;
}

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
  return isEmbeddedKey(questionKey(logged), questionKey(question));
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
  return startsLastQuestionKey(questionKey(logged), questionKey(question));
}

/** {@link startsLastQuestion} on normalised texts. */
export function startsLastQuestionKey(logged: string, question: string): boolean {
  if (question === "") return false;
  return QUESTION_LEADS.some((lead) =>
    SPACERS.some((spacer) => {
      const at = logged.lastIndexOf(lead + spacer + question);
      return at >= 0 && !logged.slice(at + lead.length).includes(`\n\n${lead}`);
    })
  );
}

/**
 * The rule for a cut-short data-set question in every path: the logged text's last question
 * starts with it after a lead ({@link startsLastQuestionKey}), or the logged text IS the
 * whole question (it starts with the cut one and asks no other question after it: no blank
 * line followed by a lead). Both texts normalised.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const cut = "Which is sarcastic?\nOptions:\n(A) The NB";
 * assert.ok(truncatedKeyMatch("Which is sarcastic?\nOptions:\n(A) The NBA: yes\n(B) no", cut));
 * assert.ok(truncatedKeyMatch("Q: x?\nA: y\n\nQ: " + cut + "A: yes\n(B) no", cut));
 * assert.ok(!truncatedKeyMatch(cut + "A: yes\n\nQ: Another question?", cut));
 * ```
 */
export function truncatedKeyMatch(logged: string, question: string): boolean {
  if (startsLastQuestionKey(logged, question)) return true;
  if (question === "" || !logged.startsWith(question)) return false;
  return !QUESTION_LEADS.some((lead) => logged.includes(`\n\n${lead}`, question.length));
}
