/**
 * `lenient` on responses that end with something other than their answer (a second review of
 * issue 22, findings N3 and N4): a chat sign-off after a `Label: value` answer, a JSON object
 * with an `answer` key followed by a chat line, a remark after a labelled answer. Logs are
 * written at test time from BBH's word_sorting, date_understanding and object_counting; the
 * truth is counted from the answers written (the target, or the target's words reversed).
 */
import assert from "node:assert/strict";
import { runCli } from "./_cli.ts";
import { dataTest } from "./_data.ts";
import { type Answer, writeChatLog } from "./_answer_logs.ts";
import { withTempDir } from "./_tmp.ts";

const N = 60;
/** The answer written for example i: the target when i % 3 > 0, else its words reversed. */
const written = (i: number, target: string) =>
  i % 3 > 0 ? target : target.split(" ").reverse().join(" ");

/** Score `tasks` of a log in one convention with lenient; per task [correct, no answer]. */
async function lenientCounts(data: string, tasks: string[], answer: Answer) {
  return await withTempDir(async (dir) => {
    const rows = writeChatLog(data, dir, tasks, N, answer);
    const out = await runCli(["score", dir, "--data", data, "--json", "--scorer", "lenient"]);
    assert.equal(out.code, 0, out.stderr);
    const [run] = JSON.parse(out.stdout).runs;
    return tasks.map((t) => ({
      got: [run.tasks[t].correct, run.tasks[t].no_answer],
      truth: rows[t].filter((r, i) => written(i, r.target) === r.target).length,
    }));
  });
}

dataTest("lenient: a chat sign-off after the answer is not the answer", async (data) => {
  const counts = await lenientCounts(
    data,
    ["word_sorting"],
    (i, t) => `Let me work through it.\nThe result is: ${written(i, t)}\nHope this helps!`,
  );
  for (const { got, truth } of counts) assert.deepEqual(got, [truth, 0]);
});

dataTest("lenient: a JSON answer followed by a chat line", async (data) => {
  const tasks = ["date_understanding", "object_counting", "word_sorting"];
  const counts = await lenientCounts(data, tasks, (i, t) => {
    const answer = written(i, t).replace(/^\((.)\)$/, "$1"); // the letter alone, as JSON has it
    return `Here is my output:\n${JSON.stringify({ reasoning: "checked", answer })}\n` +
      "Let me know if you need anything else!";
  });
  for (const { got, truth } of counts) assert.deepEqual(got, [truth, 0]);
});

dataTest("lenient: a remark after a labelled answer", async (data) => {
  const counts = await lenientCounts(
    data,
    ["word_sorting"],
    (i, t) =>
      `Sorted list: ${written(i, t)}\n` +
      "I compared the words letter by letter, first by their first letter and then the next.",
  );
  for (const { got, truth } of counts) assert.deepEqual(got, [truth, 0]);
});
