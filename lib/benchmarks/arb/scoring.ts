/**
 * ARB's scoring part, polars-free (the scoring Workers import it by URL): how its records are
 * read and tied, and its scorer. ARB's problems are served by its authors through an API, not
 * released as files, so its rows carry their own problem: they are tied by id
 * (`identity: "id"`), and a file whose first records carry `subject` and `answer_type` is an
 * ARB log. The fields and their other names:
 *
 * | field | is | read as |
 * | --- | --- | --- |
 * | `id` | the problem id | `example_id` |
 * | `subject` | mathematics, physics, law, MCAT reading or science | the task |
 * | `answer_type` | multiple choice, numerical, symbolic, proof-like (`(w/ image)`) | `subset` |
 * | `reference` | the reference answer (a proof may have none) | the target |
 * | `question` | the problem text | the input |
 * | `correct` | a stored verdict | a flag |
 * | `choices`, `image`, `rubric`, `human_score`, `model_score`, the Table 3 and 4 annotations | | |
 *
 * The one scorer, `arb`, scores a row by its answer type (`score.ts`) and names the deciding
 * rule (`arb-mcq`, `arb-numerical`, `arb-symbolic`, `arb-proof`) in the row's `scorer`; the
 * status and detail of its verdict go to the row's `extra`. Symbolic answers need the
 * computer-algebra library, ~0.15 s to load: it is loaded by {@link prepareArbScoring}, which
 * the scoring state awaits (`BenchmarkScoring.prepare`), so that reading the registry costs
 * nothing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { prepareArbScoring, scoring } from "@runlens/benchmarks/arb/scoring.ts";
 * await prepareArbScoring();
 * const [arb] = scoring.scorers;
 * const v = arb.score("… ANSWER: 2.41 m", "2.4", { task: "physics", subset: "numerical" });
 * assert.deepEqual(v, {
 *   extracted: "2.41 m",
 *   correct: true,
 *   found: true,
 *   rule: "arb-numerical",
 *   extra: {
 *     subject: "physics",
 *     answer_type: "numerical",
 *     image: false,
 *     status: "scored",
 *     detail: "relative error 0.00417",
 *   },
 * });
 * assert.equal(scoring.targetOptional!("proof-like"), true); // a proof may have no reference
 * ```
 * @module
 */
import type { BenchmarkScoring, RecordField } from "../types.ts";
import { type ScalarScorer, UnscorableRow, type Verdict } from "../../scorers/types.ts";
import { quoteValue } from "../../logs/quarantine.ts";
import {
  ARB_ERROR_FLAGS,
  ARB_RUBRIC_FLAGS,
  ARB_RUBRIC_LIKERT,
  ARB_SUBJECTS,
  normalizeAnswerType,
  normalizeSubject,
  readChoices,
  readFlag,
  readNumber,
  readText,
} from "./fields.ts";

/** `score.ts` (and the computer algebra it loads), once {@link prepareArbScoring} ran. */
let scoreModule: typeof import("./score.ts") | null = null;

/**
 * Load the scoring rules and the computer algebra they use (once per process or Worker).
 *
 * @example
 * ```ts
 * await prepareArbScoring(); // a second call costs nothing
 * ```
 */
export async function prepareArbScoring(): Promise<void> {
  scoreModule ??= await import("./score.ts");
}

/**
 * The answer-type label of a log value, normalised: the type (`multiple-choice`, `numerical`,
 * `symbolic`, `proof-like`), with ` (w/ image)` when the value names an image; throws the
 * quarantine reason for a value that names no type.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(answerTypeLabel("Numerical (w/ image)"), "numerical (w/ image)");
 * assert.equal(answerTypeLabel("mcq"), "multiple-choice");
 * assert.throws(() => answerTypeLabel("essay"), /unknown answer_type "essay"/);
 * ```
 */
export function answerTypeLabel(value: unknown): string {
  const { answerType, image } = normalizeAnswerType(readText(value) ?? "");
  return image ? `${answerType} (w/ image)` : answerType;
}

