/**
 * Test helper for issue 14's shapes (`shapes.test.ts`): write run logs the way people's own
 * scripts write them, from the real BBH and BBEH data sets, remembering for every record the
 * example it was built from; run `runlens score` on them as a user does (a subprocess, no
 * flags); and write the same records as a canonical JSONL with explicit benchmark, task and
 * `example_index`, to compare verdicts row by row.
 *
 * @example Not run as a doc test (needs the data directory)
 * ```ts ignore
 * const log = new ShapeLog("navigate-zero-shot-cot.jsonl");
 * log.add({ benchmark: "bbh", task: "navigate", example_index: 0, response: "…" }, record);
 * log.write(dir, "jsonl");
 * ```
 * @module
 */
import { dirname, join } from "node:path";
import { runCli } from "./_cli.ts";

/** What a record was built from: the example it must be identified as, and its response. */
export interface Built {
  benchmark: string;
  task: string;
  example_index: number;
  response: string;
  /** The target the record carries when it is another data-set version's (canonical too). */
  versionTarget?: string;
  /** The verdict its response was built to get (a response with the target or a wrong one). */
  correct?: boolean;
  /** The run it must be counted under. */
  run?: string;
  /** Set when the record must be quarantined instead: a part of the expected reason. */
  quarantined?: string;
}

/** One log file being built: its records in file order and what each was built from. */
export class ShapeLog {
  readonly built: Built[] = [];
  readonly records: (Record<string, unknown> | string[])[] = [];
  constructor(readonly name: string) {}

  /** Append a record and what it was built from. */
  add(built: Built, record: Record<string, unknown> | string[]): this {
    this.built.push(built);
    this.records.push(record);
    return this;
  }

  /** Write the file under `dir`: JSON lines, or a CSV (`header` first when given). */
  write(dir: string, header: string[] | null = null): string {
    const path = join(dir, this.name);
    Deno.mkdirSync(dirname(path), { recursive: true });
    const text = Array.isArray(this.records[0]) || header !== null
      ? csv([...(header ? [header] : []), ...this.records.map(csvCells(header))])
      : this.records.map((r) => JSON.stringify(r)).join("\n") + "\n";
    Deno.writeTextFileSync(path, text);
    return path;
  }
}

/** A record as CSV cells: an array as it is, an object's values in `header`'s order. */
const csvCells = (header: string[] | null) => (r: Record<string, unknown> | string[]) =>
  Array.isArray(r) ? r : header!.map((h) => String(r[h] ?? ""));

/** RFC 4180 CSV: every cell quoted, quotes doubled, CRLF between records. */
export function csv(rows: readonly (readonly string[])[]): string {
  return rows.map((r) => r.map((c) => `"${c.replaceAll('"', '""')}"`).join(",")).join("\r\n") +
    "\r\n";
}

/** A response that answers `answer` in the form the benchmark's default scorer reads. */
export function answerWith(benchmark: string, answer: string): string {
  return benchmark === "bbeh"
    ? `Let me work through it.\nThe answer is: ${answer}`
    : `Let's think step by step. Some reasoning here. So the answer is ${answer}.`;
}

/** A wrong answer no BBH or BBEH target equals. */
export const WRONG = "zzz-not-an-answer";

/** The canonical JSONL of `logs`' records that are not to be quarantined. */
export function canonicalOf(logs: readonly { log: ShapeLog; run: string }[]): string {
  const lines: string[] = [];
  for (const { log, run } of logs) {
    for (const b of log.built) {
      if (b.quarantined) continue;
      lines.push(JSON.stringify({
        run: b.run ?? run,
        benchmark: b.benchmark,
        task: b.task,
        example_index: b.example_index,
        ...(b.versionTarget ? { target: b.versionTarget } : {}),
        response: b.response,
      }));
    }
  }
  return lines.join("\n") + "\n";
}

/** One scored row of `--rows`. */
export interface ScoredRow {
  run: string;
  model: string;
  benchmark: string;
  scorer: string;
  task: string;
  example_index: number;
  epoch: number;
  source_file: string;
  source_line: number;
  /** The answer the scorer read (the row schema's `extracted`). */
  answer: string | null;
  answer_found: boolean | null;
  correct: boolean | null;
  data_version: string | null;
}

/** What `runlens score PATHS --json --rows …` printed and wrote. */
export interface Scored {
  // deno-lint-ignore no-explicit-any
  report: any;
  rows: ScoredRow[];
  stderr: string;
  code: number;
}

/**
 * `runlens score paths… --json` with no other flag than `--data` (and `--rows` to a file of
 * `work`), the cache kept in `work` through `$RUNLENS_CACHE`.
 */
export async function score(
  paths: string[],
  dataDir: string,
  work: string,
  extra: string[] = [],
): Promise<Scored> {
  const rowsFile = join(work, `rows_${crypto.randomUUID()}.jsonl`);
  const { code, stdout, stderr } = await runCli(
    ["score", ...paths, "--json", "--data", dataDir, "--rows", rowsFile, ...extra],
    { env: { RUNLENS_CACHE: join(work, "cache") } },
  );
  // exit 1 with a report: a file not read or a run with nothing scored, the rest scored
  const report = code === 0 || code === 1 ? jsonOrNull(stdout) : null;
  if (report === null) return { report: null, rows: [], stderr, code };
  const rows = Deno.readTextFileSync(rowsFile).split("\n").filter((l) => l !== "")
    .map((l) => JSON.parse(l) as ScoredRow);
  return { report, rows, stderr, code };
}

/** `text` parsed as JSON, null when it is none. */
function jsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** `run|benchmark|task|example_index|epoch`: a scored row's key across two loads. */
export const rowKey = (r: Pick<ScoredRow, "run" | "benchmark" | "task" | "example_index">) =>
  `${r.run}|${r.benchmark}|${r.task}|${r.example_index}`;

/** The BBH release's few-shot prompts and Codex responses of one task (data-set order). */
export function releaseOutputs(dir: string, run: string, task: string) {
  const path = join(
    dir,
    "bbh",
    "code-davinci-002-outputs",
    run,
    `${task}_few_shot_template_0-255000.json`,
  );
  return (JSON.parse(Deno.readTextFileSync(path)) as {
    outputs: { input: string; prediction: string; target: string }[];
  }).outputs;
}

/** The whole question of snarks 88 (the release's input stops at its first "A:"). */
export function wholeSnarks88(data: string): string {
  const prompt = releaseOutputs(data, "code-davinci-002-cot", "snarks")[88].input;
  return prompt.slice(prompt.lastIndexOf("\n\nQ: ") + 5, prompt.lastIndexOf("\nA: "));
}
