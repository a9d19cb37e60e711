/**
 * Conformance of the BBEH official scorer port (lib/benchmarks/bbeh/scorer.ts) with the official rules.
 *
 * `fixtures/bbeh_scorer_cases.json` is a hand-written table of responses, targets and the
 * verdict the rules in the project notes ("Official scoring rules", "Observed verdicts") give,
 * each with the rule that decides it and a one-sentence reason. Three implementations are held
 * to it: the scalar port {@link bbehOfficial}, the same through `scoreFrame` (frame columns,
 * row order) as the `bbeh-official` scorer, and the independent Python reference `reference/bbeh_rules.py`, which runs on Python's own
 * `strip()`/`lower()`/`float()`. Outside CI a missing Python skips the reference test; with
 * `CI=true` it is a failure.
 *
 * @module
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import pl from "nodejs-polars";
import { bbehOfficial } from "@runlens/benchmarks/bbeh/scorer.ts";
import { bbehOfficialScorer } from "@runlens/benchmarks/bbeh/official_scorer.ts";
import { scoreFrame } from "@runlens/scorers/frame.ts";

/** One row of the conformance table. */
interface ScorerCase {
  id: string;
  response: string;
  target: string;
  correct: boolean;
  rule: string;
  reason: string;
}

/** What the Python reference prints per case. */
interface ReferenceVerdict {
  id: string;
  extracted: string;
  target: string;
  correct: boolean;
}

/**
 * The documented rule names a case may give as the one that decides it. Pipeline steps
 * (prefix, whitespace, LaTeX, case, line) and match rules (exact … no-match) both appear.
 */
const RULES: Record<string, string> = {
  "exact": "match rule 1: equal strings after normalisation",
  "paren-letter-pred": "match rule 2: prediction is exactly 3 chars `(x)`, x == target decides",
  "paren-letter-target": "match rule 2: target is exactly 3 chars `(x)`, x == prediction decides",
  "paren-four-chars": "rule 2 does not fire: `(…)` with other than 3 code points",
  "float-equal": "match rule 3: both parse as Python floats and are equal",
  "float-reject": "rule 3 does not fire: Python float() raises on one side",
  "float-nan": "rule 3: nan never equals anything",
  "float-inf": "rule 3: inf/infinity spellings, signs and overflow to inf",
  "float-underscore": "rule 3: underscores only between digits",
  "float-unicode-digits": "rule 3: float() accepts any Unicode decimal digit (Nd)",
  "float-whitespace":
    "rule 3: float() accepts surrounding ASCII/non-ASCII whitespace, not \\x1c-\\x1f",
  "quote-single": "match rule 4: equal after deleting ' from both",
  "quote-double": "rule 4 deletes only ', never \"",
  "quote-curly": "rule 4 deletes only ASCII ', not typographic quotes or backticks",
  "quote-bracket-no-compose": "rules 4 and 5 are separate; they are never combined",
  "bracket-pred": "match rule 5: prediction == [target]",
  "bracket-target": "match rule 5: target == [prediction]",
  "question-mark": "match rule 6: prediction ends with ? and equals the target without it",
  "no-match": "match rule 7: nothing fires",
  "prefix-answer-colon": "step 2: `The answer is:`",
  "prefix-final-space": "step 2: `The final answer is `",
  "prefix-final-colon": "step 2: `The final answer is: `",
  "prefix-answer-space": "step 2: `The answer is `",
  "prefix-cumulative": "step 2: the four prefix steps apply one after another",
  "prefix-order": "step 2: the prefixes are tried in their fixed order",
  "prefix-last-occurrence": "step 2: the text after the LAST occurrence is kept",
  "prefix-case-sensitive": "step 2: prefixes are matched case-sensitively",
  "prefix-none": "step 2: no prefix found, the whole response is kept",
  "prefix-at-end": "step 2: nothing follows the last prefix, empty prediction",
  "strip-whitespace": "step 1: surrounding ASCII whitespace is stripped",
  "strip-unicode-whitespace": "step 1: Python strip() removes Unicode whitespace too",
  "strip-non-whitespace": "step 1: characters Python does not call whitespace stay",
  "trailing-dot": "steps 3 and 5: one trailing . dropped before LaTeX, one after the line split",
  "target-dot": "the target keeps a trailing . (linguini quirk)",
  "latex-dollar": "step 3: a surrounding $…$ pair is removed once",
  "latex-boxed": "step 3: boxed{…} unwrapped when the text ends with }",
  "latex-boxed-twice": "step 3: split('boxed{')[1] keeps the text up to a second boxed{",
  "latex-text": "step 3: text{…} unwrapped",
  "latex-texttt": "step 3: texttt{…} unwrapped",
  "latex-order": "step 3: boxed{, then text{, then texttt{",
  "lowercase": "step 4: the prediction is lowercased",
  "lowercase-unicode": "step 4: Python lower() on non-ASCII (full mappings, no casefold)",
  "comma-space": "step 4 / target: ', ' becomes ','",
  "comma-stars-order": "step 4: ', ' replaced before ** is deleted",
  "stars": "step 4: every ** deleted",
  "first-line": "step 5: only the text before the first \\n is kept",
  "crlf": "step 5: \\r before \\n stays in the first line",
  "target-normalisation": "target: only strip, lower, ', ' → ','",
  "empty": "empty or whitespace-only responses and targets",
  "think-block": "<think> blocks are not removed",
  "multiple-choice": "answers that add option text to a letter",
};

const CASES: ScorerCase[] = JSON.parse(
  Deno.readTextFileSync(new URL("./fixtures/bbeh_scorer_cases.json", import.meta.url)),
);
const REFERENCE = fileURLToPath(new URL("./reference/bbeh_rules.py", import.meta.url));
const inCI = Deno.env.get("CI") === "true";

