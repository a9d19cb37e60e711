/**
 * A user's rule as plain data ({@link RuleSpec}), so that every scoring Worker builds the same
 * scorer from it ({@link loadRule}): a pattern (`--answer-pattern`), or a module
 * (`--scorer ./my_rule.ts`) imported by URL — the URL carries the SHA-256 of the file's
 * content, so an edited module is a new module (for Deno's module cache, a notebook that loads
 * again, and the columnar cache's key). Polars-free: Workers load it.
 *
 * A module exports its rule as `default` (or as `scorer`): a definition for `defineScorer`
 * (`define.ts`) — `name`, `extract`, optionally `match`, `description`, `benchmarks` — or a
 * scorer `defineScorer` made.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const rule = await loadRule({ kind: "pattern", pattern: "=> (\\w+)" });
 * assert.equal(rule.score("x => yes", "Yes").correct, true);
 * assert.equal(isScorerPath("./my_rule.ts"), true);
 * assert.equal(isScorerPath("lenient"), false);
 * ```
 * @module
 */
import { UsageError } from "../core/command.ts";
import { defineScorer, ScorerDefinitionError } from "./define.ts";
import { patternScorer } from "./pattern.ts";
import type { Scorer } from "./types.ts";

/** A user's rule, as Workers receive it. */
export type RuleSpec =
  | { kind: "pattern"; pattern: string }
  | {
    kind: "module";
    /** The path as the user gave it (messages name it). */
    file: string;
    /** Its `file:` URL, with `?sha256=<digest of its content>`. */
    url: string;
  };

/**
 * A wrong scorer choice: an unknown name, a scorer that does not apply to a benchmark the logs
 * hold, a bad pattern, a module that is not a rule. The CLI turns it into a usage error
 * (exit 2).
 */
export class ScorerChoiceError extends UsageError {}

/**
 * Whether a `--scorer` value names a module rather than a registered scorer: it starts with
 * `./`, `../`, `/` or `file:`, or ends with `.ts`, `.js`, `.mts` or `.mjs`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(["rules/mine.ts", "/abs/x.js", "bbh-release-cot"].map(isScorerPath),
 *   [true, true, false]);
 * ```
 */
export function isScorerPath(text: string): boolean {
  return /^(?:\.{1,2}\/|\/|file:)/.test(text) || /\.[mc]?[tj]s$/.test(text);
}

/**
 * The scorer of a rule: the pattern's, or the module's export checked by `defineScorer`.
 * Throws {@link ScorerChoiceError} naming the pattern or the file (cannot be imported, throws
 * while loading, exports no rule, a rule that is not one).
 */
export async function loadRule(spec: RuleSpec): Promise<Scorer> {
  if (spec.kind === "pattern") return choice("answer pattern", () => patternScorer(spec.pattern));
  const label = `scorer module ${spec.file}`;
  let mod: Record<string, unknown>;
  try {
    mod = await import(spec.url);
  } catch (e) {
    throw new ScorerChoiceError(`${label}: cannot be loaded: ${firstLine(e)}`, { cause: e });
  }
  const exported = mod.default ?? mod.scorer;
  if (exported === undefined) {
    const names = Object.keys(mod);
    throw new ScorerChoiceError(
      `${label}: exports no rule: write \`export default defineScorer({ name, extract })\` ` +
        `(or \`export const scorer = …\`); it exports ${
          names.length ? names.join(", ") : "nothing"
        }`,
    );
  }
  return choice(label, () => defineScorer(exported as never, { source: spec.file }));
}

/** `f()`, a {@link ScorerDefinitionError} becoming a {@link ScorerChoiceError} under `label`. */
function choice(label: string, f: () => Scorer): Scorer {
  try {
    return f();
  } catch (e) {
    if (!(e instanceof ScorerDefinitionError)) throw e;
    const message = e.message.startsWith(label) ? e.message : `${label}: ${e.message}`;
    throw new ScorerChoiceError(message);
  }
}

/** An error's first line (a module's syntax error comes with a code frame). */
function firstLine(e: unknown): string {
  const text = e instanceof Error
    ? `${e.name === "Error" ? "" : `${e.name}: `}${e.message}`
    : String(e);
  return text.split("\n")[0];
}