const flag = (name: string): RecordField => ({ name, parse: (v) => readFlag(name, v) });
const number = (name: string): RecordField => ({ name, parse: (v) => readNumber(name, v) });

/** ARB's record fields (see the module doc), each a `--map` key. */
export const ARB_RECORD_FIELDS: readonly RecordField[] = [
  { name: "id", as: "example_id" },
  { name: "subject", as: "task" },
  { name: "answer_type", as: "subset", parse: answerTypeLabel },
  { name: "reference", as: "target" },
  { name: "question", as: "input" },
  flag("correct"),
  { name: "choices", parse: readChoices },
  flag("image"),
  { name: "rubric", parse: readText },
  number("human_score"),
  number("model_score"),
  ...ARB_ERROR_FLAGS.map(flag),
  ...ARB_RUBRIC_LIKERT.map(number),
  ...ARB_RUBRIC_FLAGS.map(flag),
];

/** A verdict's error, with the reference quoted (`reference "n/a" is not a number`). */
function quotedReference(e: Error): string {
  return e.message.replace(/reference (.*) is/, (_, r) => `reference ${quoteValue(r)} is`);
}

/** Score one ARB row by its answer type (`ctx.subset`), see the module doc. */
function scoreArb(
  response: string,
  target: string,
  ctx: Parameters<ScalarScorer["score"]>[2] = {},
): Verdict {
  if (scoreModule === null) {
    // the load prepares ARB for files whose records carry subject and answer_type, or when
    // --benchmark names it (pipeline/engine.ts preparedFor): a row found otherwise says so
    throw new UnscorableRow(
      "an ARB row in a file not recognised as ARB's (no subject and answer_type fields): " +
        "pass --benchmark arb",
    );
  }
  if (ctx.subset == null) throw new UnscorableRow("missing answer_type");
  const { answerType, image } = normalizeAnswerType(ctx.subset);
  const fields = ctx.fields ?? {};
  let v;
  try {
    v = scoreModule.scoreArbResponse(answerType, target, response, {
      choices: (fields.choices as string[] | null | undefined) ?? null,
    });
  } catch (e) {
    throw new UnscorableRow(quotedReference(e as Error));
  }
  return {
    extracted: v.extracted,
    correct: v.correct,
    found: scoreModule.arbAnswerFound(v.status),
    rule: v.scorer,
    extra: {
      subject: ctx.task ?? null,
      answer_type: answerType,
      image: (fields.image as boolean | null | undefined) ?? image,
      status: v.status,
      detail: v.detail,
    },
  };
}

/** The ARB scorer: each row by the rule of its answer type. */
export const arbScorer: ScalarScorer = {
  name: "arb",
  description: "ARB's rules by answer type, as in its paper (arXiv:2307.13692): the choice " +
    "letter after ANSWER: (multiple choice), the number within 1% relative error (numerical), " +
    "equivalence by computer algebra, undecided left to a manual check (symbolic); proofs are " +
    "not auto-scored. The row's scorer names the rule that decided.",
  source: "lib/benchmarks/arb/score.ts; ARB paper §4 (arXiv:2307.13692)",
  benchmarks: ["arb"],
  needs: ["task", "subset", "fields"],
  score: scoreArb,
};

/** ARB's scoring part. */
export const scoring: BenchmarkScoring = {
  name: "arb",
  label: "ARB",
  tasks: ARB_SUBJECTS.map((name) => ({ name, size: null })),
  canonicalTask: (label) => {
    try {
      return normalizeSubject(label);
    } catch {
      return null;
    }
  },
  readExamples: () => ({}),
  identity: "id",
  recordFields: ARB_RECORD_FIELDS,
  recordSignature: ["subject", "answer_type"],
  nullVerdict: "row",
  targetOptional: (subset) => subset?.startsWith("proof-like") === true,
  prepare: prepareArbScoring,
  defaultScorer: "arb",
  scorers: [arbScorer],
};
