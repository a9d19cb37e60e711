/**
 * When a command that loads run logs (`score`, `analyze`, `compare`, `report`) must exit 1
 * although it printed its output: a file that could not be read (the others were used), a
 * run with nothing scored (every record quarantined, or no record at all) always, and with
 * `--strict` a run most of whose answers (more than {@link STRICT_NO_ANSWER_SHARE}) the scorer
 * did not find. A table of zeros is then never a success for a script.
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
  "--strict, most answers of a run were not found";

/**
 * Why the command must exit 1 after its output (empty: it need not): one message per file
 * that could not be read, per run with nothing scored, per run with most answers not found
 * under `strict`, or for a load that scored nothing at all.
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
  loaded: Pick<LoadedRuns, "runs" | "errors">,
  strict: boolean,
): string[] {
  const unread = loaded.errors.map((e) => `${e.file}: ${e.reason}`);
  if (loaded.runs.length === 0) return unread.length > 0 ? unread : ["no record was scored"];
  return [...unread, ...emptyRuns(loaded), ...(strict ? unanswered(loaded) : [])];
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
