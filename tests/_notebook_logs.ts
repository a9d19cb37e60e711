/**
 * Test helper: a small logs folder for the notebooks, generated at test time from the data
 * sets, in the shapes a user brings to `deno task main --logs DIR`:
 * - `bbh`: an lm-evaluation-harness `--log_samples` folder of one model (three BBH tasks);
 * - `bbeh`: a script's canonical JSONL of the same model on four BBEH tasks (among them the
 *   first-mistake task dyck_languages), and one of a second model;
 * - `mixed`: both, side by side in one folder.
 *
 * Every third response is wrong; nothing of the data sets is kept in the repository.
 *
 * @example Not run as a doc test (needs the data directory)
 * ```ts ignore
 * const dir = Deno.makeTempDirSync();
 * const logs = writeNotebookLogs(TEST_DATA_DIR, dir, "mixed");
 * logs.rows.bbh; // 36 BBH rows of run org__tiny-model_<date>
 * ```
 * @module
 */
import { join } from "node:path";
import { answerWith, WRONG } from "./_shapes.ts";
import { writeLmEvalLog } from "./_answer_logs.ts";
import { readBbehExamples } from "./_examples.ts";
import { writeJsonl } from "./_runs.ts";

/** Which benchmarks' logs the folder holds. */
export type LogsKind = "bbh" | "bbeh" | "mixed";

/**
 * The BBH tasks of the lm-eval folder: two are the BBH counterparts of BBEH tasks below (BBEH
 * paper Table 1), so that Table 10 and Figure 4 have a model with both runs; snarks has none.
 */
export const BBH_LOG_TASKS = ["dyck_languages", "object_counting", "snarks"] as const;
/** The BBEH tasks of the canonical logs (dyck_languages: a first-mistake task). */
export const BBEH_LOG_TASKS = [
  "dyck_languages",
  "boardgame_qa",
  "object_counting",
  "linguini",
] as const;
/** Examples per task. */
export const PER_TASK = 12;
/** The model of both the BBH and the first BBEH run (Table 10 needs a model with both). */
export const MODEL = "org/tiny-model";
/** How lm-eval's folder names it (`org__tiny-model`); the harness records `org/tiny-model`. */
const LM_EVAL_MODEL = "tiny-model";

/** What was written: the folder and the rows per benchmark. */
export interface NotebookLogs {
  dir: string;
  rows: { bbh: number; bbeh: number };
}

/** Whether the i-th response of a log is right (two in three are). */
const right = (i: number) => i % 3 !== 2;

/** Write the `kind` logs into `dir` (created). */
export function writeNotebookLogs(dataDir: string, dir: string, kind: LogsKind): NotebookLogs {
  Deno.mkdirSync(dir, { recursive: true });
  const rows = { bbh: 0, bbeh: 0 };
  if (kind !== "bbeh") {
    writeLmEvalLog(
      dataDir,
      join(dir, "lm_eval"),
      LM_EVAL_MODEL,
      BBH_LOG_TASKS,
      PER_TASK,
      (i, target) => ({
        response: answerWith("bbh", right(i) ? target : "(Q)"),
        stored: right(i),
      }),
    );
    rows.bbh = BBH_LOG_TASKS.length * PER_TASK;
  }
  if (kind !== "bbh") {
    const examples = readBbehExamples(dataDir);
    for (
      const [run, model, offset] of [["tiny-model-bbeh", MODEL, 0], ["other-bbeh", "other", 1]]
    ) {
      const records = BBEH_LOG_TASKS.flatMap((task) =>
        examples[task].slice(0, PER_TASK).map((e, i) => ({
          run,
          model,
          benchmark: "bbeh",
          task,
          example_index: i,
          response: answerWith("bbeh", right(i + Number(offset)) ? e.target : WRONG),
        }))
      );
      writeJsonl(join(dir, `${run}.jsonl`), records);
      rows.bbeh += records.length;
    }
  }
  return { dir, rows };
}
