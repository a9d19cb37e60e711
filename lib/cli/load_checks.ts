/**
 * When a command that loads run logs (`score`, `analyze`, `compare`, `report`) must exit 1
 * although it printed its output: a file that could not be read (the others were used), a
 * run with nothing scored (every record quarantined, or no record at all) always, and with
 * `--strict` a run most of whose answers (more than {@link STRICT_NO_ANSWER_SHARE}) the scorer
 * did not find, and a run × task where another applicable rule scores clearly more rows right
 * (the "rules disagree" advice, `pipeline/advice.ts`): the scorer then likely misreads the
 * responses' convention, even if it found an answer in every one. A table of zeros is then
 * never a success for a script.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { LoadedRuns } from "../pipeline/load.ts";
 * const run = { run: "r", benchmark: "bbh", rows_in: 4, rows_scored: 4, rows_quarantined: 0,
 *   no_answer: 3 };
 * const loaded = { runs: [run], errors: [] } as unknown as LoadedRuns;
 * assert.deepEqual(loadFailures(loaded, false), []);
 * assert.deepEqual(loadFailures(loaded, true), [
 *   "run r (bbh): no answer found in 3 of 4 responses; --strict fails a run when most of its " +
 *   "answers are not found (the scorer to try instead is named above)",
 * ]);
 * ```
 * @module
 */
import { count } from "../core/count.ts";
import { printError } from "../core/terminal.ts";
import type { Advice, DisagreeAdvice } from "../pipeline/advice.ts";
import type { LoadedRuns } from "../pipeline/load.ts";

/** The share of a run's responses without an answer above which `--strict` fails. */
export const STRICT_NO_ANSWER_SHARE = 0.5;

/** The positional argument of the commands that load logs. */
export const LOG_PATHS = {
  "paths…": "run logs (canonical .jsonl/.csv, lm-eval samples, inspect_ai .eval/.json, " +
    "OpenCompass predictions/results, mcpbr results.json, openai/evals .log; gzip-compressed " +
    "too) or folders holding them",
};

/** When a command that loads logs exits 1 (its help's exit codes). */
export const LOAD_FAILURE = "a file could not be read (the others are used), a run had " +
  "nothing scored (all its records quarantined), no record was scored at all, or, with " +
  "--strict, most answers of a run were not found or another rule scores clearly more of a " +
  "task's answers right";

/**
 * Why the command must exit 1 after its output (empty: it need not): one message per file
 * that could not be read, per run with nothing scored, under `strict` per run with most
 * answers not found and per run × task where rules disagree, or for a load that scored nothing
 * at all.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { LoadedRuns } from "../pipeline/load.ts";
 * const empty = { run: "r", benchmark: "bbh", rows_in: 2, rows_scored: 0, rows_quarantined: 2,
 *   no_answer: 0 };
 * assert.deepEqual(loadFailures({ runs: [empty], errors: [] } as unknown as LoadedRuns, false), [
 *   "run r: nothing scored (2 records in, 2 quarantined: see the quarantine)",
 * ]);
 * const unread = { file: "b.jsonl", reason: "not UTF-8" };
 * assert.deepEqual(loadFailures({ runs: [], errors: [unread] } as unknown as LoadedRuns, false), [
 *   "b.jsonl: not UTF-8",
 * ]);
 * assert.deepEqual(loadFailures({ runs: [], errors: [] } as unknown as LoadedRuns, false), [
 *   "no record was scored",
 * ]);
 * ```
 */
export function loadFailures(
  loaded: Pick<LoadedRuns, "runs" | "errors"> & { advice?: Pick<Advice, "disagree"> },
  strict: boolean,
): string[] {
  const unread = loaded.errors.map((e) => `${e.file}: ${e.reason}`);
  if (loaded.runs.length === 0) return unread.length > 0 ? unread : ["no record was scored"];
  const strictFailures = strict
    ? [...unanswered(loaded), ...(loaded.advice?.disagree ?? []).map(disagreeing)]
    : [];
  return [...unread, ...emptyRuns(loaded), ...strictFailures];
}

/**
 * A run × task where another rule scores clearly more rows right, as a failure of `--strict`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const best = { scorer: "lenient", answers: 50, formed: 50, correct: 35 };
 * const cell = { run: "r", benchmark: "bbh", several_benchmarks: false, task: "navigate",
 *   scorer: "bbh-release-cot", used_correct: 0, n: 50, tried: 50, sampled: false,
 *   scorers: [best], best };
 * assert.equal(
 *   disagreeing(cell),
 *   "run r (bbh), task navigate: lenient scores 35 of 50 tried right, bbh-release-cot 0; " +
 *     "--strict fails a run when another rule scores clearly more answers right (rules " +
 *     "disagree, above)",
 * );
 * ```
 */
export function disagreeing(a: DisagreeAdvice): string {
  return `run ${a.run} (${a.benchmark}), task ${a.task}: ${a.best.scorer} scores ` +
    `${count(a.best.correct)} of ${count(a.tried)} tried right, ${a.scorer} ` +
    `${count(a.used_correct)}; --strict fails a run when another rule scores clearly more ` +
    "answers right (rules disagree, above)";
}

/** Runs (all their benchmarks together) with no scored row. */
function emptyRuns(loaded: Pick<LoadedRuns, "runs">): string[] {
  const byRun = Map.groupBy(loaded.runs, (r) => r.run);
  return [...byRun].filter(([, parts]) => parts.every((r) => r.rows_scored === 0))
    .map(([run, parts]) => {
      const sum = (k: "rows_in" | "rows_quarantined") => parts.reduce((s, r) => s + r[k], 0);
      const records = sum("rows_in") === 1 ? "record" : "records";
      return `run ${run}: nothing scored (${count(sum("rows_in"))} ${records} in, ` +
        `${count(sum("rows_quarantined"))} quarantined: see the quarantine)`;
    });
}

/** Runs (per benchmark) most of whose answers were not found. */
function unanswered(loaded: Pick<LoadedRuns, "runs">): string[] {
  return loaded.runs.filter((r) => r.no_answer > STRICT_NO_ANSWER_SHARE * r.rows_scored)
    .map((r) =>
      `run ${r.run} (${r.benchmark}): no answer found in ${count(r.no_answer)} of ` +
      `${count(r.rows_scored)} responses; --strict fails a run when most of its answers are ` +
      "not found (the scorer to try instead is named above)"
    );
}

/**
 * Print each of {@link loadFailures} on stderr as `runlens <command>: …` and return the exit
 * code they call for (0 or 1).
 */
export function reportLoadFailures(command: string, loaded: LoadedRuns, strict: boolean): 0 | 1 {
  const failures = loadFailures(loaded, strict);
  for (const f of failures) printError(`runlens ${command}`, f);
  return failures.length > 0 ? 1 : 0;
}
