/**
 * GSM8K's scorers: `gsm8k-strict` and `gsm8k-flexible` against lm-evaluation-harness's rules
 * (gsm8k.yaml v3.0: the regex filters, `take_first`, `exact_match` with `ignore_case` and
 * `regexes_to_ignore: [",", "\\$", "(?s).*#### ", "\\.$"]`), worked out by hand case by case;
 * the default `gsm8k-number` (numbers as numbers); and all three on the data set's own 1,319
 * reference solutions.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  gsm8kFlexible,
  gsm8kNumber,
  gsm8kStrict,
  lmEvalGsm8kNormalize,
  readGsm8kExamples,
} from "@runlens/benchmarks/gsm8k/mod.ts";
import { getBenchmark } from "@runlens/benchmarks/registry.ts";
import type { Scorer } from "@runlens/scorers/types.ts";
import { dataTest } from "./_data.ts";
import { type Convention, CONVENTIONS, gsm8kProblems } from "./_gsm8k_logs.ts";
import { runProgram } from "./_cli.ts";
import { withTempDir } from "./_tmp.ts";

type Case = [response: string, target: string, extracted: string | null, correct: boolean];

function check(scorer: Scorer, cases: readonly Case[]) {
  for (const [response, target, extracted, correct] of cases) {
    const v = scorer.score(response, target);
    const found = extracted !== null && extracted !== "[invalid]";
    assert.deepEqual(
      v,
      { extracted, correct, found },
      `${scorer.name}: ${JSON.stringify(response)}`,
    );
  }
}

Deno.test("gsm8k-strict: the first '#### N', compared as lm-eval's exact_match does", () => {
  check(gsm8kStrict, [
    ["So 1000 in all.\n#### 1,000", "1000", "1,000", true], // "," ignored on both sides
    ["#### 1,000", "1,000", "1,000", true],
    ["#### $18.00", "18", "[invalid]", false], // "$" is not in [-0-9.,]
    ["#### 18.00", "18", "18.00", false], // a string compare: only a FINAL "." is ignored
    ["#### 18.\nDone.", "18", "18.", true],
    ["#### 1,000.", "1000", "1,000.", true],
    ["The answer is 18.", "18", "[invalid]", false],
    ["#### -5", "-5", "-5", true],
    ["#### -5", "5", "-5", false],
    ["#### 7\n#### 8", "8", "7", false], // take_first
    ["####18", "18", "[invalid]", false], // the space after #### is part of the pattern
    ["no number at all", "3", "[invalid]", false],
  ]);
});

Deno.test("gsm8k-flexible: the last number-like run, compared as lm-eval's exact_match does", () => {
  check(gsm8kFlexible, [
    ["#### 1,000", "1000", "1,000", true],
    ["She makes $18.00.", "18", "$18.00.", false], // "$", then the final "." go: "18.00"
    ["The answer is 18.", "18", "18.", true],
    ["It costs $5.", "5", "$5.", true], // one digit with "$" and "." is a run of three
    ["I have 3 apples and 5 pears", "5", "5", true], // a lone digit: the second group
    ["She owes -5 dollars", "-5", "-5", true],
    ["She owes -5 dollars", "5", "-5", false],
    ["Answer: 12, then stop", "12", "12,", true],
    ["The total is 5...", "5", "5...", false], // one final "." goes, two stay
    ["Total: 1,2,3", "3", "1,2,3", false], // one run: "123"
    ["no number at all", "3", "[invalid]", false],
  ]);
});

Deno.test("gsm8k-number: the marked final answer's first number, else the last; as numbers", () => {
  check(gsm8kNumber, [
    ["#### 1,000", "1000", "1,000", true],
    ["#### $18.00", "18", "18.00", true], // "$" is markup to the conventions: dropped
    ["**Final Answer:** 18\n\nNote: for 2 weeks.", "18", "18", true], // the note's 2 is not it
    ["Answer: 20\nCheck: 3 + 4 = 7", "20", "20", true],
    ["The answer is $\\boxed{18}$ (rounded to 2 decimals).", "18", "18", true],
    ["First the answer is 21. Wait: the answer is 18.", "18", "18", true], // the last cue
    ["So the answer is 5.\nFinal answer: 6 apples", "6", "6", true], // explicit beats a cue
    ["\\boxed{7}\nHmm, no.\n\\boxed{8}", "8", "8", true], // the last explicit marker
    ["Final answer: I cannot tell.\nIt took 3 steps.", "3", null, false], // marked, no number
    ["If the answer is odd, we stop.\n3 + 4 = 7", "7", "7", true], // a cue without a number: reasoning
    ["She makes $18.00.", "18", "$18.00", true],
    ["The answer is 18.", "18", "18", true],
    ["the final answer is: **-5**", "-5", "-5", true],
    ["The answer is -5.", "5", "-5", false],
    ["18.0", "18", "18.0", true],
    ["#### 7\n\nQuestion: Tom has 2 pens.\nAnswer: #### 9", "7", "7", true], // the first marker
    ["#### 1. Add: 16 + 2 = 18", "18", "18", true], // a heading, not a marker
    ["<think>the answer is 5</think>So the answer is 7", "7", "7", true],
    ["Total: 1,2,3", "3", "3", true],
    ["no number at all", "3", null, false],
  ]);
});

Deno.test("lm-eval's ignore-regexes: in order, '(?s).*#### ' up to the LAST marker", () => {
  assert.equal(lmEvalGsm8kNormalize("a #### b #### $1,5.\n"), "15\n");
  assert.equal(lmEvalGsm8kNormalize("X.Y."), "x.y");
});

dataTest(
  "GSM8K: the 1,319 reference solutions, as responses, are right under every rule",
  (dir) => {
    const examples = readGsm8kExamples(dir).gsm8k;
    const lines = Deno.readTextFileSync(join(dir, "gsm8k/grade_school_math/data/test.jsonl"))
      .trim().split("\n").map((l) => JSON.parse(l) as { question: string; answer: string });
    assert.equal(examples.length, 1319);
    assert.equal(new Set(examples.map((e) => e.input)).size, 1319); // no two questions alike
    const targets = examples.map((e) => e.target);
    assert.equal(targets.filter((t) => t.includes(",")).length, 14);
    assert.equal(targets.filter((t) => t.startsWith("-")).length, 2);
    lines.forEach(({ answer }, i) => {
      // lm-eval's gsm8k compares with the whole solution, gsm8k_cot with the number: the same
      assert.equal(lmEvalGsm8kNormalize(answer), lmEvalGsm8kNormalize(targets[i]), `#${i}`);
      for (const s of getBenchmark("gsm8k")!.scorers) {
        assert.deepEqual(s.score(answer, targets[i]).correct, true, `${s.name} #${i}`);
      }
    });
  },
);

/** Python 3 (stdlib only), or null. */
function python(): string | null {
  for (const cmd of ["python3", "/usr/bin/python3"]) {
    try {
      if (
        new Deno.Command(cmd, { args: ["-V"], stdout: "null", stderr: "null" }).outputSync().success
      ) return cmd;
    } catch {
      // not under this name
    }
  }
  return null;
}
const PYTHON = python();

