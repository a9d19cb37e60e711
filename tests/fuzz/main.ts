/**
 * `deno task fuzz [--size full|ci] [--scale F] [--seed N] [--classes REGEX] [--case ID]
 * [--jobs N] [--data DIR] [--list]`: run the fuzz suite against `runlens score` and print the counts per
 * class and outcome. Failing cases are kept under `.runlens/fuzz/cases/<id>/`; the report
 * (`.runlens/fuzz/report.md` and `report.json`, not written for `--case`) lists each with the
 * command that reproduces it.
 * Exit code 0 when every case is in an allowed outcome, 1 otherwise, 2 on a usage error.
 *
 * @example
 * ```sh
 * deno task fuzz                       # the full suite (~2,000 cases)
 * deno task fuzz --size ci             # the CI subset (~300)
 * deno task fuzz --classes '^gzip'     # some classes
 * deno task fuzz --case 'deep-nesting/response-array-100k/0'   # one case, kept on disk
 * ```
 * @module
 */
import { join } from "node:path";
import { type Command, countOption, runCommand, UsageError } from "@runlens/core/command.ts";
import { existsSync } from "node:fs";
import { REPO_ROOT } from "./adapter.ts";
import { buildCase, CLASSES, DEFAULT_SEED, listCases } from "./cases.ts";
import {
  type CaseResult,
  countOutcomes,
  countsTable,
  FUZZ_DIR,
  runCases,
  stopAll,
} from "./runner.ts";

/** The data directory: `--data`, else `$RUNLENS_DATA`, else `../shared/data`. */
export function fuzzDataDir(given?: string): string {
  const dir = given ?? Deno.env.get("RUNLENS_DATA") ?? join(REPO_ROOT, "..", "shared", "data");
  if (!existsSync(dir)) {
    throw new Error(`fuzz: data directory ${dir} not found (--data or RUNLENS_DATA)`);
  }
  return dir;
}

/** The command line of {@link fuzzCommand}. */
interface FuzzArgs {
  size: "full" | "ci";
  seed: number;
  classes?: RegExp;
  id?: string;
  jobs: number;
  data?: string;
  list: boolean;
  scale?: number;
}

/** `deno task fuzz`. */
export const fuzzCommand: Command<FuzzArgs> = {
  name: "fuzz",
  invocation: "deno task fuzz",
  summary: "Run the fuzz suite against runlens score: hostile and malformed logs of every " +
    "class, each checked to end in an allowed outcome.",
  usage: "[--size full|ci] [--scale F] [--seed N] [--classes REGEX] [--case ID] [--jobs N] " +
    "[--data DIR] [--list]",
  description: "Failing cases are kept under .runlens/fuzz/cases/<id>/; the report " +
    "(.runlens/fuzz/report.md and report.json, not written for --case) lists each with the " +
    "command that reproduces it.",
  options: {
    size: {
      type: "string",
      value: "full|ci",
      description: "the full suite (~2,000 cases) or the CI subset (~300)",
      default: "full",
    },
    scale: {
      type: "string",
      value: "F",
      description: "with --size ci: round(ci × F) cases of each class (at least 1)",
      default: "1",
    },
    seed: { type: "string", value: "N", description: "the seed", default: String(DEFAULT_SEED) },
    classes: {
      type: "string",
      value: "REGEX",
      description: "only the classes whose name matches",
      default: "every class",
    },
    case: {
      type: "string",
      value: "ID",
      description: "one case, kept on disk",
      default: "every case selected",
    },
    jobs: { type: "string", value: "N", description: "cases run at a time", default: "2" },
    data: {
      type: "string",
      value: "DIR",
      description: "the data sets' directory",
      default: "$RUNLENS_DATA, else ../shared/data",
    },
    list: { type: "boolean", description: "list the cases selected, and run none" },
  },
  prints: "A line per failing case (and every 50th) on stderr while running, then the counts " +
    "per class and outcome and a summary line naming the report; with --case, that case's " +
    "outcome and where it is kept; with --list, the case ids.",
  examples: [
    "deno task fuzz --size ci",
    "deno task fuzz --classes '^gzip'",
    "deno task fuzz --case 'deep-nesting/response-array-100k/0'",
  ],
  failure: "a case ended in an outcome that is not allowed, or the data directory is missing",
  parse: ({ values, positionals }) => {
    if (positionals.length > 0) return `unexpected argument ${positionals[0]}`;
    const text = (key: string) => values[key] as string | undefined;
    const size = text("size") ?? "full";
    if (size !== "full" && size !== "ci") return "--size is full or ci";
    const classes = text("classes");
    let pattern: RegExp | undefined;
    try {
      pattern = classes === undefined ? undefined : new RegExp(classes);
    } catch (e) {
      return `--classes: ${(e as Error).message}`;
    }
    const scale = text("scale");
    return {
      size,
      seed: countOption(values, "seed", DEFAULT_SEED, 0),
      classes: pattern,
      id: text("case"),
      jobs: countOption(values, "jobs", 2),
      data: text("data"),
      list: values.list === true,
      scale: scale === undefined ? undefined : Number(scale),
    };
  },
  run: fuzzRun,
};

