/**
 * Where a response states its final answer: the conventions people really write
 * ({@link findFinalAnswer}). Benchmark-neutral and polars-free: the `lenient` scorer uses it, so
 * can any benchmark's own rule (GSM8K's `#### N`, a user's rule).
 *
 * The conventions ({@link ANSWER_CONVENTIONS}; docs/scorers.md shows each with an example), in
 * two tiers. An EXPLICIT final-answer marker is written only to state the answer; a CUE also
 * occurs inside reasoning ("if the answer is (A), then …"):
 *
 * | tier     | convention     | written as                                                   |
 * |----------|----------------|--------------------------------------------------------------|
 * | explicit | `final-answer` | `FINAL ANSWER:` / `Final answer:` / `>> FINAL ANSWER:` / a `## Final Answer` heading, then the answer on the same line, or a `"""`-quoted or fenced block, or the next lines (up to a blank line) |
 * | explicit | `answer-tag`   | `<answer>…</answer>` (an unclosed last `<answer>`: to the end) |
 * | explicit | `boxed`        | `\boxed{…}` / `\fbox{…}`, nested braces included             |
 * | explicit | `hash-marker`  | a line `#### N`, N a number (`#### Step 2` is a heading, not an answer) |
 * | explicit | `json-answer`  | a trailing JSON object with an `answer` (or `final_answer`) key, maybe in a fence |
 * | cue      | `answer-line`  | `Answer:` (anywhere but after a quote mark), then the rest of the line or the next non-empty line |
 * | cue      | `answer-is`    | "the answer is" in any case ("So the answer is", "The final answer is", "the correct answer would be", "my answer is") |
 * | fallback | `label-line`   | no marker: a last line `Label: value` with a short label (`Verdict: Yes`, `Result: proved`) gives the value |
 * | fallback | `last-line`    | no marker: the last non-empty line                           |
 *
 * The text markers are known in a few languages besides English ({@link LANGUAGE_CUES}:
 * `Respuesta final:`, `La réponse est`, `Die Antwort ist`, `答案是`, …), and fullwidth forms
 * (`答案：（D）`) read as their ASCII twins.
 *
 * Precedence: the LAST explicit marker wins; with none, the LAST cue; with none, the last line.
 * So a final-answer block beats a later "the answer is" in its explanation, and a model that
 * corrects itself ("… \boxed{A} … wait … \boxed{B}") is read at its last word. Reasoning blocks
 * (`<think>…</think>`, `<thinking>…</thinking>`) are hidden first; a text marker right after a
 * quote mark is a quotation, not an answer. What an explicit marker holds is searched again, so
 * `Final Answer: The final answer is $\boxed{42}$` gives `42`. The text returned is free of
 * markup ({@link dropMarkup}) and of a final "."; after a text marker it runs to the end of the
 * line, so it may go on after the answer ("(B). It fits"): `answer_match.ts` reads its first
 * sentence.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findFinalAnswer } from "@runlens/scorers/answer_conventions.ts";
 * const gpt4 = 'Thoughts…\n>> FINAL ANSWER:\n"""\n(B)\n"""';
 * assert.deepEqual(findFinalAnswer(gpt4), { text: "(B)", convention: "final-answer" });
 * assert.deepEqual(findFinalAnswer("So 16 - 3 = 13.\n#### 13"), { text: "13", convention: "hash-marker" });
 * ```
 * @module
 */

/** The name of a convention (see the module doc). */
export type AnswerConvention =
  | "final-answer"
  | "answer-tag"
  | "boxed"
  | "hash-marker"
  | "json-answer"
  | "answer-line"
  | "answer-is"
  | "label-line"
  | "last-line";

/** The conventions, explicit final-answer markers first, then cues, then the fallback. */
export const ANSWER_CONVENTIONS: readonly AnswerConvention[] = [
  "final-answer",
  "answer-tag",
  "boxed",
  "hash-marker",
  "json-answer",
  "answer-line",
  "answer-is",
  "label-line",
  "last-line",
];

