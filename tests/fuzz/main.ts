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

function parse(args: string[]) {
  const out: {
    size: "full" | "ci";
    seed: number;
    classes?: RegExp;
    id?: string;
    jobs: number;
    data?: string;
    list: boolean;
    scale?: number;
  } = { size: "full", seed: DEFAULT_SEED, jobs: 2, list: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const value = () => {
      const v = args[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === "--size") {
      const v = value();
      if (v !== "full" && v !== "ci") throw new Error("--size is full or ci");
      out.size = v;
    } else if (a === "--seed") out.seed = Number(value());
    else if (a === "--classes") out.classes = new RegExp(value());
    else if (a === "--case") out.id = value();
    else if (a === "--jobs") out.jobs = Number(value());
    else if (a === "--data") out.data = value();
    else if (a === "--list") out.list = true;
    else if (a === "--scale") out.scale = Number(value());
    else throw new Error(`unknown option ${a}`);
  }
  return out;
}

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

async function main(args: string[]): Promise<number> {
  let opts;
  try {
    opts = parse(args);
  } catch (e) {
    console.error(`fuzz: ${(e as Error).message}`);
    return 2;
  }
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
  if (refs.length === 0) {
    console.error("fuzz: no cases selected");
    return 2;
  }
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
  Deno.exit(await main(Deno.args));
}
