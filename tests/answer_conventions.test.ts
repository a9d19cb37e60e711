/**
 * The answer conventions (lib/scorers/answer_conventions.ts) and the typed matcher
 * (lib/scorers/answer_match.ts): every example of docs/scorers.md's two tables, each
 * convention's edges (hand-written, with reasons), and logs built at test time from the data
 * sets in every convention — GSM8K's own reference solutions, BBH and BBEH targets written in
 * each convention and in each answer form, right and wrong.
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  ANSWER_CONVENTIONS,
  type AnswerConvention,
  findFinalAnswer,
  LANGUAGE_CUES,
} from "@runlens/scorers/answer_conventions.ts";
import {
  type AnswerType,
  answerType,
  matchAnswer,
  parseOptions,
  readAnswer,
} from "@runlens/scorers/answer_match.ts";
import { lenient } from "@runlens/scorers/lenient.ts";
import { readBbhExamples } from "@runlens/benchmarks/bbh/examples.ts";
import { readBbehExamples } from "@runlens/benchmarks/bbeh/examples.ts";
import { dataTest } from "./_data.ts";

// --- docs/scorers.md -----------------------------------------------------------------------

const DOC = Deno.readTextFileSync(new URL("../docs/scorers.md", import.meta.url));

/** The cells of a markdown table row (`|` inside a cell is not used by the page). */
function cells(line: string): string[] {
  return line.trim().replace(/^\||\|$/g, "").split("|").map((c) => c.trim());
}

