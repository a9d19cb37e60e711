/**
 * Your own scoring rule, without forking: {@link defineScorer} turns a small definition — a
 * `name`, an `extract(response, ctx)` that returns the answer (null: none), and optionally a
 * `match(answer, target, ctx)` — into a {@link Scorer} like the built-in ones. Its verdicts say
 * whether an answer was found and are scored as wrong when none was; without a `match` the
 * answer is matched by type (`answer_match.ts`: option letter or text, numbers as numbers,
 * words without case), and it is found (`found`: an answer the rule can score) when that
 * matching reads a value of the target's type in it, or one word or number of another type
 * (`readAnswer`); with a `match` of its own, when `extract` gave a non-blank answer. A
 * definition may give a whole `score` instead.
 *
 * The same definition serves everywhere: `rescore(loaded, rule)` in a notebook, or a module
 * that exports it, passed as `--scorer ./my_rule.ts` (the scoring Workers import it too).
 * Polars-free: Workers load it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defineScorer } from "@runlens/scorers/define.ts";
 * const arrow = defineScorer({
 *   name: "arrow-answer",
 *   description: "The text after the last '=>'.",
 *   extract: (response) => response.split("=>").at(-1)?.trim() ?? null,
 * });
 * assert.deepEqual(arrow.score("so => (B)", "(B)"), { extracted: "(B)", correct: true, found: true });
 * assert.deepEqual(arrow.score("so => ", "(B)"), { extracted: "", correct: false, found: false });
 * // matched by type: a sentence is no answer to (B) (found false), one word is (a wrong one)
 * assert.equal(arrow.score("=> I would rather not say", "(B)").found, false);
 * assert.deepEqual(arrow.score("=> E", "(B)"), { extracted: "E", correct: false, found: true });
 * assert.throws(() => defineScorer({ name: "x" }), /needs extract \(a function\) or score/);
 * ```
 * @module
 */
import { matchAnswer, readAnswer } from "./answer_match.ts";
import {
  ANY_BENCHMARK,
  type AnyBenchmark,
  type ScoreContext,
  type Scorer,
  type ScorerNeed,
  type Verdict,
} from "./types.ts";

/** What a user writes: a name and `extract` (with `match`), or a whole `score`. */
export interface ScorerDefinition {
  /** The rule's name: every row, table and report it scores shows it. */
  name: string;
  /** What the rule does (default: "a user rule"). */
  description?: string;
  /** Where it comes from (default: "defined with defineScorer"; a module: its file). */
  source?: string;
  /** The benchmarks it applies to (default: any benchmark, as `lenient`). */
  benchmarks?: readonly string[] | AnyBenchmark;
  /** Columns it reads besides response and target (default: task and input). */
  needs?: readonly ScorerNeed[];
  /** The answer in a response; null (or blank): no answer found. */
  extract?(response: string, ctx: ScoreContext): string | null;
  /** Whether a found answer is right (default: {@link matchAnswer}, by the target's type). */
  match?(answer: string, target: string, ctx: ScoreContext): boolean;
  /** A whole verdict instead of `extract` and `match` (`found` absent: a non-blank `extracted`). */
  score?(response: string, target: string, ctx?: ScoreContext): Verdict | Omit<Verdict, "found">;
}

/** A definition that is not one (thrown by {@link defineScorer}; the message says what). */
export class ScorerDefinitionError extends Error {}

/**
 * A user rule failed on a response (threw, or returned a value of the wrong type): the message
 * names the rule. The load makes it the error of the file being scored, never a silent verdict.
 */
export class ScorerRuleError extends Error {}

const KEYS = ["name", "description", "source", "benchmarks", "needs", "extract", "match", "score"];
const NEEDS: readonly ScorerNeed[] = ["task", "input", "stored"];
/** Keys of a built-in scorer a definition may carry (a scorer defined again), ignored. */
const SCORER_KEYS = ["lmEvalFilter", "scoreSpan"];

/** Scorers this module made: defining one again returns it. */
const defined = new WeakSet<Scorer>();

/**
 * A {@link Scorer} from a definition; throws {@link ScorerDefinitionError} saying what is wrong
 * (not an object, a name that is not a one-line string, neither `extract` nor `score` or both,
 * a key that is not a definition's, a value of the wrong type). `defaults` fills `description`
 * and `source` the definition leaves out. A scorer this function made is returned as it is.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const upper = defineScorer({
 *   name: "upper",
 *   extract: (r) => /ANSWER: (\S+)/.exec(r)?.[1] ?? null,
 *   match: (answer, target) => answer.toUpperCase() === target.toUpperCase(),
 *   benchmarks: ["bbh"],
 * });
 * assert.deepEqual(upper.score("ANSWER: true", "True"), { extracted: "true", correct: true, found: true });
 * assert.deepEqual([upper.description, upper.benchmarks], ["a user rule", ["bbh"]]);
 * assert.equal(defineScorer(upper), upper);
 * assert.throws(() => defineScorer({ name: "u", extact: () => null } as never), /unknown key extact/);
 * ```
 */
export function defineScorer(
  definition: ScorerDefinition,
  defaults: { description?: string; source?: string } = {},
): Scorer {
  if (defined.has(definition as Scorer)) return definition as Scorer;
  const d = checkDefinition(definition);
  const scorer: Scorer = {
    name: d.name,
    description: d.description ?? defaults.description ?? "a user rule",
    source: d.source ?? defaults.source ?? "defined with defineScorer",
    // a definition that names no benchmark knows no task: like lenient, it applies to any
    benchmarks: Array.isArray(d.benchmarks) ? [...d.benchmarks] : ANY_BENCHMARK,
    needs: d.needs ? [...d.needs] : ["task", "input"],
    score: d.score ? checkedScore(d.name, d.score) : extractScore(d),
  };
  defined.add(scorer);
  return scorer;
}

