/**
 * Test helper for the user-rule tests (`user_rules.test.ts`, `user_rules_cli.test.ts`): run
 * logs built from the BBH (or BBEH) data set whose answers are in a convention no built-in scorer reads,
 * `ANSWER=>…<=`, remembering for every record the verdict it was built to get.
 *
 * Records cycle through six kinds (by their position `i` in the data set, shifted per run):
 * 0. a wrong answer in the convention (found, wrong);
 * 1. the right answer in ANOTHER convention, "So the answer is …" (not found, wrong);
 * 2. the right answer as a bare option letter (`B` for `(B)`), else the target upper-cased
 *    (BBEH: as it is);
 * 3. the target as it is;
 * 4. a wrong answer in the convention, then the right one: the LAST marker counts;
 * 5. the target as it is, after a long reasoning.
 *
 * @example Not run as a doc test (needs the data directory)
 * ```ts ignore
 * const log = arrowLog(dataDir, { runs: ["r1"] });
 * writeLines(`${dir}/log.jsonl`, log.records);
 * expectedTasks(log.built, "r1"); // task → {n, correct}
 * ```
 * @module
 */
import { dirname } from "node:path";
import { loadBbehDataset } from "@runlens/benchmarks/bbeh/dataset.ts";
import { loadBbhDataset } from "@runlens/benchmarks/bbh/dataset.ts";

/** The pattern of the convention, and the same rule as a module's `extract`. */
export const ARROW = "ANSWER=>(.*?)<=";

/** A wrong answer no BBH target means, in any answer space. */
export const WRONG = "zzz-not-an-answer";

/** What a record was built to get. */
export interface ArrowBuilt {
  run: string;
  task: string;
  example_index: number;
  /** The answer a rule reading the convention must extract (null: none there). */
  answer: string | null;
  correct: boolean;
}

/** How the convention writes an answer. */
export type Convention = (answer: string) => string;

/** `ANSWER=>…<=`. */
export const arrow: Convention = (a) => `ANSWER=>${a}<=`;

/** The response of kind `kind` (see the module documentation) for `target`. */
function response(
  kind: number,
  target: string,
  pad: string,
  upper: boolean,
  mark: Convention,
): { text: string; answer: string | null } {
  const letter = /^\(([A-Z])\)$/.exec(target)?.[1];
  const say = (a: string) => ({ text: `${pad}Let me think.\n${mark(a)}`, answer: a });
  switch (kind) {
    case 0:
      return say(WRONG);
    case 1:
      return { text: `${pad}Let me think. So the answer is ${target}.`, answer: null };
    case 2:
      return say(letter ?? (upper ? target.toUpperCase() : target));
    case 4:
      return {
        text: `${pad}First guess: ${mark(WRONG)}\nOn reflection:\n${mark(target)}`,
        answer: target,
      };
    default:
      return say(target);
  }
}

/**
 * Canonical JSONL records of the BBH (or BBEH) data set (`perTask` examples of each task, all when
 * absent) for each run, and what each was built to get. `pad` repeats a reasoning sentence
 * before each answer (to make a log big enough for the scoring Workers); `convention` writes
 * the answers (default {@link arrow}).
 */
export function arrowLog(
  dataDir: string,
  opts: {
    runs?: readonly string[];
    perTask?: number;
    pad?: number;
    benchmark?: "bbh" | "bbeh";
    convention?: Convention;
  } = {},
): { records: Record<string, unknown>[]; built: ArrowBuilt[] } {
  const benchmark = opts.benchmark ?? "bbh";
  const dataset = benchmark === "bbh" ? loadBbhDataset(dataDir) : loadBbehDataset(dataDir);
  const examples = dataset.select("task", "example_index", "target")
    .toRecords() as { task: string; example_index: number; target: string }[];
  const chosen = examples.filter((e) =>
    opts.perTask === undefined || e.example_index < opts.perTask
  );
  const pad = "Some careful reasoning about the question. ".repeat(opts.pad ?? 0);
  const records: Record<string, unknown>[] = [];
  const built: ArrowBuilt[] = [];
  (opts.runs ?? ["r1"]).forEach((run, shift) => {
    chosen.forEach((e, i) => {
      const kind = (i + shift) % 6;
      const r = response(
        kind,
        e.target,
        kind === 5 ? pad + pad : pad,
        benchmark === "bbh",
        opts.convention ?? arrow,
      );
      records.push({
        run,
        model: run,
        benchmark,
        task: e.task,
        example_index: e.example_index,
        response: r.text,
      });
      built.push({
        run,
        task: e.task,
        example_index: e.example_index,
        answer: r.answer,
        correct: kind >= 2,
      });
    });
  });
  return { records, built };
}

/** task → {n, correct} of a run, from what its records were built to get. */
export function expectedTasks(
  built: readonly ArrowBuilt[],
  run: string,
): Record<string, { n: number; correct: number }> {
  const out: Record<string, { n: number; correct: number }> = {};
  for (const b of built.filter((b) => b.run === run)) {
    const t = out[b.task] ??= { n: 0, correct: 0 };
    t.n++;
    if (b.correct) t.correct++;
  }
  return out;
}

/** Σ correct over the tasks of a summary (or of {@link expectedTasks}). */
export function totalCorrect(tasks: Record<string, { correct: number }>): number {
  return Object.values(tasks).reduce((s, t) => s + t.correct, 0);
}

/** A run's expected accuracy (percent) over all its records. */
export function expectedAccuracy(built: readonly ArrowBuilt[], run: string): number {
  const tasks = Object.values(expectedTasks(built, run));
  return totalCorrect(expectedTasks(built, run)) * 100 / tasks.reduce((s, t) => s + t.n, 0);
}

/** task → {n, correct} of a report's (or a load's) run summary. */
export function reportedTasks(
  tasks: Record<string, { n: number; correct: number }>,
): Record<string, { n: number; correct: number }> {
  return Object.fromEntries(
    Object.entries(tasks).map(([t, s]) => [t, { n: s.n, correct: s.correct }]),
  );
}

/** Write JSON lines (creating the folder). */
export function writeLines(path: string, records: readonly unknown[]): string {
  Deno.mkdirSync(dirname(path), { recursive: true });
  Deno.writeTextFileSync(path, records.map((r) => JSON.stringify(r)).join("\n") + "\n");
  return path;
}

/**
 * A rule module reading the convention: its `extract` (and no `match`: the typed matching),
 * named `name`. With `trace`, the module appends where it was loaded ("main" or "worker") to
 * that file each time it is imported.
 */
export function arrowModule(name: string, opts: { trace?: string; extra?: string } = {}): string {
  const trace = opts.trace === undefined ? "" : [
    'const where = "WorkerGlobalScope" in globalThis ? "worker" : "main";',
    `Deno.writeTextFileSync(${JSON.stringify(opts.trace)}, where + "\\n", { append: true });`,
  ].join("\n");
  return `${trace}
export default {
  name: ${JSON.stringify(name)},
  description: "the answer between ANSWER=> and <=",
  extract: (response: string) => [...response.matchAll(/${ARROW}/g)].at(-1)?.[1] ?? null,${
    opts.extra ?? ""
  }
};
`;
}