/** A code span's text, `\n` read as a line break; "—" (no answer) is null. */
function code(cell: string): string | null {
  if (cell === "—") return null;
  const m = /^(`+) ?(.*?) ?\1$/.exec(cell);
  assert.ok(m, `not a code span: ${cell}`);
  return m[2].replaceAll("\\n", "\n");
}

/** The body rows of the table whose header cells are `header` (deno fmt pads the cells). */
function tableRows(header: string): string[][] {
  const lines = DOC.split("\n");
  const at = lines.findIndex((l) => l.startsWith("|") && cells(l).join(" | ") === header);
  assert.ok(at >= 0, `docs/scorers.md: no table "${header}"`);
  const rows: string[][] = [];
  for (let i = at + 2; i < lines.length && lines[i].startsWith("|"); i++) {
    rows.push(cells(lines[i]));
  }
  return rows;
}

const DOC_OPTIONS = "Which shape?\nOptions: (A) circle (B) kite";

Deno.test("docs/scorers.md: every convention example gives the answer the table says", () => {
  const rows = tableRows("convention | example response | found");
  const seen = new Set<string>();
  for (const [conv, example, found] of rows) {
    const convention = code(conv) as AnswerConvention;
    seen.add(convention);
    assert.deepEqual(findFinalAnswer(code(example)!), { text: code(found), convention }, example);
  }
  assert.deepEqual([...ANSWER_CONVENTIONS].filter((c) => !seen.has(c)), [], "missing in docs");
});

Deno.test("docs/scorers.md: every language row gives the answer and convention it says", () => {
  const rows = tableRows("language | example response | found | convention");
  const seen = new Map<string, number>();
  for (const [language, example, found, convention] of rows) {
    const lang = code(language)!;
    seen.set(lang, (seen.get(lang) ?? 0) + 1);
    const want = { text: code(found), convention: code(convention) };
    assert.deepEqual(findFinalAnswer(code(example)!), want, example);
  }
  // every language the code knows is documented, with at least two of its cues
  for (const lang of Object.keys(LANGUAGE_CUES)) {
    assert.ok((seen.get(lang) ?? 0) >= 2, `docs/scorers.md: language ${lang}`);
  }
  assert.deepEqual([...seen.keys()].filter((l) => !(l in LANGUAGE_CUES)), []);
});

Deno.test("docs/scorers.md: every answer-type row reads and matches as the table says", () => {
  const rows = tableRows("type | target | answer | read as | match");
  const seen = new Set<string>();
  for (const [type, target, answer, readAs, match] of rows) {
    const t = code(target)!, a = code(answer)!;
    seen.add(code(type)!);
    assert.equal(answerType(t, DOC_OPTIONS), code(type), `${a} / ${t}`);
    assert.equal(readAnswer(a, t, DOC_OPTIONS), code(readAs), `${a} / ${t}`);
    assert.equal(matchAnswer(a, t, DOC_OPTIONS), match === "yes", `${a} / ${t}`);
    // lenient reads the same answer written as a response with a marker
    const v = lenient.score(`Reasoning.\nFINAL ANSWER: ${a}`, t, { input: DOC_OPTIONS });
    const readAsCode = code(readAs);
    assert.deepEqual(
      v,
      { extracted: readAsCode, correct: match === "yes", found: readAsCode !== null },
      `lenient ${a}`,
    );
  }
  const types: AnswerType[] = ["choice", "binary", "number", "words", "symbols"];
  assert.deepEqual(types.filter((t) => !seen.has(t)), [], "answer types missing in docs");
});

// --- each convention's edges ---------------------------------------------------------------

type Case = [
  response: string,
  found: string | null,
  convention: AnswerConvention | null,
  why: string,
];

const EDGES: Case[] = [
  // final-answer
  ['>> FINAL ANSWER:\n"""\n(B)', "(B)", "final-answer", "unclosed quoted block: to the end"],
  ["FINAL ANSWER:\n'''\nvalid\n'''", "valid", "final-answer", "''' quotes"],
  ["Final answer:\n```text\n(C)\n```", "(C)", "final-answer", "fence info string skipped"],
  ["Final answer: ```(C)```", "(C)", "final-answer", "fence on one line"],
  ["FINAL ANSWER\n(B)", "(B)", "final-answer", "a heading line without colon"],
  ["> **Final Answer:** (B). Because…", "(B). Because…", "final-answer", "quote mark, bold"],
  ["final   answer :  yes", "yes", "final-answer", "any case and spacing"],
  [
    "Final answer: (A)\n…on reflection…\nFinal answer: (B)",
    "(B)",
    "final-answer",
    "the last of several blocks",
  ],
  [
    "The answer is (A).\nFINAL ANSWER: (B)\nIf the answer is (C), check again.",
    "(B)",
    "final-answer",
    "ADVERSARIAL: explicit block beats cues before and after it",
  ],
  ["This is the semifinal answer: B", "B", "answer-line", "'semifinal' is not 'final'"],
  // answer-tag
  ["<ANSWER> 42 </ANSWER>", "42", "answer-tag", "tag case, spaces"],
  ["<answer>(A)</answer> no wait <answer>(B)</answer>", "(B)", "answer-tag", "the last tag"],
  ["reasoning\n<answer>\n(D)", "(D)", "answer-tag", "an unclosed last tag runs to the end"],
  ["<answer>\\boxed{7}</answer>", "7", "boxed", "the box inside the tag is the last marker"],
  // boxed
  ["\\boxed{\\dfrac{3}{4}}", "\\dfrac{3}{4}", "boxed", "nested braces kept whole"],
  ["\\boxed{a{b}c} then \\fbox{d}", "d", "boxed", "fbox, the last box"],
  ["\\boxed{unclosed (A)", "\\boxed{unclosed (A)", "last-line", "ADVERSARIAL: unbalanced: no box"],
  [
    "\\boxed{12} is the subtotal; so the answer is 15",
    "12",
    "boxed",
    "ADVERSARIAL (documented precedence): an explicit box beats a later cue",
  ],
  // hash-marker
  ["#### -7", "-7", "hash-marker", "negative number"],
  ["#### 1,234.5", "1,234.5", "hash-marker", "commas and decimals"],
  ["#### 18 dollars", "18 dollars", "hash-marker", "one unit word"],
  [
    "#### 1. Parse the input\nSo the answer is 4.",
    "4",
    "answer-is",
    "ADVERSARIAL: numbered heading",
  ],
  ["##### 18", "##### 18", "last-line", "five hashes are a heading"],
  ["The total is #### 18", "The total is #### 18", "last-line", "#### must start its line"],
  // json-answer
  ['{"final_answer": 3}', "3", "json-answer", "final_answer key, number value"],
  ['{"answer": ["x", "y"]}', "x, y", "json-answer", "array value"],
  ['Sure.\n{"steps": ["a {b}"], "Answer": "no"}', "no", "json-answer", "braces inside strings"],
  ['{"result": "B"}', '{"result": "B"}', "last-line", "no answer key"],
  ['{"answer": "B"}\nHope this helps!', "B", "json-answer", "a chat sign-off set aside"],
  ['{"answer": "B"}\nI checked it twice.', "I checked it twice", "last-line", "not trailing"],
  ["Good luck!", "Good luck!", "last-line", "a sign-off alone is the response"],
  ["(B)\nHope this helps!\n\nThanks!", "(B)", "last-line", "every trailing sign-off set aside"],
  [`{"reasoning": "${"x".repeat(5000)}", "answer": "C"}`, "C", "json-answer", "a long object"],
  ['{"answer": {"letter": "B"}}', '{"answer": {"letter": "B"}}', "last-line", "object value"],
  // answer-line
  ["Answer: (A)\nAnswer: (B)", "(B)", "answer-line", "the last cue"],
  ["ANSWER: 3.5", "3.5", "answer-line", "ARB's delimiter"],
  ["My answer:\n\n  (C)\n\nDone", "(C)", "answer-line", "empty rest: the next non-empty line"],
  ['Say "Answer: (A)" if unsure.', 'Say "Answer: (A)" if unsure', "last-line", "quoted cue"],
  // answer-is
  ["the answer is: apple banana", "apple banana", "answer-is", "BBEH prefix, lower case"],
  ["Our best answer is (B) I think. It fits.", "(B) I think. It fits", "answer-is", "to the eol"],
  ["The answer is (A).\nAnswer: (B)", "(B)", "answer-line", "the last cue of either kind"],
  ["<thinking>answer: (A)</thinking>", null, null, "only reasoning: nothing"],
  ["Answer:", null, null, "a cue with nothing after it: nothing"],
  // label-line
  ["Thinking.\nResult: proved", "proved", "label-line", "a one-word label"],
  ["Thinking.\nMy final verdict: Yes.", "Yes", "label-line", "three words, final '.' dropped"],
  ["Thinking.\nThe sorted list is: a b", "a b", "label-line", "four words"],
  ["Thinking.\n结论：是", "是", "label-line", "fullwidth colon, no space"],
  ["Thinking.\nde:wajna", "de:wajna", "last-line", "no space after the colon: a word"],
  ["Thinking.\nStep 3: add 4", "Step 3: add 4", "last-line", "a digit: not a label"],
  [
    "Thinking.\nAfter weighing every rule here: no",
    "After weighing every rule here: no",
    "last-line",
    "five words: a sentence, not a label",
  ],
  ["Verdict: (A)\nSo the answer is (B).", "(B)", "answer-is", "a cue beats any label"],
  // last-line
  ["first\n\n  last line  \n\n", "last line", "last-line", "trimmed, blank lines skipped"],
  ["$42$", "42", "last-line", "markup dropped"],
  ["", null, null, "empty"],
];

Deno.test("findFinalAnswer: each convention's edges", () => {
  const failures = EDGES.flatMap(([response, text, convention, why]) => {
    const got = findFinalAnswer(response);
    const want = text === null ? null : { text, convention };
    return JSON.stringify(got) === JSON.stringify(want)
      ? []
      : [`${JSON.stringify(response).slice(0, 80)} (${why}): ${JSON.stringify(got)}`];
  });
  assert.deepEqual(failures, []);
  for (const c of ANSWER_CONVENTIONS) {
    assert.ok(EDGES.some((e) => e[2] === c), `no edge case for ${c}`);
  }
});

// --- matching ------------------------------------------------------------------------------

Deno.test("parseOptions: one per line, one line, a question that mentions a letter first", () => {
  const lines = "Q?\nOptions:\n(A) red apple\n(B) blue\n(C) green";
  assert.deepEqual([...parseOptions(lines)], [["A", "red apple"], ["B", "blue"], ["C", "green"]]);
  const oneLine = "Who? Options: (A) Monsters, Inc (B) Earth, Wind & Fire (C) Up";
  assert.deepEqual([...parseOptions(oneLine)].map(([, t]) => t), [
    "Monsters, Inc",
    "Earth, Wind & Fire",
    "Up",
  ]);
  // "(A)" in the question does not start a list; the last run (A), (B) does
  const mention = "Is (A) wrong?\nOptions:\n(A) yes\n(B) no";
  assert.deepEqual([...parseOptions(mention)], [["A", "yes"], ["B", "no"]]);
  assert.equal(parseOptions("no options here").size, 0);
});

Deno.test("matchAnswer: numbers by value", () => {
  for (const a of ["1000", "1,000", "$1,000.00", "1000.0", " 1000 ", "1\u202f000", "= 1000"]) {
    assert.equal(matchAnswer(a, "1000"), true, a);
  }
  assert.equal(matchAnswer("-$5", "-5"), true);
  assert.equal(matchAnswer("3/4", "0.75"), true);
  assert.equal(matchAnswer("0.1 + 0.2 = 0.30000000000000004", "0.3"), true, "float noise");
  assert.equal(matchAnswer("1001", "1000"), false);
  assert.equal(matchAnswer("10 or 1000", "1000"), false, "two values: no answer");
  assert.equal(matchAnswer("1,000", "$1,000"), true, "a target with $ and commas");
  assert.equal(answerType("150, 2"), "words", "a list of numbers is not a number");
  assert.equal(matchAnswer("150,2", "150, 2"), true);
  assert.equal(matchAnswer("1502", "150, 2"), false);
});

Deno.test("matchAnswer: letters, options, words, symbols; readAnswer of off-type answers", () => {
  const hyperbaton = "Which order is right?\n(A) x\n(B) y\n(C) z\n(D) None of the above";
  assert.equal(answerType("C", hyperbaton), "choice", "BBEH hyperbaton: a bare letter target");
  assert.equal(matchAnswer("(C)", "C", hyperbaton), true);
  assert.equal(answerType("BC", hyperbaton), "words");
  assert.equal(matchAnswer("bc", "BC", hyperbaton), true);
  assert.equal(matchAnswer("None of the above", "(D)", hyperbaton), true);
  assert.equal(readAnswer("E", "(B)", hyperbaton), "E", "not an option: an answer, wrong");
  assert.equal(readAnswer("I do not know", "(B)", hyperbaton), null, "not one word");
  assert.equal(readAnswer("7", "No"), "7", "BBEH dyck: a number where the target is No");
  assert.equal(readAnswer("No", "7"), "No", "and No where the target is a number");
  assert.equal(matchAnswer("Ça marche", "ça marche"), true, "Unicode case");
  assert.equal(matchAnswer("[ ]", "[]"), true);
  assert.equal(matchAnswer("(]", "[]"), false);
  assert.equal(matchAnswer("", "apple"), false);
});

// --- logs built from the data sets ---------------------------------------------------------

/** The target's answer written in each convention (with a decoy inside the reasoning). */
function inEachConvention(answer: string, decoy: string): [AnswerConvention, string][] {
  const think = `Let me think. If the answer is ${decoy}, a step fails.\n`;
  return [
    ["final-answer", `${think}>> FINAL ANSWER:\n"""\n${answer}\n"""`],
    ["final-answer", `${think}**Final Answer:** ${answer}`],
    ["answer-tag", `${think}<answer>${answer}</answer>`],
    ["boxed", `${think}So we get $\\boxed{${answer}}$.`],
    ["json-answer", `${think}\`\`\`json\n${JSON.stringify({ answer })}\n\`\`\``],
    ["answer-line", `<think>Answer: ${decoy}</think>\nAnswer: ${answer}`],
    ["answer-is", `${think}So the answer is ${answer}`],
    ["last-line", `Thinking it over.\n${answer}`],
  ];
}

