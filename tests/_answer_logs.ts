/**
 * Test helper: logs generated at test time from the BBH data set in answer conventions the
 * tests choose — chat transcripts (`{input, target, message_log, output}`, one file per task,
 * as a prompting-method study keeps them; or `{model, messages, target}` lines of BBH and BBEH
 * examples in one file), and lm-eval `--log_samples` folders with stored verdicts. Nothing of
 * the data set is kept in the repository.
 *
 * @example
 * ```ts ignore
 * const files = writeChatLog(dataDir, dir, ["navigate"], 10, (i, target) => `Answer: ${target}`);
 * ```
 * @module
 */
import { dirname, join } from "node:path";
import { readBbhExamples } from "@runlens/benchmarks/bbh/examples.ts";
import { readBbehExamples } from "@runlens/benchmarks/bbeh/examples.ts";

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

/** The date id of the generated lm-eval files. */
export const LM_EVAL_DATE = "2025-02-02T10-00-00.000000";

/** One lm-eval sample: the response and the verdict the harness stored for it. */
export interface StoredSample {
  response: string;
  stored: boolean;
}

/**
 * Write an lm-evaluation-harness `--log_samples` folder (`<dir>/org__<model>/`, ≥ v0.4.7
 * lines of the `bbh_cot_fewshot` tasks, filter `get-answer`) holding the first `n` examples of
 * each task, each line's response and stored `exact_match` from `sample(i, target, input)`.
 * Returns the folder.
 */
export function writeLmEvalLog(
  dataDir: string,
  dir: string,
  model: string,
  tasks: readonly string[],
  n: number,
  sample: (i: number, target: string, input: string) => StoredSample,
): string {
  const examples = readBbhExamples(dataDir);
  const folder = join(dir, `org__${model}`);
  Deno.mkdirSync(folder, { recursive: true });
  const results: Record<string, unknown> = {};
  for (const task of tasks) {
    const name = `bbh_cot_fewshot_${task}`;
    const lines = examples[task].slice(0, n).map((e, i) => {
      const s = sample(i, e.target, e.input);
      return JSON.stringify({
        doc_id: i,
        doc: { input: e.input, target: e.target },
        target: e.target,
        arguments: { gen_args_0: { arg_0: `Q: ${e.input}\nA: Let's think step by step.` } },
        resps: [[s.response]],
        filtered_resps: [s.response],
        filter: "get-answer",
        metrics: ["exact_match"],
        exact_match: s.stored ? 1.0 : 0.0,
      });
    });
    Deno.writeTextFileSync(
      join(folder, `samples_${name}_${LM_EVAL_DATE}.jsonl`),
      lines.join("\n") + "\n",
    );
    results[name] = { "exact_match,get-answer": 0 };
  }
  Deno.writeTextFileSync(
    join(folder, `results_${LM_EVAL_DATE}.json`),
    JSON.stringify({ model_name: `org/${model}`, results }),
  );
  return folder;
}

/** One row of {@link writeChatRun}. */
export interface ChatRow {
  benchmark: "bbh" | "bbeh";
  task: string;
  input: string;
  target: string;
  response: string;
}

/**
 * Write one JSONL file of OpenAI-style chat transcripts (`{model, messages, target}`, no task
 * field: runlens identifies each row by its question) holding the first `n` examples of each
 * (benchmark, task) of `cells`, each answered by `answer(i, target, task, input)`. Returns the
 * rows written, in order.
 */
export function writeChatRun(
  dataDir: string,
  path: string,
  model: string,
  cells: readonly { benchmark: "bbh" | "bbeh"; task: string }[],
  n: number,
  answer: (i: number, target: string, task: string, input: string) => string,
): ChatRow[] {
  const sets = { bbh: readBbhExamples(dataDir), bbeh: readBbehExamples(dataDir) };
  const rows = cells.flatMap(({ benchmark, task }) =>
    sets[benchmark][task].slice(0, n).map((e, i): ChatRow => ({
      benchmark,
      task,
      input: e.input,
      target: e.target,
      response: answer(i, e.target, task, e.input),
    }))
  );
  const lines = rows.map((r) =>
    JSON.stringify({
      model,
      messages: [{ role: "user", content: r.input }, { role: "assistant", content: r.response }],
      target: r.target,
    })
  );
  Deno.mkdirSync(dirname(path), { recursive: true });
  Deno.writeTextFileSync(path, lines.join("\n") + "\n");
  return rows;
}