function describe(c: ScorerCase, got: unknown, extracted?: string): string {
  const ex = extracted === undefined ? "" : ` (extracted ${JSON.stringify(extracted)})`;
  return `${c.id} [${c.rule}]: expected ${c.correct}, got ${got}${ex}; ` +
    `response ${JSON.stringify(c.response)}, target ${JSON.stringify(c.target)} — ${c.reason}`;
}

function assertNoFailures(what: string, failures: string[]): void {
  assert.equal(
    failures.length,
    0,
    `${failures.length} case(s) where ${what} disagrees:\n${failures.join("\n")}`,
  );
}

/** A Python 3 interpreter, or null: `python3` on PATH, else /usr/bin/python3. */
function findPython(): string | null {
  for (const cmd of ["python3", "/usr/bin/python3"]) {
    try {
      const out = new Deno.Command(cmd, { args: ["--version"], stdout: "null", stderr: "null" })
        .outputSync();
      if (out.success) return cmd;
    } catch {
      // not installed under this name
    }
  }
  return null;
}

const PYTHON = findPython();
if (!PYTHON && !inCI) {
  console.warn("bbeh_scorer.test.ts: no python3 found, skipping the Python reference test");
}

Deno.test("conformance table: size, unique ids, documented rules, observed verdicts", () => {
  assert.ok(CASES.length >= 150, `only ${CASES.length} cases`);
  const ids = new Set<string>();
  for (const c of CASES) {
    assert.equal(typeof c.id, "string");
    assert.ok(!ids.has(c.id), `duplicate id ${c.id}`);
    ids.add(c.id);
    assert.equal(typeof c.response, "string", c.id);
    assert.equal(typeof c.target, "string", c.id);
    assert.equal(typeof c.correct, "boolean", c.id);
    assert.ok(c.reason.length > 0, `${c.id}: empty reason`);
    assert.ok(c.rule in RULES, `${c.id}: rule "${c.rule}" is not in the documented list`);
  }
  const used = new Set(CASES.map((c) => c.rule));
  const unused = Object.keys(RULES).filter((r) => !used.has(r));
  assert.deepEqual(unused, [], "documented rules without a case");
  assert.equal(CASES.filter((c) => c.id.startsWith("observed-")).length, 17);
  assert.ok(CASES.some((c) => c.correct) && CASES.some((c) => !c.correct));
});

Deno.test("scalar bbehOfficial gives every expected verdict", () => {
  const failures: string[] = [];
  for (const c of CASES) {
    const v = bbehOfficial(c.response, c.target);
    if (v.correct !== c.correct) failures.push(describe(c, v.correct, v.extracted));
  }
  assertNoFailures("bbehOfficial", failures);
});

Deno.test("scoreFrame with bbeh-official gives every expected verdict", () => {
  const df = pl.DataFrame({
    id: pl.Series("id", CASES.map((c) => c.id), pl.Utf8),
    response: pl.Series("response", CASES.map((c) => c.response), pl.Utf8),
    target: pl.Series("target", CASES.map((c) => c.target), pl.Utf8),
  });
  const out = scoreFrame(df.lazy(), bbehOfficialScorer);
  assert.deepEqual(out.getColumn("id").toArray(), CASES.map((c) => c.id), "row order kept");
  const correct = out.getColumn("correct").toArray() as (boolean | null)[];
  const extracted = out.getColumn("extracted").toArray() as (string | null)[];
  const failures: string[] = [];
  CASES.forEach((c, i) => {
    if (correct[i] !== c.correct) failures.push(describe(c, correct[i], extracted[i] ?? undefined));
  });
  assertNoFailures("scoreFrame(bbeh-official)", failures);
  // Same normalised prediction as the scalar form, row by row.
  const diff = CASES.flatMap((c, i) => {
    const scalar = bbehOfficial(c.response, c.target).extracted;
    return scalar === extracted[i]
      ? []
      : [`${c.id}: scalar ${JSON.stringify(scalar)}, frame ${JSON.stringify(extracted[i])}`];
  });
  assertNoFailures("the frame's `extracted` (vs scalar)", diff);
});

Deno.test({
  name: "Python reference (reference/bbeh_rules.py) gives every expected verdict",
  ignore: !PYTHON && !inCI,
  fn: async () => {
    if (!PYTHON) throw new Error("CI=true but no python3 (PATH or /usr/bin/python3) was found");
    const child = new Deno.Command(PYTHON, {
      args: ["-X", "utf8", REFERENCE],
      env: { PYTHONIOENCODING: "utf-8", PYTHONUTF8: "1" },
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(
      new TextEncoder().encode(
        JSON.stringify(CASES.map(({ id, response, target }) => ({ id, response, target }))),
      ),
    );
    await writer.close();
    const out = await child.output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.ok(out.success, `reference exited with ${out.code}: ${stderr}`);
    const verdicts: ReferenceVerdict[] = JSON.parse(new TextDecoder().decode(out.stdout));
    assert.equal(verdicts.length, CASES.length);
    const failures: string[] = [];
    const extractDiff: string[] = [];
    CASES.forEach((c, i) => {
      const v = verdicts[i];
      assert.equal(v.id, c.id);
      if (v.correct !== c.correct) failures.push(describe(c, v.correct, v.extracted));
      const port = bbehOfficial(c.response, c.target);
      if (port.extracted !== v.extracted || port.target !== v.target) {
        extractDiff.push(
          `${c.id}: port ${JSON.stringify([port.extracted, port.target])}, ` +
            `Python ${JSON.stringify([v.extracted, v.target])}`,
        );
      }
    });
    assertNoFailures("the Python reference", failures);
    assertNoFailures("the port's normalised prediction/target (vs Python)", extractDiff);
  },
});