/** A wrong answer of the target's type. */
function wrongAnswer(target: string, input: string): string {
  switch (answerType(target, input)) {
    case "choice": {
      const letter = target.replace(/[()]/g, "").toUpperCase();
      return letter === "A" ? "(B)" : "(A)";
    }
    case "binary": {
      const pairs = [["yes", "no"], ["true", "false"], ["valid", "invalid"]];
      const pair = pairs.find((p) => p.includes(target.toLowerCase()))!;
      return pair.find((w) => w !== target.toLowerCase())!;
    }
    case "number":
      return String(Number(target) + 1);
    default:
      return `extra ${target}`;
  }
}

/** Every example's target in every convention: right answers right, wrong ones wrong, found. */
function checkConventions(examples: Record<string, readonly { input: string; target: string }[]>) {
  const failures: string[] = [];
  let checked = 0, skipped = 0;
  for (const [task, rows] of Object.entries(examples)) {
    for (const [i, { input, target }] of rows.entries()) {
      const wrong = wrongAnswer(target, input);
      const tries: [string, string, boolean][] = [[target, wrong, true], [wrong, target, false]];
      for (const [answer, decoy, right] of tries) {
        for (const [convention, response] of inEachConvention(answer, decoy)) {
          // a long unmarked line is reasoning; dyck braces would unbalance a box
          const long = convention === "last-line" && answer.length > 80;
          if (long || (convention === "boxed" && /[{}]/.test(answer))) {
            skipped++;
            continue;
          }
          const v = lenient.score(response, target, { input });
          checked++;
          if (v.correct !== right || v.extracted === null) {
            failures.push(
              `${task} ${i} ${convention} ${right ? "right" : "wrong"}: ${v.extracted}`,
            );
          }
        }
      }
    }
  }
  return { failures, checked, skipped };
}