/** The conventions written only to state the final answer (the others are cues or fallback). */
export const EXPLICIT_CONVENTIONS: readonly AnswerConvention[] = ANSWER_CONVENTIONS.slice(0, 5);

/** A final answer found in a response. */
export interface FoundAnswer {
  /** The answer as written, markup removed (not yet read as a letter, number, …). */
  text: string;
  /** How the response marked it. */
  convention: AnswerConvention;
}

/** One marker found: where it starts (for "the last one wins") and what it holds. */
interface Marker {
  at: number;
  text: string;
  convention: AnswerConvention;
}

/**
 * Remove reasoning blocks (`<think>`, `<thinking>`), closed or not: text before a lone closing
 * tag and after a lone opening tag is reasoning too.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(hideThinking("<think>(A)?</think>\nThe answer is (C)."), "\n\nThe answer is (C).");
 * assert.equal(hideThinking("(B)\n<think>unfinished (A)"), "(B)\n");
 * ```
 */
export function hideThinking(response: string): string {
  let s = response.replace(/<(think|thinking)>[\s\S]*?<\/\1>/gi, "\n");
  const close = /<\/(?:think|thinking)>/gi;
  let last = -1;
  for (let m = close.exec(s); m; m = close.exec(s)) last = m.index + m[0].length;
  if (last >= 0) s = s.slice(last);
  const open = /<(?:think|thinking)>/i.exec(s);
  return open ? s.slice(0, open.index) : s;
}

/**
 * Delete markdown/LaTeX markup around an answer: `\boxed{x}`, `\text{x}`, `\textbf{x}`,
 * `\mathrm{x}` → `x`; `**`, `__`, backticks, `$` and the math delimiters `\(` `\)` `\[` `\]`
 * are deleted.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(dropMarkup("**`x`** $\\boxed{\\text{y}}$ \\(z\\)"), "x y z");
 * ```
 */
