/**
 * The polars-free question-text rule (`question_key.ts`): its peeling normaliser gives exactly
 * what a regex of the rule gives (on every BBH and BBEH input, on prompts built from them, and
 * on random strings of cues, tails and whitespace): a JavaScript regex on short strings, and a
 * polars (Rust, linear-time) regex — the form the old polars read path ran — on everything.
 * @module
 */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { PY_WHITESPACE } from "@runlens/core/python.ts";
import {
  ANSWER_CUES,
  embeddedMatch,
  isEmbeddedKey,
  QUESTION_LEADS,
  questionKey,
  SPACERS,
  TEMPLATE_TAILS,
  truncatedKeyMatch,
} from "@runlens/pipeline/question_key.ts";
import { dataTest } from "./_data.ts";
import { readBbehExamples, readBbhExamples } from "./_examples.ts";

/** The regex form of the rule (what ran in JavaScript before the peeling). */
const WS = [...PY_WHITESPACE].map((c) => `\\u{${c.codePointAt(0)!.toString(16)}}`).join("");
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const TRAILING = new RegExp(
  `(?:[${WS}]+|${TEMPLATE_TAILS.map(escape).join("|")}|` +
    `(?:^|[${WS}])(?:${ANSWER_CUES.map(escape).join("|")}))*$`,
  "u",
);
const LEADING = new RegExp(`^[${WS}]+`, "u");
const regexKey = (text: string) => text.replace(LEADING, "").replace(TRAILING, "");

/** Python's whitespace (what `str.strip()` removes), as a Rust regex class body. */
const RUST_WS = "\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\x{1680}\\x{2000}-\\x{200a}" +
  "\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}";
const RUST_TRAILING = `(?:[${RUST_WS}]+|${TEMPLATE_TAILS.map(escape).join("|")}|` +
  `(?:^|[${RUST_WS}])(?:${ANSWER_CUES.map(escape).join("|")}))*$`;

/** The rule as a polars expression (Rust regex): the test's linear-time oracle. */
function questionKeyExpr(e: pl.Expr): pl.Expr {
  return e.str.replace(`^[${RUST_WS}]+`, "").str.replace(RUST_TRAILING, "");
}

/** `embeddedMatch` in polars, on already normalised columns. */
function embeddedExpr(loggedKey: pl.Expr, question: pl.Expr): pl.Expr {
  let ok = loggedKey.eq(question);
  for (const lead of QUESTION_LEADS) {
    for (const spacer of SPACERS) {
      ok = ok.or(loggedKey.str.endsWith(pl.concatString([pl.lit(lead + spacer), question], "")));
    }
  }
  return question.str.lengths().gt(0).and(ok);
}

/** A small deterministic PRNG (mulberry32). */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

Deno.test("no cue or tail ends with whitespace or is a suffix of another (peeling is deterministic)", () => {
  const tokens = [...TEMPLATE_TAILS, ...ANSWER_CUES];
  for (const a of tokens) {
    assert.ok(!PY_WHITESPACE.includes(a.at(-1)!), a);
    for (const b of tokens) if (a !== b) assert.ok(!a.endsWith(b), `${a} ends with ${b}`);
  }
});

Deno.test("questionKey (peeling) equals both regex forms on random cue/tail/whitespace strings", () => {
  const next = rng(7);
  const pieces = [
    ...TEMPLATE_TAILS,
    ...ANSWER_CUES,
    "A",
    ":",
    "DNA:",
    "x",
    "Q:",
    "Is it?",
    ..."\t\n \u00a0\u2028\u3000\x1c\x85",
  ];
  const texts: string[] = [];
  for (let i = 0; i < 20_000; i++) {
    const n = Math.floor(next() * 8);
    let s = "";
    for (let k = 0; k < n; k++) s += pieces[Math.floor(next() * pieces.length)];
    assert.equal(questionKey(s), regexKey(s), JSON.stringify(s));
    texts.push(s);
  }
  const polars = pl.DataFrame({ t: texts }).select(questionKeyExpr(pl.col("t")).alias("k"))
    .getColumn("k").toArray();
  assert.deepEqual(polars, texts.map(questionKey));
});

dataTest("questionKey equals the polars form on every BBH and BBEH input and prompts around them", (
  dir,
) => {
  // the polars regex (Rust, linear time) is the oracle here; the JavaScript regex above
  // backtracks for minutes on some long inputs (BBEH nycc), so it only checks short strings
  const texts: string[] = [];
  for (const set of [readBbhExamples(dir), readBbehExamples(dir)]) {
    for (const examples of Object.values(set)) {
      for (const e of examples) {
        texts.push(
          e.input,
          `Q: ${e.input}\nA: Let's think step by step.`,
          `<|im_start|>user\n${e.input}<|im_end|>\n<|im_start|>assistant\n`,
          `  ${e.input}\nAnswer:\n`,
        );
      }
    }
  }
  assert.equal(texts.length, 4 * 11_031);
  const polars = pl.DataFrame({ t: texts }).select(questionKeyExpr(pl.col("t")).alias("k"))
    .getColumn("k").toArray() as string[];
  const mismatches = texts.filter((t, i) => questionKey(t) !== polars[i]);
  assert.deepEqual(mismatches, []);
});

Deno.test("the scalar rule agrees with the polars form", () => {
  const q = "not ( True ) and ( True ) is";
  const cases: [string, string][] = [
    [`Q: a\nA: b\n\nQ: ${q}\nA:`, q],
    [`<|im_start|>user\n${q}<|im_end|>\n<|im_start|>assistant\n`, q],
    [`Q: ${q}\nA:`, "( True ) and ( True ) is"],
    [`Solve this: ${q}`, q],
    [`Question:\t${q}`, q],
    [`${q}  \n`, q],
    ["Q: \nA:", ""],
  ];
  const df = pl.DataFrame({ log: cases.map((c) => c[0]), ds: cases.map((c) => c[1]) });
  const keys = df.select(
    questionKeyExpr(pl.col("log")).alias("log"),
    questionKeyExpr(pl.col("ds")).alias("ds"),
    embeddedExpr(questionKeyExpr(pl.col("log")), questionKeyExpr(pl.col("ds"))).alias("ok"),
  );
  assert.deepEqual(keys.getColumn("log").toArray(), cases.map((c) => questionKey(c[0])));
  assert.deepEqual(keys.getColumn("ok").toArray(), cases.map(([l, d]) => embeddedMatch(l, d)));
  assert.deepEqual(
    cases.map(([l, d]) => isEmbeddedKey(questionKey(l), questionKey(d))),
    [true, true, false, false, true, true, false],
  );
});

Deno.test("truncatedKeyMatch: the cut question starts the last question, or the whole text", () => {
  const cut = "Which statement is sarcastic?\nOptions:\n(A) The NB";
  const whole = "Which statement is sarcastic?\nOptions:\n(A) The NBA: great\n(B) The NBA: awful";
  assert.ok(truncatedKeyMatch(whole, cut));
  assert.ok(truncatedKeyMatch(`Q: one?\nA: yes\n\nQ: ${whole}`, cut));
  assert.ok(truncatedKeyMatch(`<|user|>\n${whole}`, cut));
  assert.ok(!truncatedKeyMatch(`Q: ${whole}\nA: (A)\n\nQ: next?`, cut)); // not the last one
  assert.ok(!truncatedKeyMatch(`Tell me: ${whole}`, cut)); // mid-line
  assert.ok(!truncatedKeyMatch(whole, ""));
});
