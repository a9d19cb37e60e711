/**
 * Run fuzz cases: write each to a temporary folder, run `runlens score` on it through the
 * adapter (two cases at a time by default), classify, keep the failing cases on disk under
 * `.runlens/fuzz/cases/` with the command that reproduces them, and summarise per class and
 * outcome.
 *
 * @example
 * ```ts ignore
 * import { runCases } from "./runner.ts";
 * const results = await runCases(listCases({ size: "ci" }), { dataDir, jobs: 2 });
 * ```
 * @module
 */
import { join } from "node:path";
import {
  prepareRunlens,
  REPO_ROOT,
  RUNNING,
  runScore,
  scoreArgv,
  type ScoreRun,
  shellCommand,
} from "./adapter.ts";
import { type FuzzCase, materialize } from "./case.ts";
import { buildCase, type CaseRef, DEFAULT_SEED } from "./cases.ts";
import { classify, limitsOf, type Verdict } from "./classify.ts";

/** Where failing cases and reports go. */
export const FUZZ_DIR = join(REPO_ROOT, ".runlens", "fuzz");

/** The result of one case. */
export interface CaseResult {
  id: string;
  cls: string;
  variant: string;
  about: string;
  verdict: Verdict;
  code: number | null;
  signal: string | null;
  ms: number;
  peakRss: number;
  stderrHead: string;
  /** For a failing case kept on disk: its folder and the commands that reproduce it. */
  kept?: { dir: string; command: string; rerun: string };
}

/** Options of {@link runCases}. */
export interface RunOptions {
  dataDir: string;
  seed?: number;
  /** Cases run at once (default 2). */
  jobs?: number;
  /** Keep failing cases under `.runlens/fuzz/cases/` (default true). */
  keep?: boolean;
  /** Called after each case. */
  onResult?: (r: CaseResult, done: number, total: number) => void;
}

/** Temporary case folders in use (removed by {@link stopAll} on an interrupt). */
const ROOTS = new Set<string>();

/**
 * End the running `score` processes and remove the temporary case folders (on SIGINT/SIGTERM).
 *
 * @example
 * ```ts ignore
 * Deno.addSignalListener("SIGINT", () => stopAll().then(() => Deno.exit(130)));
 * ```
 */
export async function stopAll(): Promise<void> {
  for (const child of RUNNING) {
    try {
      child.kill("SIGKILL");
    } catch {
      // already gone
    }
  }
  for (const root of ROOTS) await removeTree(root);
}

/** A file-system-safe name for a case id. */
export const safeName = (id: string) => id.replace(/[^\w.-]+/g, "_");

async function removeTree(dir: string): Promise<void> {
  try {
    await Deno.remove(dir, { recursive: true });
  } catch {
    // a chmod 000 file as non-root: make it removable and retry
    await new Deno.Command("chmod", { args: ["-R", "u+rwx", dir] }).output();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/**
 * Run one built case in `root` (materialised there) and classify it.
 *
 * @example
 * ```ts ignore
 * const { verdict } = await runCase(c, await Deno.makeTempDir(), dataDir);
 * ```
 */
export async function runCase(
  c: FuzzCase,
  root: string,
  dataDir: string,
): Promise<{ verdict: Verdict; run: ScoreRun; caseDir: string }> {
  await prepareRunlens();
  const caseDir = await materialize(c, root);
  const limits = limitsOf(c);
  const paths = c.args ?? [caseDir];
  const options = { cwd: caseDir, dataDir, flags: c.flags, ...limits };
  const [run, second] = c.twice
    ? await Promise.all([runScore(paths, options), runScore(paths, options)])
    : [await runScore(paths, options), undefined];
  return { verdict: classify(c, run, caseDir, second), run, caseDir };
}

/**
 * Run the cases `refs` (built one at a time), `jobs` at a time; failing ones are written again
 * under `.runlens/fuzz/cases/<id>/` for reproduction.
 *
 * @example
 * ```ts ignore
 * const results = await runCases(listCases({ classes: /^gzip/ }), { dataDir });
 * ```
 */
export async function runCases(
  refs: readonly CaseRef[],
  options: RunOptions,
): Promise<CaseResult[]> {
  const seed = options.seed ?? DEFAULT_SEED;
  const results: CaseResult[] = new Array(refs.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < refs.length) {
      const i = next++;
      const c = buildCase(options.dataDir, refs[i], seed);
      const root = await Deno.makeTempDir({ prefix: "runlens_fuzz_" });
      ROOTS.add(root);
      let result: CaseResult;
      try {
        const { verdict, run } = await runCase(c, root, options.dataDir);
        result = {
          id: c.id,
          cls: c.cls,
          variant: c.variant,
          about: c.about,
          verdict,
          code: run.code,
          signal: run.signal,
          ms: Math.round(run.ms),
          peakRss: run.peakRss,
          stderrHead: run.stderr.slice(0, 2000),
        };
        if (!verdict.ok && options.keep !== false) {
          result.kept = await keep(c, options.dataDir, seed);
        }
      } finally {
        await removeTree(root);
        ROOTS.delete(root);
      }
      results[i] = result;
      done++;
      options.onResult?.(result, done, refs.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.jobs ?? 2) }, worker));
  return results;
}