/** The definition, checked (throws {@link ScorerDefinitionError}). */
function checkDefinition(d: unknown): ScorerDefinition {
  const fail = (why: string): never => {
    throw new ScorerDefinitionError(why);
  };
  if (typeof d !== "object" || d === null || Array.isArray(d)) {
    fail(`a scorer is an object with a name and extract (or score), not ${typeName(d)}`);
  }
  const o = d as Record<string, unknown>;
  const unknown = Object.keys(o).filter((k) => !KEYS.includes(k) && !SCORER_KEYS.includes(k));
  if (unknown.length > 0) fail(`unknown key ${unknown.join(", ")} (keys: ${KEYS.join(", ")})`);
  if (
    typeof o.name !== "string" || o.name === "" || o.name.trim() !== o.name || /\n/.test(o.name)
  ) {
    fail(
      `name must be a non-empty one-line string without surrounding spaces, not ${show(o.name)}`,
    );
  }
  for (const k of ["description", "source"]) {
    if (o[k] !== undefined && typeof o[k] !== "string") fail(`${k} must be a string`);
  }
  for (const k of ["extract", "match", "score"]) {
    if (o[k] !== undefined && typeof o[k] !== "function") {
      fail(`${k} must be a function, not ${typeName(o[k])}`);
    }
  }
  if (o.extract === undefined && o.score === undefined) {
    fail("needs extract (a function) or score (a function)");
  }
  if (o.score !== undefined && (o.extract !== undefined || o.match !== undefined)) {
    fail("gives score and extract/match: give one of them");
  }
  // not a list: any benchmark (ANY_BENCHMARK, or its copy in a copied scorer)
  const b = o.benchmarks as { any?: unknown } | undefined;
  const any = typeof b === "object" && b !== null && !Array.isArray(b) && b.any === true;
  if (o.benchmarks !== undefined && !any && !nonEmptyStrings(o.benchmarks)) {
    fail("benchmarks must be a non-empty list of benchmark names, or ANY_BENCHMARK");
  }
  if (
    o.needs !== undefined && !(Array.isArray(o.needs) && o.needs.every((n) => NEEDS.includes(n)))
  ) {
    fail(`needs must be a list of ${NEEDS.join(", ")}`);
  }
  return o as unknown as ScorerDefinition;
}

/**
 * `score` from `extract` and `match` (a blank or null answer: not found, wrong; by the default
 * match, an answer from which no value can be read: not found).
 */
function extractScore(d: ScorerDefinition): Scorer["score"] {
  const extract = d.extract!;
  const match = d.match ?? ((answer, target, ctx) => matchAnswer(answer, target, ctx.input));
  const readable = d.match
    ? () => true
    : (answer: string, target: string, ctx: ScoreContext) =>
      readAnswer(answer, target, ctx.input) !== null;
  return (response, target, ctx = {}) => {
    const answer = guarded(d.name, "extract", () => extract(response, ctx));
    if (answer !== null && typeof answer !== "string") {
      throw new ScorerRuleError(
        `scorer ${d.name}: extract returned ${typeName(answer)}, not a string or null`,
      );
    }
    if (answer === null || answer.trim() === "") {
      return { extracted: answer, correct: false, found: false };
    }
    const correct = guarded(d.name, "match", () => match(answer, target, ctx));
    if (typeof correct !== "boolean") {
      throw new ScorerRuleError(
        `scorer ${d.name}: match returned ${typeName(correct)}, not true or false`,
      );
    }
    return { extracted: answer, correct, found: correct || readable(answer, target, ctx) };
  };
}

/** A user's whole `score`, its verdicts checked (`found` filled in when it gives none). */
function checkedScore(name: string, score: NonNullable<ScorerDefinition["score"]>) {
  return (response: string, target: string, ctx: ScoreContext = {}): Verdict => {
    const v = guarded(name, "score", () => score(response, target, ctx)) as Partial<Verdict>;
    const ok = typeof v === "object" && v !== null &&
      (v.extracted === null || typeof v.extracted === "string") &&
      (v.correct === null || typeof v.correct === "boolean") &&
      (v.found === undefined || v.found === null || typeof v.found === "boolean");
    if (!ok) {
      throw new ScorerRuleError(
        `scorer ${name}: score returned ${show(v)}, not {extracted: string | null, ` +
          "correct: boolean | null, found?: boolean | null}",
      );
    }
    const extracted = v.extracted as string | null;
    const found = v.found === undefined ? extracted !== null && extracted.trim() !== "" : v.found;
    return { extracted, correct: v.correct as boolean | null, found };
  };
}

/** `f()`, an exception becoming a {@link ScorerRuleError} that names the rule and the step. */
function guarded<T>(name: string, step: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof ScorerRuleError) throw e;
    const what = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    throw new ScorerRuleError(`scorer ${name}: ${step} threw ${what}`, { cause: e });
  }
}

function nonEmptyStrings(x: unknown): boolean {
  return Array.isArray(x) && x.length > 0 && x.every((s) => typeof s === "string" && s !== "");
}

/** "a number", "null", "an array", … */
function typeName(x: unknown): string {
  if (x === null) return "null";
  if (Array.isArray(x)) return "an array";
  const t = typeof x;
  return t === "undefined" ? "undefined" : `${/^[aeiou]/.test(t) ? "an" : "a"} ${t}`;
}

/** A value in a message (short). */
function show(x: unknown): string {
  if (typeof x === "function") return "a function";
  const text = JSON.stringify(x) ?? String(x);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}
