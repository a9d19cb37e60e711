/**
 * The BIG-Bench Mistake release as its files hold it, without polars (scoring Workers read it):
 * one JSONL file per task (`big-bench-mistake/<task>.jsonl`); every line holds `input`, `steps`
 * (one string per "Thought"), `answer` (the trace's final answer, may be null), `target` and
 * `mistake_index` (0-based index of the first logical mistake, null = none).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { readBbmRelease } from "@runlens/benchmarks/bbm/release.ts";
 * const traces = readBbmRelease(resolveDataDir());
 * assert.equal(traces.length, 2186);
 * assert.deepEqual(traces[0].steps.length, 16); // dyck_languages trace 0
 * ```
 * @module
 */
import { basename, join, resolve } from "node:path";
import { exists, FETCH_HINT } from "../../core/data_dir.ts";
import { parseJsonObjectLine } from "../../core/json_line.ts";

/** The five BBM tasks of the public release, in file-name order. */
export const BBM_TASKS = [
  "dyck_languages",
  "logical_deduction",
  "multistep_arithmetic",
  "tracking_shuffled_objects",
  "word_sorting",
] as const;

/** One BBM trace as the loader reads it. */
export interface BbmTrace {
  /** The BBH task the trace answers. */
  task: string;
  /** 0-based line position in the task file. */
  trace_index: number;
  /** The question. */
  input: string;
  /** The chain-of-thought steps, in order. */
  steps: string[];
  /** The trace's final answer; null when it has none. */
  answer: string | null;
  /** The question's right answer. */
  target: string;
  /** 0-based index of the first mistake step; null = no mistake. */
  mistake_index: number | null;
}

/**
 * Find the BBM folder under `dir`: the data root (holding `big-bench-mistake/`) or the folder
 * itself (holding `*.jsonl`). Throws a clear error otherwise.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { join } from "node:path";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const dir = resolveDataDir();
 * assert.equal(findBbmDir(dir), join(dir, "big-bench-mistake")); // from the data root
 * assert.equal(findBbmDir(join(dir, "big-bench-mistake")), join(dir, "big-bench-mistake"));
 * ```
 */
export function findBbmDir(dir: string): string {
  if (!exists(dir)) throw new Error(`data directory ${dir} does not exist; ${FETCH_HINT}`);
  const nested = join(dir, "big-bench-mistake");
  if (exists(nested)) return nested;
  if (jsonlFiles(dir).length > 0) return dir;
  throw new Error(
    `${dir} holds no BIG-Bench Mistake release: expected big-bench-mistake/<task>.jsonl; ` +
      FETCH_HINT,
  );
}

function jsonlFiles(dir: string): string[] {
  return [...Deno.readDirSync(dir)]
    .filter((e) => e.isFile && e.name.endsWith(".jsonl"))
    .map((e) => e.name)
    .sort();
}

/**
 * Parse the text of one BBM JSONL file. Errors name the file and the 1-based line.
 * A final newline is allowed; any other empty line is an error (it would shift trace indices).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const line = '{"input":"q","steps":["a","b"],"answer":"x","target":"x","mistake_index":null}';
 * const [trace] = parseBbmJsonl(line + "\n", "t.jsonl", "t");
 * assert.deepEqual(trace.steps, ["a", "b"]);
 * const gap = line + "\n\n" + line; // an empty line would shift trace indices
 * assert.throws(() => parseBbmJsonl(gap, "t.jsonl", "t"), /t\.jsonl:2: empty line/);
 * ```
 */
export function parseBbmJsonl(text: string, file: string, task: string): BbmTrace[] {
  const lines = text.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines.map((raw, i) => parseLine(raw.endsWith("\r") ? raw.slice(0, -1) : raw, i));

  function parseLine(line: string, i: number): BbmTrace {
    const where = `${file}:${i + 1}`;
    if (line.trim() === "") throw new Error(`${where}: empty line (one trace per line expected)`);
    const r = parseJsonObjectLine(line, where);
    if (typeof r.input !== "string") throw new Error(`${where}: "input" must be a string`);
    if (typeof r.target !== "string") throw new Error(`${where}: "target" must be a string`);
    if (!Array.isArray(r.steps) || !r.steps.every((s) => typeof s === "string")) {
      throw new Error(`${where}: "steps" must be a list of strings`);
    }
    if (r.answer !== null && r.answer !== undefined && typeof r.answer !== "string") {
      throw new Error(`${where}: "answer" must be a string or null`);
    }
    const mi = r.mistake_index ?? null;
    if (mi !== null && (!Number.isInteger(mi) || (mi as number) < 0)) {
      throw new Error(`${where}: "mistake_index" must be a non-negative integer or null`);
    }
    if (mi !== null && (mi as number) >= r.steps.length) {
      throw new Error(
        `${where}: "mistake_index" ${mi} is past the last step (${r.steps.length} steps)`,
      );
    }
    return {
      task,
      trace_index: i,
      input: r.input,
      steps: r.steps as string[],
      answer: (r.answer as string | null | undefined) ?? null,
      target: r.target,
      mistake_index: mi as number | null,
    };
  }
}

/**
 * Every trace of the release under `dataDir` (the data root or the folder itself): its
 * `*.jsonl` files in file-name order, each file's traces in line order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const traces = readBbmRelease("tests/fixtures/bbm"); // a toy release, same layout
 * assert.deepEqual([...new Set(traces.map((t) => t.task))], ["multistep_arithmetic", "word_sorting"]);
 * ```
 */
export function readBbmRelease(dataDir: string): BbmTrace[] {
  const dir = resolve(findBbmDir(dataDir));
  const files = jsonlFiles(dir);
  if (files.length === 0) throw new Error(`${dir}: no *.jsonl files; ${FETCH_HINT}`);
  return files.flatMap((f) => readBbmFile(join(dir, f)));
}

/** The traces of one task file (the task is the file name without `.jsonl`). */
export function readBbmFile(path: string): BbmTrace[] {
  const task = basename(path).replace(/\.jsonl$/, "");
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch (e) {
    throw new Error(`${path}: cannot read (${(e as Error).message})`);
  }
  return parseBbmJsonl(text, path, task);
}
