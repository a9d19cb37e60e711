/**
 * The BBH release's model outputs as runlens rows: `bbh/code-davinci-002-outputs/
 * code-davinci-002-{cot,direct}/<task>_few_shot_template_0-255000.json`, each
 * `{"canary", "outputs": [{"input": 3-shot prompt + question, "prediction", "target"}]}` in the
 * order of `bbh/<task>.json`.
 *
 * Every record is checked against the data set at the same position: the prompt must END with
 * the data-set question followed by the answer cue ("\nA: Let's think step by step." for CoT,
 * "\nA:" for direct) and the targets must be equal; other records are quarantined
 * (file, line = position + 1, reason). One known data-set defect is accepted and recorded in
 * `extra`: snarks example 88, whose data-set input stops at "(A) The NB" while the prompt
 * holds the whole question (`{"prompt_question": …}`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadBbhReleaseOutputs } from "@runlens/benchmarks/bbh/release_outputs.ts";
 * const { rows, quarantine } = loadBbhReleaseOutputs(resolveDataDir());
 * assert.equal(rows.height, 2 * 6511);
 * assert.equal(quarantine.length, 0);
 * const snarks = rows.filter(pl.col("task").eq(pl.lit("snarks")));
 * const row88 = snarks.filter(pl.col("example_index").eq(88));
 * const extra = JSON.parse(row88.getColumn("extra").get(0));
 * assert.ok(extra.prompt_question.includes("(B)")); // the whole question, both options
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { join } from "node:path";
import { exists, FETCH_HINT } from "../../core/data_dir.ts";
import { pyLen } from "../../core/python.ts";
import { quarantineEntry, type RunQuarantine } from "../../logs/quarantine.ts";
import { conformRows } from "../../core/schema.ts";
import { scoreFrame } from "../../scorers/frame.ts";
import { bbhReleaseCot } from "./scorers/release_cot.ts";
import { bbhReleaseDirect } from "./scorers/release_direct.ts";
import { findBbhTaskDir, readBbhTaskFile } from "./examples.ts";
import { BBH_TASKS, bbhTask } from "./tasks.ts";

/** The model of the released outputs. */
export const BBH_RELEASE_MODEL = "code-davinci-002";

/** One released run. */
export interface BbhReleaseRun {
  /** Run id and folder name, e.g. `code-davinci-002-cot`. */
  run: string;
  /** What the prompt ends with after the question. */
  cue: string;
  /** The registry rule that reproduces the run's published accuracies. */
  scorer: string;
}

/** The two released runs. */
export const BBH_RELEASE_RUNS: readonly BbhReleaseRun[] = [
  { run: "code-davinci-002-cot", cue: "\nA: Let's think step by step.", scorer: "bbh-release-cot" },
  { run: "code-davinci-002-direct", cue: "\nA:", scorer: "bbh-release-direct" },
];

/**
 * File-name stem of a task's outputs (`<stem>.json`, `<stem>_eval_metrics.jsonl`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(bbhOutputStem("navigate"), "navigate_few_shot_template_0-255000");
 * ```
 */
export function bbhOutputStem(task: string): string {
  return `${task}_few_shot_template_0-255000`;
}

/**
 * The folder holding `code-davinci-002-cot/` and `code-davinci-002-direct/`: accepts the data
 * root, the BBH release, or the outputs folder itself; throws a clear error otherwise.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { join } from "node:path";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const dir = resolveDataDir();
 * assert.equal(findBbhOutputsDir(dir), join(dir, "bbh", "code-davinci-002-outputs"));
 * ```
 */
export function findBbhOutputsDir(dir: string): string {
  if (!exists(dir)) throw new Error(`data directory ${dir} does not exist; ${FETCH_HINT}`);
  const name = "code-davinci-002-outputs";
  for (const c of [join(dir, "bbh", name), join(dir, name), dir]) {
    if (exists(join(c, BBH_RELEASE_RUNS[0].run))) return c;
  }
  throw new Error(
    `${dir} holds no BBH model outputs: expected bbh/${name}/${BBH_RELEASE_RUNS[0].run}/ ` +
      `under it; ${FETCH_HINT}`,
  );
}

