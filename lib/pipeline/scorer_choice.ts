/**
 * The scorer a load's options choose for every benchmark, resolved and checked ONCE, before
 * anything is read or scored ({@link chooseScorer}; `load_plan.ts` resolves the scorer of each
 * benchmark from it): a registered scorer by name, a module of the user's own rule
 * (`scorer: "./my_rule.ts"`, imported here and again by each scoring Worker), or a pattern
 * (`answerPattern`). Every wrong choice is a {@link ScorerChoiceError} (the CLI's exit 2): an
 * unknown name, a module that cannot be read or loaded, exports no rule or a malformed one, a
 * rule named like a built-in scorer, a bad regular expression.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const named = await chooseScorer({ scorer: "lenient" });
 * assert.deepEqual([named?.scorer.name, named?.rule], ["lenient", null]);
 * const pattern = await chooseScorer({ answerPattern: "ANSWER=>(.+?)<=" });
 * assert.deepEqual(pattern?.rule, { kind: "pattern", pattern: "ANSWER=>(.+?)<=" });
 * assert.equal(pattern?.scorer.name, "pattern:ANSWER=>(.+?)<=");
 * assert.equal(await chooseScorer({}), null); // each benchmark's own rule
 * await assert.rejects(chooseScorer({ scorer: "./no/such_rule.ts" }), ScorerChoiceError);
 * ```
 * @module
 */
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { benchmarks, getScorer, scoredBenchmarks, SCORERS } from "../benchmarks/registry.ts";
import { sha256Hex } from "../core/digest.ts";
import { PATTERN_PREFIX } from "../scorers/pattern.ts";
import { appliesTo, type Scorer } from "../scorers/types.ts";
import { isScorerPath, loadRule, type RuleSpec, ScorerChoiceError } from "../scorers/user_rule.ts";

export { ScorerChoiceError };

/** The scorer chosen, and how Workers load it when it is the user's rule. */
export interface ScorerChoice {
  scorer: Scorer;
  /** The user's rule as plain data (null: a registered scorer). */
  rule: RuleSpec | null;
}

/** How a scorer is chosen: a registered name or a module path, or a pattern. */
export interface ScorerOptions {
  scorer?: string;
  answerPattern?: string;
}

/**
 * The chosen scorer (null: none chosen, each benchmark's own rule). A module is read, imported
 * and checked here; throws {@link ScorerChoiceError} on any wrong choice.
 */
export async function chooseScorer(options: ScorerOptions): Promise<ScorerChoice | null> {
  const { scorer, answerPattern } = options;
  if (scorer !== undefined && answerPattern !== undefined) {
    throw new ScorerChoiceError(
      "--scorer and --answer-pattern: give one (a pattern is a rule of its own)",
    );
  }
  if (answerPattern !== undefined) {
    const rule: RuleSpec = { kind: "pattern", pattern: answerPattern };
    return { scorer: await loadRule(rule), rule };
  }
  if (scorer === undefined) return null;
  if (!isScorerPath(scorer)) {
    checkScorerName(scorer);
    return { scorer: getScorer(scorer), rule: null };
  }
  const rule = moduleRule(scorer);
  const loaded = await loadRule(rule);
  const label = `scorer module ${scorer}`;
  if (loaded.name.startsWith(PATTERN_PREFIX)) {
    throw new ScorerChoiceError(`${label}: names starting with "${PATTERN_PREFIX}" are patterns'`);
  }
  checkUserRule(loaded, label);
  return { scorer: loaded, rule };
}

/**
 * A `--scorer` value checked without loading anything: a registered name
 * ({@link checkScorerName}), or a module path that names a readable file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * checkScorerArgument("lenient");
 * assert.throws(() => checkScorerArgument("./missing_rule.ts"),
 *   { message: /^scorer module \.\/missing_rule\.ts: no such file/ });
 * ```
 */
export function checkScorerArgument(text: string): void {
  if (!isScorerPath(text)) return checkScorerName(text);
  let isFile = false;
  try {
    isFile = Deno.statSync(modulePath(text)).isFile;
  } catch { /* reported below */ }
  if (!isFile) throw new ScorerChoiceError(`scorer module ${text}: no such file`);
}

/**
 * Check a scorer name: registered, and applicable to at least one benchmark runlens scores.
 * Throws {@link ScorerChoiceError} listing the valid names otherwise.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * checkScorerName("last-line"); // ok
 * assert.throws(() => checkScorerName("exact"), /unknown scorer "exact"; scorers: bbeh-official/);
 * assert.throws(() => checkScorerName("exact"), ScorerChoiceError);
 * ```
 */
export function checkScorerName(name: string): void {
  if (!SCORERS.some((s) => s.name === name)) {
    throw new ScorerChoiceError(
      `unknown scorer "${name}"; scorers: ${SCORERS.map((s) => s.name).join(", ")}; ` +
        "or your own rule: --scorer ./my_rule.ts, --answer-pattern REGEX",
    );
  }
  checkAppliesToSome(getScorer(name), `scorer ${name}`);
}

/**
 * A user's rule checked against the registry: its name is not a built-in scorer's, its
 * benchmarks are registered and one of them is scored. Throws {@link ScorerChoiceError}
 * under `label`.
 */
export function checkUserRule(s: Scorer, label: string): void {
  if (SCORERS.some((t) => t.name === s.name)) {
    throw new ScorerChoiceError(
      `${label}: the rule's name "${s.name}" is a built-in scorer's; give it another name`,
    );
  }
  const known = benchmarks().map((b) => b.name);
  const named = Array.isArray(s.benchmarks) ? s.benchmarks : []; // else ANY_BENCHMARK
  const unknown = named.filter((b) => !known.includes(b));
  if (unknown.length > 0) {
    throw new ScorerChoiceError(
      `${label}: unknown benchmark(s) ${unknown.join(", ")} (registered: ${known.join(", ")})`,
    );
  }
  checkAppliesToSome(s, label);
}

/** A scorer that applies to no scored benchmark is no choice. */
function checkAppliesToSome(s: Scorer, label: string): void {
  const scored = scoredBenchmarks();
  if (!scored.some((b) => appliesTo(s, b.name))) {
    throw new ScorerChoiceError(
      `${label} applies to none of ${scored.map((b) => b.name).join(", ")}; ` +
        scored.map((b) => scorersFor(b.name)).join("; "),
    );
  }
}

/**
 * The scorers that apply to a benchmark, for messages.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(scorersFor("bbeh"), "scorers for bbeh: bbeh-official, stored, lenient");
 * ```
 */
export function scorersFor(benchmark: string): string {
  const names = SCORERS.filter((s) => appliesTo(s, benchmark)).map((s) => s.name);
  return `scorers for ${benchmark}: ${names.join(", ")}`;
}

/** The absolute path of a module argument (a path, or a `file:` URL). */
function modulePath(text: string): string {
  return text.startsWith("file:") ? fileURLToPath(text) : resolve(text);
}

/** A module's rule spec: its URL carries the SHA-256 of its content. */
function moduleRule(file: string): RuleSpec {
  let bytes: Uint8Array;
  const path = modulePath(file);
  try {
    bytes = Deno.readFileSync(path);
  } catch (e) {
    throw new ScorerChoiceError(`scorer module ${file}: cannot be read (${(e as Error).message})`);
  }
  return { kind: "module", file, url: `${pathToFileURL(path).href}?sha256=${sha256Hex(bytes)}` };
}
