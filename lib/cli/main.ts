/**
 * The main job: execute every notebook in `notebooks/` headless (outputs saved in the
 * notebooks), which regenerates `figures/` and `results/`.
 *
 * `deno task main [--data DIR] [--logs DIR] [--only NAME]`. The data directory is the flag,
 * else `$RUNLENS_DATA`, else the local cache; run logs to place beside the published models are
 * read from `--logs` / `$RUNLENS_LOGS` (none by default). Without data, notebooks still
 * regenerate what needs none and report what they skipped (lines starting `SKIPPED:`).
 *
 * @example
 * ```sh
 * deno task main --data ../shared/data --logs ~/my_runs
 * ```
 * @module
 */
import { join, relative } from "node:path";
import { DATA_OPTION, exists, FETCH_HINT, REPO_ROOT, resolveDataDir } from "../core/data_dir.ts";
import { executeNotebook } from "../notebook/execute.ts";
import { LOGS_ENV } from "../notebook/context.ts";
import { type Command, runCommand, UsageError } from "../core/command.ts";
import { printError, stylesFor } from "../core/terminal.ts";

/** The notebooks folder of this checkout. */
export const NOTEBOOK_DIR = join(REPO_ROOT, "notebooks");

/** Notebook files in execution order (sorted by name). */
export function listNotebooks(only?: string): string[] {
  const names = [...Deno.readDirSync(NOTEBOOK_DIR)]
    .filter((e) => e.isFile && e.name.endsWith(".ipynb"))
    .map((e) => e.name)
    .filter((n) => !only || n.includes(only))
    .sort();
  return names.map((n) => join(NOTEBOOK_DIR, n));
}

/** Parsed arguments of the main job. */
interface MainArgs {
  data?: string;
  logs?: string;
  only?: string;
}

/** `deno task main`: execute every notebook. */
export const mainCommand: Command<MainArgs> = {
  name: "main",
  invocation: "deno task main",
  summary: "Regenerate figures/ and results/ by executing every notebook headless (outputs " +
    "saved in the notebooks).",
  usage: "[--data DIR] [--logs DIR] [--only TEXT]",
  description: "Without data, notebooks still regenerate what needs none and report what they " +
    "skipped (lines starting SKIPPED:). Your run logs (--logs) are placed beside the " +
    "published models.",
  options: {
    data: DATA_OPTION,
    logs: {
      type: "string",
      value: "DIR",
      description: "your run logs, put into the notebooks",
      default: `$${LOGS_ENV}, else none`,
    },
    only: {
      type: "string",
      value: "TEXT",
      description: "only the notebooks whose file name holds TEXT",
      default: "every notebook",
    },
  },
  prints: "The data and logs used, then per notebook a line when it starts and one when it is " +
    "done (ok with its time, or FAILED with the kernel's error); the steps skipped for missing " +
    "data, and a last line counting the notebooks that ran.",
  examples: ["deno task main --data ../shared/data --logs ~/my_runs", "deno task main --only 01_"],
  failure: "a notebook failed, or no notebook matches --only",
  parse: ({ values, positionals }) => {
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
    return values as MainArgs;
  },
  run: mainRun,
};

/** Run the main job; returns the exit code. */
export function mainJob(args: string[]): Promise<number> {
  return runCommand(mainCommand, args);
}

async function mainRun(values: MainArgs): Promise<number> {
  const dataDir = resolveDataDir(values.data);
  const logsDir = values.logs ?? Deno.env.get(LOGS_ENV) ?? "";
  const env: Record<string, string> = { RUNLENS_DATA: dataDir, [LOGS_ENV]: logsDir };
  console.log(
    `runlens main: data ${exists(dataDir) ? dataDir : `${dataDir} (missing)`}` +
      (logsDir ? `, logs ${logsDir}` : ", no run logs (--logs DIR to add yours)"),
  );
  const notebooks = listNotebooks(values.only);
  if (notebooks.length === 0) {
    printError("runlens main", `no notebooks${values.only ? ` matching "${values.only}"` : ""}`);
    return 1;
  }
  const failed: string[] = [];
  const skipped: string[] = [];
  for (const [i, path] of notebooks.entries()) {
    const name = relative(REPO_ROOT, path);
    console.log(`[${i + 1}/${notebooks.length}] ${name} …`);
    const run = await executeNotebook(path, { env, keepWhenSkipped: true });
    skipped.push(...run.skipped.map((s) => `${name}: ${s}`));
    if (run.ok) {
      const kept = run.kept ? "; the notebook file is left as committed (steps skipped)" : "";
      console.log(
        `[${i + 1}/${notebooks.length}] ${name} ok (${run.seconds.toFixed(1)} s${kept})`,
      );
    } else {
      failed.push(name);
      const failure = `[${i + 1}/${notebooks.length}] ${name} FAILED`;
      console.error(`${stylesFor(Deno.stderr).red(failure)}\n${run.stderr.trim()}`);
    }
  }
  if (skipped.length > 0) {
    console.log(`\nSkipped (missing data):\n${skipped.map((s) => `  - ${s}`).join("\n")}`);
    console.log(`To produce them, ${FETCH_HINT}.`);
  }
  console.log(
    `\nrunlens main: ${notebooks.length - failed.length} of ${notebooks.length} notebooks ok` +
      (failed.length ? `; failed: ${failed.join(", ")}` : ""),
  );
  return failed.length ? 1 : 0;
}

if (import.meta.main) Deno.exit(await mainJob(Deno.args));