export function dropMarkup(s: string): string {
  let out = s;
  for (let i = 0; i < 3; i++) {
    out = out.replace(/\\(?:boxed|text|textbf|mathrm)\{([^{}]*)\}/g, "$1");
  }
  return out.replace(/\*\*|__|`|\$|\\[()[\]]/g, "");
}

const QUOTES = `"'“”‘’«»`;

/** Whether the marker at `at` directly follows a quote mark (a quotation, not an answer). */
function quoted(text: string, at: number): boolean {
  const before = text.slice(Math.max(0, at - 40), at).trimEnd().at(-1) ?? "";
  return before !== "" && QUOTES.includes(before);
}

/** The rest of the line after `from`, or the next non-empty line. */
function lineAfter(text: string, from: number): string {
  const line = /\S[^\n]*/.exec(text.slice(from));
  return line === null ? "" : line[0].trim();
}

function firstLineOf(text: string): string {
  const eol = text.indexOf("\n");
  return eol < 0 ? text : text.slice(0, eol);
}

/**
 * What follows a final-answer marker: a `"""`-quoted or fenced block, else the rest of the
 * line, else the next lines up to a blank line.
 */
function blockAfter(text: string, from: number): string {
  const rest = text.slice(from);
  const open = /^\s*("""|'''|```)/.exec(rest);
  if (open) {
    const quote = open[1];
    let body = rest.slice(open[0].length);
    const firstLine = firstLineOf(body);
    // a fence's opening line is its info string (```json), unless the fence closes on it
    if (quote === "```" && !firstLine.includes(quote)) body = body.slice(firstLine.length);
    const end = body.indexOf(quote);
    return (end < 0 ? body : body.slice(0, end)).trim();
  }
  const sameLine = firstLineOf(rest).trim();
  if (sameLine !== "") return sameLine;
  const para = /^[ \t]*\n(?:[ \t]*\n)*((?:[ \t]*\S[^\n]*(?:\n|$))+)/.exec(rest);
  return para ? para[1].trim() : "";
}

/**
 * The answer cues in languages besides English, as regular-expression sources (any case):
 * `final` opens a final answer (`final-answer`, before a colon), `answer` an answer line
 * (`answer-line`, before a colon), `is` states it (`answer-is`). docs/scorers.md shows each
 * language with an example, and a test runs every row.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(Object.keys(LANGUAGE_CUES), ["es", "fr", "de", "pt", "it", "zh", "ja"]);
 * ```
 */
export const LANGUAGE_CUES: Readonly<
  Record<string, { final: string; answer: string; is: string }>
> = {
  es: {
    final: "respuesta\\s+final",
    answer: "respuesta",
    is: "la\\s+respuesta\\s+(?:correcta\\s+)?es",
  },
  fr: {
    final: "réponse\\s+finale",
    answer: "réponse",
    is: "la\\s+(?:bonne\\s+)?réponse\\s+est",
  },
  de: {
    final: "(?:endgültige|finale)\\s+antwort",
    answer: "antwort",
    is: "die\\s+(?:richtige\\s+)?antwort\\s+(?:ist|lautet)",
  },
  pt: {
    final: "resposta\\s+final",
    answer: "resposta",
    is: "a\\s+resposta\\s+(?:correta\\s+)?é",
  },
  it: {
    final: "risposta\\s+finale",
    answer: "risposta",
    is: "la\\s+risposta\\s+(?:corretta\\s+)?è",
  },
  zh: { final: "最终答案|最終答案", answer: "答案", is: "答案是|答案为|答案為" },
  ja: { final: "最終的な答え|最終回答", answer: "答え|回答", is: "答えは" },
};

/** Scripts without spaces between words: their cues may follow a letter directly. */
const UNSPACED = new Set(["zh", "ja"]);

/** The alternatives of one kind of cue, for languages with and without word spacing. */
function cueSources(kind: "final" | "answer" | "is", english: string): [string, string] {
  const of = (spaced: boolean) =>
    Object.entries(LANGUAGE_CUES).filter(([l]) => UNSPACED.has(l) !== spaced).map(([, c]) =>
      c[kind]
    );
  return [[english, ...of(true)].join("|"), of(false).join("|")];
}

/** A text marker's regex: a spaced-language cue starts a word, an unspaced one anywhere. */
function cueRegex(kind: "final" | "answer" | "is", english: string, after: string): RegExp {
  const [spaced, unspaced] = cueSources(kind, english);
  return new RegExp(`(?:(?<![\\p{L}])(?:${spaced})|(?:${unspaced}))${after}`, "gimu");
}

/** Text markers: regex, convention, and how the answer after it is read. */
const TEXT_MARKERS: readonly [RegExp, AnswerConvention, (t: string, from: number) => string][] = [
  [cueRegex("final", "final[ \\t]+answer", "[ \\t]*:"), "final-answer", blockAfter],
  [/^[ \t>#*]*final[ \t]+answer[ \t*]*$/gim, "final-answer", blockAfter],
  [
    cueRegex("answer", "(?<!(?:^|[^\\p{L}])final[ \\t]+)answer", "[ \\t]*:"),
    "answer-line",
    lineAfter,
  ],
  [
    cueRegex(
      "is",
      "(?:the|my|our)\\s+(?:final\\s+|correct\\s+|right\\s+|best\\s+)?answer\\s+" +
        "(?:is|would\\s+be|should\\s+be)",
      "\\s*:?",
    ),
    "answer-is",
    lineAfter,
  ],
];

function textMarkers(text: string): Marker[] {
  const out: Marker[] = [];
  for (const [re, convention, read] of TEXT_MARKERS) {
    for (const m of text.matchAll(re)) {
      if (quoted(text, m.index)) continue;
      out.push({ at: m.index, text: read(text, m.index + m[0].length), convention });
    }
  }
  return out;
}

function answerTags(text: string): Marker[] {
  const out: Marker[] = [];
  const re = /<answer>([\s\S]*?)(?:<\/answer>|$)/gi;
  for (const m of text.matchAll(re)) {
    out.push({ at: m.index, text: m[1].trim(), convention: "answer-tag" });
  }
  return out;
}

/** `\boxed{…}` and `\fbox{…}` with balanced braces (unbalanced: not an answer). */
function boxes(text: string): Marker[] {
  const out: Marker[] = [];
  for (const m of text.matchAll(/\\?(?:boxed|fbox)\s*\{/g)) {
    let depth = 1, i = m.index + m[0].length;
    for (; i < text.length && depth > 0; i++) {
      if (text[i] === "{") depth++;
      else if (text[i] === "}") depth--;
    }
    if (depth === 0) {
      out.push({
        at: m.index,
        text: text.slice(m.index + m[0].length, i - 1),
        convention: "boxed",
      });
    }
  }
  return out;
}

/** A number, maybe with currency, thousands commas, %, or one unit word. */
const HASH_ANSWER = /^[-−+]?[$€£]?\s*[-−]?\d[\d,.]*\s*(?:%|[\p{L}]+)?\.?$/u;

function hashMarkers(text: string): Marker[] {
  const out: Marker[] = [];
  for (const m of text.matchAll(/^[ \t]*####(?!#)[ \t]*([^\n]*)$/gm)) {
    const answer = m[1].trim();
    if (HASH_ANSWER.test(answer)) {
      out.push({ at: m.index, text: answer, convention: "hash-marker" });
    }
  }
  return out;
}

/** The value of an answer key of a parsed JSON value, as text (null: none). */
function jsonAnswer(value: unknown): string | null {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return null;
  const key = Object.keys(value).find((k) => /^(?:final[_ ]?)?answer$/i.test(k));
  const v = key === undefined ? undefined : (value as Record<string, unknown>)[key];
  if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") return String(v);
  if (Array.isArray(v) && v.every((x) => ["string", "number", "boolean"].includes(typeof x))) {
    return v.join(", ");
  }
  return null;
}

function tryJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}

/**
 * How far back from the end, and from how many `{`, a trailing JSON object is looked for (a
 * short answer object; bounded so that a response ending in code stays cheap).
 */
const JSON_TAIL = 4000, JSON_TRIES = 64;

/**
 * A trailing JSON object with an answer key: the whole response (or its fenced body), else the
 * last object that ends the response (within {@link JSON_TAIL} characters).
 */
function trailingJson(text: string): Marker[] {
  const end = text.trimEnd();
  let body = end, offset = 0;
  if (end.endsWith("```")) {
    const open = end.lastIndexOf("```", end.length - 4);
    if (open < 0) return [];
    offset = end.indexOf("\n", open) + 1;
    if (offset === 0) return [];
    body = end.slice(offset, end.length - 3).trimEnd();
  }
  if (!body.endsWith("}")) return [];
  const found = (i: number, answer: string): Marker[] => [
    { at: offset + i, text: answer, convention: "json-answer" },
  ];
  const start = body.search(/\S/);
  const whole = body[start] === "{" ? jsonAnswer(tryJson(body)) : null;
  if (whole !== null) return found(start, whole);
  let i = body.lastIndexOf("{");
  for (let tries = 0; i >= 0 && i >= body.length - JSON_TAIL && tries < JSON_TRIES; tries++) {
    const answer = jsonAnswer(tryJson(body.slice(i)));
    if (answer !== null) return found(i, answer);
    i = i === 0 ? -1 : body.lastIndexOf("{", i - 1);
  }
  return [];
}

/** The explicit markers and cues of a visible text, unordered. */
function markers(text: string): Marker[] {
  return [
    ...textMarkers(text),
    ...answerTags(text),
    ...boxes(text),
    ...hashMarkers(text),
    ...trailingJson(text),
  ];
}

/** The last marker of the strongest tier present, or null. */
function strongest(found: readonly Marker[]): Marker | null {
  const last = (ms: readonly Marker[]) =>
    ms.reduce<Marker | null>((a, m) => (a && a.at > m.at ? a : m), null);
  const explicit = found.filter((m) => EXPLICIT_CONVENTIONS.includes(m.convention));
  return last(explicit) ?? last(found);
}

/** A cue that opens a text ("The final answer is …", "So the answer is …"). */
function opensText(text: string, m: Marker): boolean {
  return /^\s*(?:so|thus|therefore|hence)?[\s,]*$/i.test(text.slice(0, m.at));
}

/**
 * An explicit marker's text, or what it holds: an explicit marker anywhere inside it
 * (`Final Answer: \boxed{2}`), or a cue that opens it (`Final Answer: The final answer is 2`).
 */
function innermost(m: Marker, depth: number): string {
  if (depth > 3 || !EXPLICIT_CONVENTIONS.includes(m.convention)) return m.text;
  const inside = markers(m.text).filter((i) =>
    EXPLICIT_CONVENTIONS.includes(i.convention) || opensText(m.text, i)
  );
  const inner = strongest(inside);
  return inner === null || inner.text === "" ? m.text : innermost(inner, depth + 1);
}

/** Markup dropped, trimmed, one sentence-ending "." (or "。") removed. */
function tidy(text: string): string {
  return dropMarkup(text).trim().replace(/[.。]$/, "").trim();
}

/**
 * Fullwidth ASCII forms (`（D）`, `Ｄ`) as ASCII, the fullwidth colon as a colon and a space
 * (it separates without one), the ideographic space as a space: CJK text writes cues and
 * letters that way. Nothing else is touched (NFKC would also rewrite modifier letters such as
 * `ʷ` in an answer).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(halfwidth("答案：（Ｄ）"), "答案: (D)");
 * assert.equal(halfwidth("kʷe"), "kʷe");
 * ```
 */
export function halfwidth(text: string): string {
  return text.replaceAll("\uff1a", ": ")
    .replace(/[\uff01-\uff5e]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
    .replaceAll("\u3000", " ");
}

/**
 * `Label: value` with a label of one to four words (letters only, at most 30 characters) and
 * a space after the colon (`de:wajna` is a word, not a label).
 */
const LABEL_LINE =
  /^([\p{L}][\p{L}\p{M}'’-]*(?:[ \t]+[\p{L}][\p{L}\p{M}'’-]*){0,3})[ \t]*:[ \t]+(\S.*)$/u;

/**
 * A response's answer without any marker: the value of a last line `Label: value`
 * (`label-line`), else the last line (`last-line`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(unmarked("Result: **a b**."), { text: "a b", convention: "label-line" });
 * ```
 */
export function unmarked(lastLine: string): FoundAnswer {
  const label = LABEL_LINE.exec(lastLine);
  if (label && label[1].length <= 30) {
    const value = tidy(label[2]);
    if (value !== "") return { text: value, convention: "label-line" };
  }
  return { text: tidy(lastLine), convention: "last-line" };
}

/**
 * The final answer of a response and the convention that marks it (see the module doc for
 * the conventions and their precedence); null when the visible text is blank or the last
 * marker holds nothing. A response without any marker gives its last non-empty line
 * (`last-line`): callers that need a marker check the convention.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(findFinalAnswer("So the answer is (B)."), { text: "(B)", convention: "answer-is" });
 * assert.deepEqual(findFinalAnswer("x = \\boxed{\\frac{1}{2}}"), { text: "\\frac{1}{2}", convention: "boxed" });
 * // an explicit marker beats a later cue inside the explanation
 * const r = "FINAL ANSWER: (D) kite\nWhy: if the answer is (A), the shape is open.";
 * assert.deepEqual(findFinalAnswer(r), { text: "(D) kite", convention: "final-answer" });
 * assert.deepEqual(findFinalAnswer('{"reasoning": "…", "answer": "B"}'), { text: "B", convention: "json-answer" });
 * assert.deepEqual(findFinalAnswer("thinking…\n\n(C)\n"), { text: "(C)", convention: "last-line" });
 * assert.deepEqual(findFinalAnswer("Let me weigh it.\nVerdict: Ambiguous"), {
 *   text: "Ambiguous",
 *   convention: "label-line",
 * });
 * assert.deepEqual(findFinalAnswer("分析如下。\n答案：（D）"), { text: "(D)", convention: "answer-line" });
 * assert.equal(findFinalAnswer("<think>(A)</think>"), null);
 * ```
 */
export function findFinalAnswer(response: string): FoundAnswer | null {
  const visible = visibleText(response);
  const m = strongest(markers(visible));
  if (m === null) {
    const [last] = nonEmptyLines(visible, 1);
    return last === undefined ? null : unmarked(last);
  }
  const text = tidy(innermost(m, 0));
  return text === "" ? null : { text, convention: m.convention };
}

/** The text the conventions are looked for in: reasoning hidden, bold dropped, sign-offs cut. */
function visibleText(response: string): string {
  return withoutSignOff(halfwidth(hideThinking(response)).replace(/\*\*|__/g, ""));
}

/**
 * A response's last `lines` non-empty lines as {@link findFinalAnswer} sees them (reasoning
 * hidden, bold dropped, sign-offs cut), trimmed, the last first: for a rule that finds no
 * marker and whose last line is no answer (a remark after it) but may look a line up for a
 * `Label: value` line ({@link unmarked} reads each).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(lastLines("The result is: apple pear\nSorted by first letter.\n\n", 2), [
 *   "Sorted by first letter.",
 *   "The result is: apple pear",
 * ]);
 * ```
 */
export function lastLines(response: string, lines: number): string[] {
  return nonEmptyLines(visibleText(response), lines);
}

function nonEmptyLines(visible: string, lines: number): string[] {
  return visible.split("\n").map((l) => l.trim()).filter((l) => l !== "").slice(-lines).reverse();
}

/**
 * A chat sign-off: a line of courtesy a chat model ends with after its answer ("Hope this
 * helps!", "Let me know if you need anything else!", "Feel free to ask …", "Good luck!"). It is
 * never the answer, and it hides one: the last line, a trailing JSON object.
 */
const SIGN_OFF = new RegExp(
  "^[\\s*_>-]*(?:" + [
    "(?:i\\s+)?hope\\s+(?:this|that|it)\\s+(?:helps|is\\s+helpful|clarifies)",
    "let\\s+me\\s+know\\s+if",
    "feel\\s+free\\s+to",
    "(?:i'?m\\s+|i\\s+am\\s+)?(?:happy|glad)\\s+to\\s+help",
    "glad\\s+i\\s+could\\s+help",
    "good\\s+luck",
    "have\\s+a\\s+(?:great|nice|good|wonderful)\\s+(?:day|one|evening|week)",
    "is\\s+there\\s+anything\\s+else",
    "if\\s+you\\s+have\\s+any\\s+(?:more\\s+|other\\s+|further\\s+)?questions",
    "(?:thank\\s+you|thanks)(?:\\s+for\\s+(?:asking|the\\s+question))?[.!]*$",
  ].join("|") + ")",
  "i",
);
/** A longer line is text of its own, not a sign-off. */
const SIGN_OFF_MAX = 160;

/**
 * The text without the chat sign-offs it ends with (each a whole line, {@link SIGN_OFF}), as
 * long as something is left before them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(withoutSignOff("The result is: a b\nHope this helps!\n"), "The result is: a b");
 * assert.equal(withoutSignOff("Good luck!"), "Good luck!"); // nothing else: kept
 * ```
 */
export function withoutSignOff(text: string): string {
  const lines = text.trimEnd().split("\n");
  const isSignOff = (l: string) => l.trim().length <= SIGN_OFF_MAX && SIGN_OFF.test(l.trim());
  let end = lines.length;
  while (end > 1 && isSignOff(lines[end - 1])) {
    end--;
    while (end > 1 && lines[end - 1].trim() === "") end--;
  }
  const kept = lines.slice(0, end);
  return end === lines.length || kept.join("").trim() === "" ? text : kept.join("\n");
}
