/**
 * The fields of an ARB-style run log and how their values are read: the normalisation of
 * subjects, answer types, flags and scores (the record fields' `parse`, `scoring.ts`). Every reader returns a value or throws an Error whose message is the quarantine
 * reason.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { normalizeAnswerType, normalizeSubject } from "@runlens/benchmarks/arb/fields.ts";
 * assert.equal(normalizeSubject("MCAT (Reading)"), "mcat-reading");
 * assert.deepEqual(normalizeAnswerType("Numerical (w/ image)"), {
 *   answerType: "numerical",
 *   image: true,
 * });
 * assert.throws(() => normalizeSubject("chemistry"), /unknown subject "chemistry"/); // the reason
 * ```
 * @module
 */
import { ARB_ANSWER_TYPES, type ArbAnswerType } from "./answer_types.ts";

/** The subjects of ARB (Table 1). */
export const ARB_SUBJECTS = [
  "mathematics",
  "physics",
  "law",
  "mcat-reading",
  "mcat-science",
] as const;

/** One ARB subject. */
export type ArbSubject = (typeof ARB_SUBJECTS)[number];

/** The error types of Table 3 (multi-label annotation flags), in the paper's order. */
export const ARB_ERROR_FLAGS = [
  "misread",
  "wrong_approach",
  "logical_error",
  "arithmetic",
  "correct_answer",
  "correct_reasoning",
] as const;

/** The rubric-quality annotations of Table 4: two 1–5 Likert scores and four flags. */
export const ARB_RUBRIC_LIKERT = ["rubric_coverage", "rubric_point_spread"] as const;

/** The rubric-failure flags of Table 4. */
export const ARB_RUBRIC_FLAGS = [
  "alternative_solution",
  "extra_credit",
  "reduced_credit",
  "hallucinated_rubric",
] as const;

const key = (s: string) => s.toLowerCase().replace(/[^a-z]+/g, " ").trim();

const SUBJECTS: Record<string, ArbSubject> = {
  "mathematics": "mathematics",
  "math": "mathematics",
  "maths": "mathematics",
  "physics": "physics",
  "law": "law",
  "mcat reading": "mcat-reading",
  "mcat science": "mcat-science",
};

/**
 * The canonical subject of a log value (case, spaces, `_`/`-` and brackets ignored).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(normalizeSubject("Math"), "mathematics");
 * assert.equal(normalizeSubject("mcat_science"), "mcat-science");
 * ```
 */
export function normalizeSubject(value: string): ArbSubject {
  const hit = SUBJECTS[key(value)];
  if (!hit) {
    throw new Error(`unknown subject "${value}" (expected one of ${ARB_SUBJECTS.join(", ")})`);
  }
  return hit;
}

const TYPES: Record<string, ArbAnswerType> = {
  "multiple choice": "multiple-choice",
  "mcq": "multiple-choice",
  "mc": "multiple-choice",
  "numerical": "numerical",
  "numeric": "numerical",
  "symbolic": "symbolic",
  "proof like": "proof-like",
  "proof": "proof-like",
  "prooflike": "proof-like",
};

/**
 * The answer type of a log value and whether it names an image (`… (w/ image)`, `…_image`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(normalizeAnswerType("multiple_choice"), {
 *   answerType: "multiple-choice",
 *   image: false,
 * });
 * assert.deepEqual(normalizeAnswerType("Symbolic (w/ image)"), {
 *   answerType: "symbolic",
 *   image: true,
 * });
 * ```
 */
export function normalizeAnswerType(value: string): { answerType: ArbAnswerType; image: boolean } {
  const k = key(value);
  const image = /\b(w|with)?\s*images?$/.test(k);
  const base = k.replace(/\s*\b(w|with)?\s*images?$/, "").trim();
  const hit = TYPES[base];
  if (!hit) {
    throw new Error(
      `unknown answer_type "${value}" (expected one of ${ARB_ANSWER_TYPES.join(", ")}, ` +
        `optionally "(w/ image)")`,
    );
  }
  return { answerType: hit, image };
}

/**
 * A yes/no flag: booleans, 1/0, true/false, yes/no, y/n (text, any case); null for absent or
 * empty values. Throws for anything else.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(readFlag("misread", "Yes"), true);
 * assert.equal(readFlag("misread", 0), false);
 * assert.equal(readFlag("misread", null), null);
 * assert.throws(() => readFlag("misread", "maybe"), /misread "maybe" is not a yes\/no flag/);
 * ```
 */
export function readFlag(field: string, value: unknown): boolean | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "boolean") return value;
  if (value === 1 || value === 0) return value === 1;
  const s = String(value).trim().toLowerCase();
  if (s === "" || s === "n/a" || s === "na" || s === "null") return null;
  if (["1", "true", "yes", "y", "t"].includes(s)) return true;
  if (["0", "false", "no", "n", "f"].includes(s)) return false;
  throw new Error(`${field} ${JSON.stringify(value)} is not a yes/no flag`);
}

/**
 * A number (JSON number or numeric text); null for absent or empty values. Throws otherwise.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(readNumber("human_score", "7.5"), 7.5);
 * assert.equal(readNumber("human_score", ""), null);
 * ```
 */
export function readNumber(field: string, value: unknown): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "string" && value.trim() === "") return null;
  const n = typeof value === "number" ? value : Number(String(value).trim());
  if (typeof value === "boolean" || !Number.isFinite(n)) {
    throw new Error(`${field} ${JSON.stringify(value)} is not a number`);
  }
  return n;
}

/**
 * A text value: strings as is, numbers as text, objects/lists as JSON; null when absent.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(readText(17), "17");
 * assert.equal(readText({ a: 1 }), '{"a":1}');
 * ```
 */
export function readText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === "string"
    ? value
    : typeof value === "object"
    ? JSON.stringify(value)
    : String(value);
}

/**
 * Multiple-choice texts: a JSON list, or a string holding one; null when absent.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(readChoices('["a", "b"]'), ["a", "b"]);
 * assert.deepEqual(readChoices([1, "b"]), ["1", "b"]);
 * ```
 */
export function readChoices(value: unknown): string[] | null {
  if (value === null || value === undefined || value === "") return null;
  let v = value;
  if (typeof v === "string") {
    try {
      v = JSON.parse(v);
    } catch {
      throw new Error(`choices ${JSON.stringify(value)} is not a JSON list`);
    }
  }
  if (!Array.isArray(v)) throw new Error(`choices ${JSON.stringify(value)} is not a list`);
  return v.map((c) => readText(c) ?? "");
}