interface OutputRecord {
  input?: unknown;
  prediction?: unknown;
  target?: unknown;
}

function readOutputs(path: string): OutputRecord[] {
  if (!exists(path)) throw new Error(`BBH model outputs incomplete: ${path} is missing`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Deno.readTextFileSync(path));
  } catch (e) {
    throw new Error(`${path}: not valid JSON (${(e as Error).message})`);
  }
  const outputs = (parsed as { outputs?: unknown }).outputs;
  if (!Array.isArray(outputs)) throw new Error(`${path}: no "outputs" array`);
  return outputs as OutputRecord[];
}

/**
 * Check a record against its data-set example: a quarantine reason, or the prompt's own
 * question when the data-set input is only a prefix of it (null when they agree).
 */
function checkRecord(
  rec: OutputRecord,
  question: string | undefined,
  target: string | undefined,
  cue: string,
): { reason: string } | { promptQuestion: string | null } {
  if (typeof rec.input !== "string" || typeof rec.prediction !== "string") {
    return { reason: 'record lacks a string "input" or "prediction"' };
  }
  if (question === undefined || target === undefined) {
    return { reason: "no data-set example at this position" };
  }
  if (rec.target !== target) {
    return {
      reason: `target ${JSON.stringify(rec.target)} differs from the data set's ` +
        JSON.stringify(target),
    };
  }
  if (!rec.input.endsWith(cue)) {
    return { reason: `prompt does not end with the answer cue ${JSON.stringify(cue)}` };
  }
  const body = rec.input.slice(0, rec.input.length - cue.length);
  if (body.endsWith(question)) return { promptQuestion: null };
  const at = body.lastIndexOf(`Q: ${question}`);
  if (at >= 0 && !body.slice(at).includes("\n\nQ: ")) {
    return { promptQuestion: body.slice(at + 3) }; // data-set input truncated (snarks 88)
  }
  return { reason: "prompt does not end with the data-set question" };
}

/** Rows and quarantined records of the released outputs. */
export interface BbhReleaseOutputs {
  /** Row-schema frame, scored with each run's release rule (see {@link BbhReleaseRun}). */
  rows: pl.DataFrame;
  /** Records that could not be scored, with the run each counts against. */
  quarantine: RunQuarantine[];
}

/**
 * Load the released outputs (both runs, all 27 tasks by default) as scored rows.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const { rows } = loadBbhReleaseOutputs(resolveDataDir(), {
 *   runs: ["code-davinci-002-cot"],
 *   tasks: ["navigate"],
 * });
 * assert.equal(rows.height, 250);
 * assert.equal(rows.getColumn("scorer").get(0), "bbh-release-cot");
 * assert.equal(rows.filter(pl.col("correct")).height, 241); // the published 96.4%
 * ```
 */