dataTest(
  "gsm8k-strict/-flexible = lm-eval's rules run by Python, on every problem in eight conventions",
  async (dir) => {
    if (!PYTHON) {
      if (Deno.env.get("CI") === "true") throw new Error("CI=true but no python3 was found");
      return console.warn("gsm8k_scorers.test.ts: no python3, the lm-eval reference is skipped");
    }
    const problems = gsm8kProblems(dir);
    const odd = (
      t: string,
    ) => [`${t}...`, `**${t}**.\n`, `$ ${t}`, `#### ${t}.0`, `x #### ${t}, y`];
    const cases: [string, string, Convention | null][] = problems.flatMap((p, i) => [
      ...CONVENTIONS.map((c): [string, string, Convention] => [c.response(p.target), p.target, c]),
      [odd(p.target)[i % 5], i % 2 ? p.target : p.answer, null],
      [p.answer, p.target, null],
    ]);
    await withTempDir(async (tmp) => {
      const file = join(tmp, "cases.json");
      Deno.writeTextFileSync(file, JSON.stringify(cases.map(([r, t]) => [r, t])));
      const ref = await runProgram(PYTHON, [
        "-X",
        "utf8",
        "tests/reference/gsm8k_lm_eval.py",
        file,
      ]);
      assert.equal(ref.code, 0, ref.stderr);
      const lines = ref.stdout.trim().split("\n").map((l) => JSON.parse(l));
      assert.equal(lines.length, cases.length);
      cases.forEach(([response, target, convention], i) => {
        const [strict, strictOk, flexible, flexibleOk] = lines[i];
        const what = JSON.stringify([response, target]);
        assert.deepEqual(gsm8kStrict.score(response, target), {
          extracted: strict,
          correct: strictOk,
          found: strict !== "[invalid]",
        }, what);
        assert.deepEqual(gsm8kFlexible.score(response, target), {
          extracted: flexible,
          correct: flexibleOk,
          found: flexible !== "[invalid]",
        }, what);
        if (!convention) return; // the hand-made table of tests/_gsm8k_logs.ts agrees too
        assert.deepEqual(
          [convention.filtered.strict(target), convention.filtered.flexible(target)],
          [strict, flexible],
          what,
        );
        const outcome = (ok: boolean, out: string) =>
          ok ? "right" : out === "[invalid]" ? "none" : "wrong";
        assert.deepEqual(
          [convention.outcome["gsm8k-strict"], convention.outcome["gsm8k-flexible"]],
          [outcome(strictOk, strict), outcome(flexibleOk, flexible)],
          what,
        );
      });
    });
  },
);