/** Write a failing case again under `.runlens/fuzz/cases/` and say how to rerun it. */
async function keep(c: FuzzCase, dataDir: string, seed: number): Promise<CaseResult["kept"]> {
  const root = join(FUZZ_DIR, "cases", safeName(c.id));
  await removeTree(root).catch(() => {});
  const caseDir = await materialize(c, root);
  const argv = scoreArgv(c.args ?? [caseDir], { dataDir, flags: c.flags });
  const cd = c.args ? `cd ${shellCommand([caseDir])} && ` : "";
  return {
    dir: caseDir,
    command: cd + shellCommand(argv),
    rerun: `deno task fuzz --seed ${seed} --case ${shellCommand([c.id])}`,
  };
}

/** Counts per class and outcome. */
export type Counts = Map<string, Map<string, number>>;

/**
 * Count the results per class and outcome.
 *
 * @example
 * ```ts ignore
 * countOutcomes(results).get("gzip-corrupt")?.get("named-error"); // 12
 * ```
 */
export function countOutcomes(results: readonly CaseResult[]): Counts {
  const counts: Counts = new Map();
  for (const r of results) {
    if (!counts.has(r.cls)) counts.set(r.cls, new Map());
    const m = counts.get(r.cls)!;
    m.set(r.verdict.outcome, (m.get(r.verdict.outcome) ?? 0) + 1);
  }
  return counts;
}

/**
 * A text table of the counts: one row per class, `ok/total` and each outcome's count (failing
 * outcomes marked with `!`).
 *
 * @example
 * ```ts ignore
 * console.log(countsTable(results));
 * ```
 */
export function countsTable(results: readonly CaseResult[]): string {
  const counts = countOutcomes(results);
  const okOutcomes = new Set(["accounted", "named-error", "bounded"]);
  const lines: string[] = [];
  const width = Math.max(...[...counts.keys()].map((k) => k.length), 5);
  let ok = 0;
  for (const [cls, m] of counts) {
    const total = [...m.values()].reduce((a, b) => a + b, 0);
    const good = [...m].filter(([o]) => okOutcomes.has(o)).reduce((a, [, n]) => a + n, 0);
    ok += good;
    const parts = [...m].sort((a, b) => b[1] - a[1]).map(([o, n]) =>
      `${okOutcomes.has(o) ? "" : "!"}${o} ${n}`
    );
    lines.push(
      `${cls.padEnd(width)}  ${String(good).padStart(4)}/${String(total).padEnd(4)}  ${
        parts.join(", ")
      }`,
    );
  }
  lines.push(`${"total".padEnd(width)}  ${String(ok).padStart(4)}/${results.length}`);
  return lines.join("\n");
}
