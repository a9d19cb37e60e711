/**
 * Test helper: logs generated at test time from the BBH data set in answer conventions the
 * tests choose — chat transcripts (`{input, target, message_log, output}`, one file per task,
 * as a prompting-method study keeps them) and lm-eval `--log_samples` folders with stored
 * verdicts. Nothing of the data set is kept in the repository.
 *
 * @example
 * ```ts ignore
 * const files = writeChatLog(dataDir, dir, ["navigate"], 10, (i, target) => `Answer: ${target}`);
 * ```
 * @module
 */
import { join } from "node:path";
import { readBbhExamples } from "@runlens/benchmarks/bbh/examples.ts";

/** The answer text of the i-th example of a task (its target given). */
export type Answer = (i: number, target: string, task: string) => string;

/** A final-answer block in the study's convention. */
export const finalBlock = (answer: string) =>
  `Let me think step by step.\nThe facts point one way.\n>> FINAL ANSWER:\n"""\n${answer}\n"""`;

/**
 * Write `<dir>/<task>.jsonl` for each task: its first `n` examples, each as a chat transcript
 * whose assistant message is `answer(i, target, task)`. Returns the examples written, by task.
 */
export function writeChatLog(
  dataDir: string,
  dir: string,
  tasks: readonly string[],
  n: number,
  answer: Answer,
): Record<string, { input: string; target: string; response: string }[]> {
  const examples = readBbhExamples(dataDir);
  const out: Record<string, { input: string; target: string; response: string }[]> = {};
  Deno.mkdirSync(dir, { recursive: true });
  for (const task of tasks) {
    const rows = examples[task].slice(0, n).map((e, i) => ({
      input: e.input,
      target: e.target,
      response: answer(i, e.target, task),
    }));
    const lines = rows.map((r) =>
      JSON.stringify({
        input: r.input,
        target: r.target,
        message_log: [
          { role: "system", content: "You are a careful assistant." },
          { role: "user", content: r.input },
          { role: "assistant", content: r.response },
        ],
        output: r.response,
      })
    );
    Deno.writeTextFileSync(join(dir, `${task}.jsonl`), lines.join("\n") + "\n");
    out[task] = rows;
  }
  return out;
}