/** A markdown report of the results. */
function markdown(results: CaseResult[], seed: number, ms: number): string {
  const fails = results.filter((r) => !r.verdict.ok);
  const lines = [
    `# runlens fuzz report (seed ${seed})`,
    "",
    `${results.length} cases, ${results.length - fails.length} in an allowed outcome, ` +
    `${fails.length} failing; ${(ms / 1000).toFixed(0)} s.`,
    "",
    "## Counts per class and outcome",
    "",
    "```",
    countsTable(results),
    "```",
    "",
    "## Classes",
    "",
    ...CLASSES.map((c) => `- **${c.name}**: ${c.about}`),
    "",
    "## Failing cases",
    "",
  ];
  const groups = new Map<string, CaseResult[]>();
  for (const r of fails) {
    const key = `${r.cls} → ${r.verdict.outcome}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key)!.push(r);
  }
  for (const [key, list] of groups) {
    lines.push(`### ${key} (${list.length})`, "");
    for (const r of list) {
      lines.push(`- \`${r.id}\`: ${r.about}`);
      lines.push(`  - ${r.verdict.detail}`);
      if (r.kept) {
        lines.push(`  - reproduce: \`${r.kept.command}\``);
        lines.push(`  - or: \`${r.kept.rerun}\``);
      }
    }
    lines.push("");
  }
  return lines.join("\n");
}

/** Run the suite (or the cases selected); 1 when a case fails. */
async function fuzzRun(opts: FuzzArgs): Promise<number> {
  const dataDir = fuzzDataDir(opts.data);
  const refs = listCases({
    size: opts.size,
    classes: opts.classes,
    id: opts.id,
    scale: opts.scale,
  });
  if (opts.id && refs.length === 0) {
    // a CI-only run may name a case of the full suite: look there too
    refs.push(...listCases({ size: "full", id: opts.id }));
  }
  if (refs.length === 0) throw new UsageError("no cases selected");
  if (opts.list) {
    for (const r of refs) console.log(r.id);
    return 0;
  }
  if (opts.id) {
    const c = buildCase(dataDir, refs[0], opts.seed);
    console.error(`${c.id}: ${c.about}`);
  }
  if (!opts.id) {
    // a suite run: the kept cases are those of this run's report
    await Deno.remove(join(FUZZ_DIR, "cases"), { recursive: true }).catch(() => {});
  }
  const started = performance.now();
  const results = await runCases(refs, {
    dataDir,
    seed: opts.seed,
    jobs: opts.jobs,
    onResult: (r, done, total) => {
      const mark = r.verdict.ok ? "ok  " : "FAIL";
      if (!r.verdict.ok || done % 50 === 0 || opts.id) {
        console.error(
          `[${done}/${total}] ${mark} ${r.id}: ${r.verdict.outcome} — ${
            r.verdict.detail.slice(0, 240)
          }`,
        );
      }
    },
  });
  const ms = performance.now() - started;
  const fails = results.filter((r) => !r.verdict.ok);
  if (opts.id) {
    // one case: leave the suite's report alone
    console.log(`${results[0].id}: ${results[0].verdict.outcome} — ${results[0].verdict.detail}`);
    if (results[0].kept) {
      console.log(`kept in ${results[0].kept.dir}\nreproduce: ${results[0].kept.command}`);
    }
    return fails.length > 0 ? 1 : 0;
  }
  await Deno.mkdir(FUZZ_DIR, { recursive: true });
  const counts = Object.fromEntries(
    [...countOutcomes(results)].map(([cls, m]) => [cls, Object.fromEntries(m)]),
  );
  await Deno.writeTextFile(
    join(FUZZ_DIR, "report.json"),
    JSON.stringify(
      { seed: opts.seed, size: opts.size, ms: Math.round(ms), counts, results },
      null,
      1,
    ),
  );
  await Deno.writeTextFile(join(FUZZ_DIR, "report.md"), markdown(results, opts.seed, ms));
  console.log(countsTable(results));
  console.log(
    `\n${results.length} cases in ${(ms / 1000).toFixed(0)} s: ${
      results.length - fails.length
    } allowed, ` +
      `${fails.length} failing; report: ${join(FUZZ_DIR, "report.md")}`,
  );
  return fails.length > 0 ? 1 : 0;
}

if (import.meta.main) {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    Deno.addSignalListener(signal, () => stopAll().finally(() => Deno.exit(130)));
  }
  Deno.exit(await runCommand(fuzzCommand, Deno.args));
}