dataTest("BBH: all 6,511 targets in every convention, right and wrong", (dir) => {
  const examples = readBbhExamples(dir);
  const all = Object.fromEntries(Object.keys(examples).map((t) => [t, examples[t]]));
  const { failures, checked, skipped } = checkConventions(all);
  assert.deepEqual(failures.slice(0, 20), []);
  assert.equal(checked + skipped, 6511 * 2 * 8);
  assert.ok(skipped < 1000, `${skipped} skipped`);
});

dataTest("BBEH: all 4,520 targets in every convention, right and wrong", (dir) => {
  const examples = readBbehExamples(dir);
  const all = Object.fromEntries(Object.keys(examples).map((t) => [t, examples[t]]));
  const { failures, checked, skipped } = checkConventions(all);
  assert.deepEqual(failures.slice(0, 20), []);
  assert.equal(checked + skipped, 4520 * 2 * 8);
  assert.ok(skipped < 1500, `${skipped} skipped`);
});

/** BBH multiple-choice examples answered by the option's text, or its letter and text. */
dataTest("BBH: choice answers written as the option's text, or letter and text", (dir) => {
  const examples = readBbhExamples(dir);
  const failures: string[] = [];
  let checked = 0;
  for (const task of Object.keys(examples)) {
    for (const [i, { input, target }] of examples[task].entries()) {
      if (answerType(target, input) !== "choice") continue;
      const options = parseOptions(input);
      const letter = target.replace(/[()]/g, "");
      const text = options.get(letter);
      assert.ok(text, `${task} ${i}: no option ${target} parsed`);
      // an option text that another option's text contains, or that repeats, names no option
      const clash = [...options].some(([l, t]) => l !== letter && t.includes(text!));
      for (const answer of [`(${letter}) ${text}`, ...(clash ? [] : [text!])]) {
        checked++;
        const v = lenient.score(`Reasoning.\nSo the answer is ${answer}.`, target, { input });
        if (!v.correct) failures.push(`${task} ${i}: ${answer} → ${v.extracted}`);
      }
    }
  }
  assert.deepEqual(failures.slice(0, 20), []);
  assert.ok(checked > 5000, String(checked));
});

dataTest("GSM8K: all 1,319 reference solutions end in #### N, and lenient reads N", (dir) => {
  const path = join(dir, "gsm8k/grade_school_math/data/test.jsonl");
  const rows = Deno.readTextFileSync(path).trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(rows.length, 1319);
  for (const { answer } of rows as { answer: string }[]) {
    const n = answer.split("#### ").at(-1)!.trim().replaceAll(",", "");
    assert.deepEqual(findFinalAnswer(answer)?.convention, "hash-marker", answer.slice(-60));
    assert.deepEqual(lenient.score(answer, n), {
      extracted: String(Number(n)),
      correct: true,
      found: true,
    });
    const grouped = Number(n).toLocaleString("en-US");
    const rewrites = [`She makes $${grouped}.\nThe answer is $${grouped}.`, `\\boxed{${grouped}}`];
    for (const r of rewrites) assert.equal(lenient.score(r, n).correct, true, r);
    assert.equal(lenient.score(answer, String(Number(n) + 1)).correct, false);
  }
});