export function loadBbhReleaseOutputs(
  dataDir: string,
  opts: { runs?: readonly string[]; tasks?: readonly string[] } = {},
): BbhReleaseOutputs {
  const outputsDir = findBbhOutputsDir(dataDir);
  const taskDir = findBbhTaskDir(dataDir);
  const runs = BBH_RELEASE_RUNS.filter((r) => !opts.runs || opts.runs.includes(r.run));
  const tasks = (opts.tasks ?? BBH_TASKS.map((t) => t.name)).map((t) => bbhTask(t).name);
  const quarantine: RunQuarantine[] = [];
  const frames: pl.DataFrame[] = [];
  const datasets = new Map(tasks.map((t) => [t, readBbhTaskFile(join(taskDir, `${t}.json`))]));
  for (const r of runs) {
    const cols = emptyColumns();
    for (const task of tasks) {
      const path = join(outputsDir, r.run, `${bbhOutputStem(task)}.json`);
      const examples = datasets.get(task)!;
      readOutputs(path).forEach((rec, i) => {
        const ex = examples[i];
        const check = checkRecord(rec, ex?.input, ex?.target, r.cue);
        if ("reason" in check) {
          quarantine.push({ run: r.run, entry: quarantineEntry(path, i + 1, check.reason) });
          return;
        }
        pushRow(cols, {
          run: r.run,
          task,
          index: i,
          input: ex.input,
          target: ex.target,
          response: rec.prediction as string,
          file: path,
          extra: check.promptQuestion === null
            ? null
            : JSON.stringify({ prompt_question: check.promptQuestion }),
        });
      });
    }
    const scorer = [bbhReleaseCot, bbhReleaseDirect].find((x) => x.name === r.scorer)!;
    frames.push(scoreFrame(toFrame(cols).lazy(), scorer));
  }
  const rows = frames.length > 0 ? pl.concat(frames) : toFrame(emptyColumns());
  return { rows: conformRows(rows), quarantine };
}

function emptyColumns() {
  return {
    run: [] as string[],
    task: [] as string[],
    example_index: [] as number[],
    input: [] as string[],
    target: [] as string[],
    response: [] as string[],
    input_chars: [] as number[],
    response_chars: [] as number[],
    source_file: [] as string[],
    source_line: [] as number[],
    extra: [] as (string | null)[],
  };
}

function pushRow(
  cols: ReturnType<typeof emptyColumns>,
  r: {
    run: string;
    task: string;
    index: number;
    input: string;
    target: string;
    response: string;
    file: string;
    extra: string | null;
  },
): void {
  cols.run.push(r.run);
  cols.task.push(r.task);
  cols.example_index.push(r.index);
  cols.input.push(r.input);
  cols.target.push(r.target);
  cols.response.push(r.response);
  cols.input_chars.push(pyLen(r.input));
  cols.response_chars.push(pyLen(r.response));
  cols.source_file.push(r.file);
  cols.source_line.push(r.index + 1);
  cols.extra.push(r.extra);
}

function toFrame(cols: ReturnType<typeof emptyColumns>): pl.DataFrame {
  const n = cols.run.length;
  const nulls = (dtype: pl.DataType, name: string) => pl.Series(name, Array(n).fill(null), dtype);
  return pl.DataFrame({
    run: pl.Series("run", cols.run, pl.Utf8),
    model: pl.Series("model", Array(n).fill(BBH_RELEASE_MODEL), pl.Utf8),
    benchmark: pl.Series("benchmark", Array(n).fill("bbh"), pl.Utf8),
    task: pl.Series("task", cols.task, pl.Utf8),
    example_index: pl.Series("example_index", cols.example_index, pl.Int32),
    example_id: nulls(pl.Utf8, "example_id"),
    subset: nulls(pl.Utf8, "subset"),
    epoch: pl.Series("epoch", Array(n).fill(1), pl.Int32),
    input: pl.Series("input", cols.input, pl.Utf8),
    target: pl.Series("target", cols.target, pl.Utf8),
    response: pl.Series("response", cols.response, pl.Utf8),
    extracted: nulls(pl.Utf8, "extracted"),
    correct: nulls(pl.Bool, "correct"),
    scorer: pl.Series("scorer", Array(n).fill(""), pl.Utf8),
    input_chars: pl.Series("input_chars", cols.input_chars, pl.Int32),
    response_chars: pl.Series("response_chars", cols.response_chars, pl.Int32),
    response_tokens: nulls(pl.Int32, "response_tokens"),
    source_file: pl.Series("source_file", cols.source_file, pl.Utf8),
    source_line: pl.Series("source_line", cols.source_line, pl.Int32),
    stored_correct: nulls(pl.Bool, "stored_correct"),
    extra: pl.Series("extra", cols.extra, pl.Utf8),
  });
}
