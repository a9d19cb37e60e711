/**
 * `runlens score --scorer lenient` end to end on chat-transcript logs built at test time from
 * the BBH data set, as a published prompting-method study wrote them (`input`, `target`,
 * `message_log`, `output`; every answer in a `>> FINAL ANSWER:` block with a `"""`-quoted
 * answer), and in the other common conventions. The official BBH rule finds no answer in such
 * logs; lenient must score exactly the rows the log was built to get right.
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readBbhExamples } from "@runlens/benchmarks/bbh/examples.ts";
import { parseOptions } from "@runlens/scorers/answer_match.ts";
import { runCli } from "./_cli.ts";
import { dataTest } from "./_data.ts";

const TASKS = ["date_understanding", "snarks", "web_of_lies", "multistep_arithmetic_two"];

/** Another answer of the same kind as the target (a wrong one). */
function wrong(target: string): string {
  if (/^\([A-Z]\)$/.test(target)) return target === "(A)" ? "(B)" : "(A)";
  if (target === "Yes" || target === "No") return target === "Yes" ? "No" : "Yes";
  return String(Number(target) + 1);
}

/** The answer written in one of several conventions, chosen by the row's position. */
function respond(i: number, answer: string, input: string): string {
  const letter = /^\(([A-Z])\)$/.exec(answer)?.[1];
  const text = letter ? parseOptions(input).get(letter) : undefined;
  switch (i % 5) {
    case 0:
      return `>> THOUGHTS:\nStep by step.\n>> FINAL ANSWER:\n"""\n${answer}\n"""`;
    case 1:
      return `Reasoning.\n\`\`\`json\n${JSON.stringify({ answer })}\n\`\`\``;
    case 2:
      return `<think>The answer is probably ${wrong(answer)}.</think>\nFinal answer: ${answer}`;
    case 3:
      return `We get $\\boxed{${answer}}$.`;
    default: // the option's text alone when there is one
      return `<answer>${text ?? answer}</answer>`;
  }
}

dataTest(
  "score --scorer lenient: transcripts in five answer conventions, right and wrong",
  async (dir) => {
    const examples = readBbhExamples(dir);
    const expected: Record<string, number> = {};
    const lines: string[] = [];
    for (const task of TASKS) {
      expected[task] = 0;
      examples[task].forEach(({ input, target }, i) => {
        const right = i % 3 !== 0;
        if (right) expected[task]++;
        const output = respond(i, right ? target : wrong(target), input);
        const message_log = [
          { role: "user", content: input },
          { role: "assistant", content: output },
        ];
        lines.push(JSON.stringify({ task, input, target, message_log, output }));
      });
    }
    const tmp = Deno.makeTempDirSync({ prefix: "runlens_lenient_" });
    try {
      Deno.writeTextFileSync(join(tmp, "gpt4_final_answer.jsonl"), lines.join("\n") + "\n");
      const r = await runCli(["score", tmp, "--data", dir, "--json", "--scorer", "lenient"]);
      assert.equal(r.code, 0, r.stderr);
      const [run] = JSON.parse(r.stdout).runs;
      assert.equal(run.scorer, "lenient");
      assert.equal(run.rows_quarantined, 0);
      const correct = Object.fromEntries(TASKS.map((t) => [t, run.tasks[t].correct]));
      assert.deepEqual(correct, expected);
      assert.equal(run.tasks.snarks.n, 178);
    } finally {
      Deno.removeSync(tmp, { recursive: true });
    }
  },
);
