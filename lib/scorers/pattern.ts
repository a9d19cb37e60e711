/**
 * `--answer-pattern REGEX`: a user's rule from one regular expression. The LAST match of the
 * pattern in a response is its answer — the match's first capture group, or the whole match
 * when the pattern has no group — then the answer is matched by the target's type
 * (`answer_match.ts`). An answer is found when the pattern matched and a value of the target's
 * type can be read in it (or one word or number of another type: a wrong answer).
 * The rule is named `pattern:<REGEX>`, so every number it scores says so.
 *
 * The pattern is JavaScript's syntax, searched with the `g` flag only: `(?i:…)` makes a part
 * case-insensitive (a modifier group, ES2025, as Deno's V8 runs it), `[\s\S]` matches any
 * character including a line break. Python's own syntax is refused with the JavaScript to write
 * instead ({@link pythonOnly}): a global flag `(?i)` (JavaScript has none inside a pattern:
 * `(?i:…)` around the rest), `(?P<name>…)` (`(?<name>…)`), `(?P=name)` (`\k<name>`), `\A` and
 * `\Z` (`^` and `$`; JavaScript would read `\A` as the letter A, silently).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const rule = patternScorer("ANSWER=>(.*?)<=");
 * assert.equal(rule.name, "pattern:ANSWER=>(.*?)<=");
 * const response = "First ANSWER=>(A)<= then, on reflection, ANSWER=>(B)<=";
 * assert.deepEqual(rule.score(response, "(B)"), { extracted: "(B)", correct: true, found: true });
 * assert.deepEqual(rule.score("So the answer is (B).", "(B)"), {
 *   extracted: null, correct: false, found: false, // another convention: no answer found
 * });
 * ```
 * @module
 */
import { defineScorer, ScorerDefinitionError } from "./define.ts";
import type { Scorer } from "./types.ts";

/** The prefix of a pattern rule's name. */
export const PATTERN_PREFIX = "pattern:";

/**
 * The pattern compiled (flag `g`); throws {@link ScorerDefinitionError} naming `label` (the
 * flag, for the CLI) when it is empty or not a regular expression.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(compilePattern("x(\\d)").flags, "g");
 * assert.throws(() => compilePattern("(B", "--answer-pattern"), {
 *   message: /^--answer-pattern "\(B": not a regular expression \(.*Unterminated group\)$/,
 * });
 * ```
 */
export function compilePattern(pattern: string, label = "answer pattern"): RegExp {
  if (pattern === "") throw new ScorerDefinitionError(`${label}: the pattern is empty`);
  const python = pythonOnly(pattern);
  if (python !== null) {
    throw new ScorerDefinitionError(`${label} ${JSON.stringify(pattern)}: ${python}`);
  }
  try {
    return new RegExp(pattern, "g");
  } catch (e) {
    throw new ScorerDefinitionError(
      `${label} ${JSON.stringify(pattern)}: not a regular expression (${(e as Error).message})`,
    );
  }
}

/** Python's global inline flags that JavaScript has as modifier groups `(?i:…)`. */
const JS_MODIFIERS = "ims";

/**
 * Why a pattern written in Python's syntax is not JavaScript's, with the JavaScript to write
 * instead (null: no Python-only syntax). Python's global flags `(?i)`, `(?s)`, `(?m)` become a
 * modifier group around the rest (`(?i)answer: (\w+)` → `(?i:answer: (\w+))`); its other
 * flags (`a`, `L`, `u`, `x`) have no JavaScript form.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(
 *   pythonOnly("(?i)answer: (\\w+)"),
 *   'uses Python\'s syntax, not JavaScript\'s: "(?i)" (a global flag; JavaScript has none ' +
 *     "inside a pattern): write it as (?i:answer: (\\w+)) (or spell the cases out with " +
 *     "classes such as [Aa])",
 * );
 * assert.match(pythonOnly("(?P<x>\\d+) = (?P=x)")!, /write it as \(\?<x>\\d\+\) = \\k<x>$/);
 * assert.equal(pythonOnly("(?i:answer): (\\w+)"), null); // JavaScript's own
 * ```
 */
export function pythonOnly(pattern: string): string | null {
  const found: string[] = [];
  let js = pattern;
  const flags = /^\(\?([aiLmsux]+)\)/.exec(pattern) ?? /\(\?([aiLmsux]+)\)/.exec(pattern);
  if (flags) {
    found.push(`"${flags[0]}" (a global flag; JavaScript has none inside a pattern)`);
    const usable = [...flags[1]].filter((f) => JS_MODIFIERS.includes(f)).join("");
    const rest = js.replace(flags[0], "");
    js = usable === "" ? rest : `(?${usable}:${rest})`;
    const other = [...flags[1]].filter((f) => !JS_MODIFIERS.includes(f));
    if (other.length > 0) found.push(`flag ${other.join("")} has no JavaScript form`);
  }
  if (/\(\?P<\w+>/.test(js)) {
    found.push('"(?P<name>…)"');
    js = js.replace(/\(\?P<(\w+)>/g, "(?<$1>");
  }
  if (/\(\?P=\w+\)/.test(js)) {
    found.push('"(?P=name)"');
    js = js.replace(/\(\?P=(\w+)\)/g, "\\k<$1>");
  }
  if (/(?<!\\)(?:\\\\)*\\[AZ]/.test(js)) {
    found.push('"\\A" / "\\Z" (JavaScript reads them as the letters A and Z)');
    js = js.replace(/((?<!\\)(?:\\\\)*)\\A/g, "$1^").replace(/((?<!\\)(?:\\\\)*)\\Z/g, "$1$");
  }
  if (found.length === 0) return null;
  const cases = flags?.[1].includes("i")
    ? " (or spell the cases out with classes such as [Aa])"
    : "";
  return `uses Python's syntax, not JavaScript's: ${found.join(", ")}: write it as ${js}${cases}`;
}

/**
 * The answer the last match of `re` (flag `g`) gives in `text`: its first group (null when the
 * group did not take part), else the whole match; null when nothing matches.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(lastMatch(/#### (\S+)/g, "#### 3\n#### 4"), "4");
 * assert.equal(lastMatch(/\d+/g, "1 then 22"), "22"); // no group: the whole match
 * assert.equal(lastMatch(/x(y)?/g, "xy x"), null); // the last match has no group 1
 * ```
 */
export function lastMatch(re: RegExp, text: string): string | null {
  let last: RegExpExecArray | null = null;
  for (const m of text.matchAll(re)) last = m;
  if (last === null) return null;
  return last.length > 1 ? last[1] ?? null : last[0];
}

/** The rule of `--answer-pattern pattern` (throws {@link ScorerDefinitionError} on a bad one). */
export function patternScorer(pattern: string): Scorer {
  const re = compilePattern(pattern);
  return defineScorer({
    name: `${PATTERN_PREFIX}${pattern}`,
    description: `The last match of /${pattern}/ (its first group, else the whole match) is the ` +
      "answer, matched by the target's type: option letter or text, numbers as numbers, " +
      "words without case or punctuation.",
    source: "--answer-pattern",
    extract: (response) => lastMatch(re, response),
  });
}
