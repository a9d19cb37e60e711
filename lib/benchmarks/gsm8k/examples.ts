/**
 * GSM8K's 1,319 test problems, read without polars (scoring Workers load this): each line of
 * `grade_school_math/data/test.jsonl` is `{"question", "answer"}`, the answer a worked solution
 * ending in `#### N`; the target is N as written there ({@link gsm8kTarget}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const [first] = readGsm8kExamples(resolveDataDir()).gsm8k;
 * assert.equal(first.target, "18");
 * assert.match(first.input, /^Janet’s ducks lay 16 eggs per day/);
 * ```
 * @module
 */
import { join } from "node:path";
import { exists, FETCH_HINT } from "../../core/data_dir.ts";
import { parseJsonObjectLine } from "../../core/json_line.ts";
import { lazyTasks } from "../../core/task_file.ts";
import type { Example, ExampleSet } from "../types.ts";

/** Problems in the test split. */
export const GSM8K_SIZE = 1319;

/**
 * The number a reference solution ends with: the text after its last `####`, trimmed (as
 * lm-evaluation-harness's `gsm8k_cot` reads its target); a text without `####`, trimmed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(gsm8kTarget("3 + 4 = <<3+4=7>>7\n#### 1,007"), "1,007");
 * assert.equal(gsm8kTarget(" 18 "), "18");
 * ```
 */
export function gsm8kTarget(answer: string): string {
  const at = answer.lastIndexOf("####");
  return (at < 0 ? answer : answer.slice(at + 4)).trim();
}

/** The test split from a data directory (read when first used); throws naming a missing file. */
export function readGsm8kExamples(dataDir: string): ExampleSet {
  const path = join(dataDir, "gsm8k", "grade_school_math", "data", "test.jsonl");
  if (!exists(path)) throw new Error(`GSM8K data set missing: ${path}; ${FETCH_HINT}`);
  return lazyTasks(["gsm8k"], () => readTestFile(path));
}

function readTestFile(path: string): Example[] {
  const lines = Deno.readTextFileSync(path).split("\n").filter((l) => l.trim() !== "");
  const examples = lines.map((line, i) => {
    const { question, answer } = parseJsonObjectLine(line, `${path}:${i + 1}`);
    if (typeof question !== "string" || typeof answer !== "string" || !answer.includes("####")) {
      throw new Error(`${path}:${i + 1}: expected a "question" and an "answer" with "#### N"`);
    }
    return { input: question, target: gsm8kTarget(answer) };
  });
  if (examples.length === GSM8K_SIZE) return examples;
  throw new Error(`${path}: ${examples.length} problems, the release has ${GSM8K_SIZE}`);
}
