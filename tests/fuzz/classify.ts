/**
 * The outcome of a fuzz case: from the case's expectations and what the `score` run did (exit
 * code, signal, stdout JSON, stderr, peak RSS, time), one outcome label and whether it is
 * allowed. A pure function: the runner and the CI test share it, and its own tests feed it
 * made-up runs.
 *
 * Allowed outcomes: `accounted` (exit 0 or 1, the JSON parses, every run has rows_in =
 * rows_scored + rows_quarantined, and rows_in over the runs equals the records of the files not
 * named as errors, with the required quarantines), `named-error` (some file is listed with a
 * reason — in an `errors`-like list of the JSON when there is one, else a non-zero exit whose
 * stderr names it — and the other files are still scored), `bounded` (a bomb case that also
 * stayed under its memory and time limits).
 *
 * Failing outcomes: `abort` (a signal), `hang` (killed at the time limit), `too-slow` (a
 * bounded case killed at its time limit), `memory` (killed at the RSS limit), `stack-trace` (a JS or Rust stack, a stack overflow, V8 out of memory),
 * `internal-error`, `bad-exit` (an exit code other than 0/1, e.g. a usage error), `no-json`,
 * `unbalanced`, `rows-missing`, `rows-extra`, `accepted-bad-value` (fewer quarantined than
 * required), `over-quarantined`, `not-named` (a corrupt or unreadable file read or skipped in
 * silence), `false-error` (a good file reported as an error), `others-unscored` (one bad file
 * stopped the others), `unnamed-error` (a failure that names no file), `exit-code` (errors
 * listed, exit 0), `nondeterministic` (two concurrent runs differ).
 *
 * @example
 * ```ts ignore
 * import { classify } from "./classify.ts";
 * const v = classify(fuzzCase, run, "/tmp/root/case");
 * if (!v.ok) console.log(v.outcome, v.detail);
 * ```
 * @module
 */
import { join } from "node:path";
import type { Expect, FuzzCase, Limits } from "./case.ts";
import type { ScoreRun } from "./adapter.ts";

/** Default limits of a case run. */
export const DEFAULT_LIMITS: Limits = { timeoutMs: 60_000, rssBytes: 3 * 2 ** 30 };

/**
 * The limits of `c` (its own, else the defaults); time limits are multiplied by
 * `$RUNLENS_FUZZ_TIME_SCALE` when set, else by the machine's load: the 1-minute load average
 * per CPU when above 1 (at most 4). A time limit tells a hang or an unbounded input from a
 * slow run, and a machine with twice as many runnable processes as CPUs runs everything at
 * about half speed; on an idle machine the limits are the documented ones.
 */
export function limitsOf(c: FuzzCase): Limits {
  const limits = { ...DEFAULT_LIMITS, ...c.limits };
  return { ...limits, timeoutMs: limits.timeoutMs * timeScale() };
}

function timeScale(): number {
  const set = Number(Deno.env.get("RUNLENS_FUZZ_TIME_SCALE"));
  if (set > 0) return set;
  const perCpu = Deno.loadavg()[0] / (navigator.hardwareConcurrency || 1);
  return Math.min(4, Math.max(1, perCpu));
}

/** Outcomes that pass. */
export const ALLOWED_OUTCOMES = ["accounted", "named-error", "bounded"] as const;

/** A case's verdict. */
export interface Verdict {
  outcome: string;
  ok: boolean;
  /** What was wrong (or, when ok, a short summary). */
  detail: string;
}

const STACK_PATTERNS: [RegExp, string][] = [
  [/has overflowed its stack/, "native stack overflow"],
  [/panicked at/, "Rust panic"],
  [/^\s{2,}at .+(\(|:\d+)/m, "JS stack trace"],
  [/Maximum call stack size exceeded/, "JS stack overflow"],
  [/out of memory|heap limit|Fatal JavaScript/i, "out of memory"],
  [/^error: Uncaught/m, "uncaught exception"],
  [/Segmentation fault|SIGSEGV|core dumped/, "segfault"],
];

/** A notice of the JSON report: one entry of an `errors`-like list. */
interface Notice {
  file: string;
  reason: string;
}

/**
 * The notices of a report: entries with a string `file` in any top-level list other than
 * `runs`, `quarantine` and `files` (every file read, with its format and counts): `errors`
 * and `skipped`.
 */
export function noticesOf(report: Record<string, unknown>): Notice[] {
  const out: Notice[] = [];
  for (const [key, value] of Object.entries(report)) {
    if (["runs", "quarantine", "files"].includes(key) || !Array.isArray(value)) continue;
    for (const item of value) {
      if (item && typeof item === "object" && typeof (item as Notice).file === "string") {
        out.push({ file: (item as Notice).file, reason: String((item as Notice).reason ?? "") });
      }
    }
  }
  return out;
}

/** The strings that name file `e` of a case run in `caseDir`. */
function namesOf(e: Expect, caseDir: string): string[] {
  const abs = join(caseDir, e.path);
  const names = [abs, e.path, `./${e.path}`];
  if (abs.endsWith(".gz")) names.push(abs.slice(0, -3));
  return names;
}

function noticeNames(n: Notice, e: Expect, caseDir: string): boolean {
  if (e.namePattern && new RegExp(e.namePattern).test(n.file)) return true;
  return namesOf(e, caseDir).some((name) => n.file === name || n.file.endsWith(`/${e.path}`));
}

function stderrNames(stderr: string, e: Expect, caseDir: string, relative: boolean): boolean {
  if (e.namePattern && new RegExp(e.namePattern).test(stderr)) return true;
  const abs = join(caseDir, e.path);
  if (stderr.includes(abs)) return true;
  return relative && stderr.includes(e.path);
}

/** All sums that pick one value from each list. */
function sums(options: number[][]): Set<number> {
  let acc = new Set([0]);
  for (const opts of options) {
    const next = new Set<number>();
    for (const a of acc) for (const o of opts) next.add(a + o);
    acc = next;
    if (acc.size > 4096) break;
  }
  return acc;
}

const recordOptions = (r: Expect["records"]): number[] | null =>
  r === null ? null : Array.isArray(r) ? r : [r];

/** The first lines of a text, for details. */
export function head(text: string, lines = 3, width = 300): string {
  return text.split("\n").filter((l) => l.trim() !== "").slice(0, lines).join(" | ").slice(
    0,
    width,
  );
}

interface RunReport {
  run?: string;
  rows_in?: number;
  rows_scored?: number;
  rows_quarantined?: number;
}

/**
 * Classify one run of case `c` (materialised in `caseDir`); `second` is the other run of a
 * `twice` case.
 *
 * @example
 * ```ts ignore
 * classify(c, run, dir).outcome; // "accounted"
 * ```
 */
export function classify(c: FuzzCase, run: ScoreRun, caseDir: string, second?: ScoreRun): Verdict {
  const fail = (outcome: string, detail: string): Verdict => ({ outcome, ok: false, detail });
  const limits = limitsOf(c);
  const where = `exit ${run.code ?? run.signal}, ${Math.round(run.ms)} ms, ` +
    `${(run.peakRss / 2 ** 20).toFixed(0)} MB`;
  if (run.killed === "timeout") {
    return fail(c.bounded ? "too-slow" : "hang", `killed after ${limits.timeoutMs} ms (${where})`);
  }
  if (run.killed === "memory") {
    return fail(
      "memory",
      `killed past ${(limits.rssBytes / 2 ** 20).toFixed(0)} MB RSS (${where})`,
    );
  }
  for (const [pattern, what] of STACK_PATTERNS) {
    if (pattern.test(run.stderr)) {
      const line = run.stderr.split("\n").find((l) => pattern.test(l)) ?? "";
      return fail(
        run.signal ? "abort" : "stack-trace",
        `${what}: ${line.trim().slice(0, 200)} (${where})`,
      );
    }
  }
  if (run.signal) return fail("abort", `signal ${run.signal}: ${head(run.stderr)} (${where})`);
  if (/internal error/i.test(run.stderr)) {
    return fail("internal-error", `${head(run.stderr)} (${where})`);
  }
  if (run.code !== 0 && run.code !== 1) {
    return fail("bad-exit", `exit ${run.code}: ${head(run.stderr)} (${where})`);
  }
  if (c.bounded && run.ms > limits.timeoutMs) return fail("too-slow", `took ${where}`);
  if (second && second.stdout !== run.stdout) {
    return fail("nondeterministic", "two concurrent runs on the folder gave different output");
  }
  let report: Record<string, unknown> | null = null;
  try {
    const parsed = JSON.parse(run.stdout);
    if (parsed && typeof parsed === "object" && Array.isArray(parsed.runs)) report = parsed;
  } catch {
    report = null;
  }
  const relative = c.args !== undefined;
  const verdict = report
    ? classifyReport(c, run, report, caseDir)
    : classifyFailure(c, run, caseDir, relative);
  if (verdict.ok && c.bounded) {
    return { outcome: "bounded", ok: true, detail: `${verdict.outcome}; ${where}` };
  }
  return verdict.ok ? { ...verdict, detail: `${verdict.detail}; ${where}` } : {
    ...verdict,
    detail: `${verdict.detail} (${where})`,
  };
}

/** A run that printed a JSON report. */
function classifyReport(
  c: FuzzCase,
  run: ScoreRun,
  report: Record<string, unknown>,
  caseDir: string,
): Verdict {
  const fail = (outcome: string, detail: string): Verdict => ({ outcome, ok: false, detail });
  const runs = report.runs as RunReport[];
  for (const r of runs) {
    if (
      typeof r.rows_in !== "number" || typeof r.rows_scored !== "number" ||
      typeof r.rows_quarantined !== "number" || r.rows_in !== r.rows_scored + r.rows_quarantined
    ) {
      return fail(
        "unbalanced",
        `run ${r.run}: rows_in ${r.rows_in} ≠ scored ${r.rows_scored} + quarantined ${r.rows_quarantined}`,
      );
    }
  }
  const notices = noticesOf(report);
  const named = c.expect.map((e) => notices.some((n) => noticeNames(n, e, caseDir)));
  for (const [i, e] of c.expect.entries()) {
    if (named[i] && !e.allowed.includes("named-error")) {
      const n = notices.find((n) => noticeNames(n, e, caseDir))!;
      return fail("false-error", `${e.path} reported: ${n.reason.slice(0, 200)}`);
    }
    if (!named[i] && !e.allowed.includes("accounted")) {
      return fail("not-named", `${e.path} must be reported as an error but is not`);
    }
  }
  const errors = Array.isArray(report.errors) ? report.errors : null;
  if (errors && errors.length > 0 && run.code === 0) {
    return fail("exit-code", `${errors.length} error(s) listed but exit 0`);
  }
  const rowsIn = runs.reduce((n, r) => n + (r.rows_in ?? 0), 0);
  const options: number[][] = [];
  let known = true;
  for (const [i, e] of c.expect.entries()) {
    const opts = recordOptions(e.records);
    if (named[i]) options.push([0, ...(opts ?? [])]);
    else if (opts === null) known = false;
    else options.push(opts);
  }
  if (known) {
    const allowed = sums(options);
    if (!allowed.has(rowsIn)) {
      const expected = [...allowed].sort((a, b) => a - b).slice(0, 6).join(" or ");
      const outcome = rowsIn < Math.min(...allowed) ? "rows-missing" : "rows-extra";
      return fail(outcome, `rows_in ${rowsIn}, the files hold ${expected}`);
    }
  }
  const quarantine = Array.isArray(report.quarantine)
    ? report.quarantine as { file?: string; reason?: string }[]
    : [];
  for (const [i, e] of c.expect.entries()) {
    if (named[i] || e.quarantined === undefined || e.quarantined === null) continue;
    const mine = quarantine.filter((q) =>
      typeof q.file === "string" && noticeNames({ file: q.file, reason: "" }, e, caseDir)
    );
    if (mine.length < e.quarantined) {
      return fail(
        "accepted-bad-value",
        `${e.path}: ${mine.length} quarantined, ${e.quarantined} must be (a bad value was scored)`,
      );
    }
    if (mine.length > e.quarantined) {
      return fail(
        "over-quarantined",
        `${e.path}: ${mine.length} quarantined, only ${e.quarantined} should be: ` +
          (mine[0]?.reason ?? "").slice(0, 160),
      );
    }
  }
  const namedFiles = c.expect.filter((_, i) => named[i]).map((e) => e.path);
  return namedFiles.length > 0
    ? { outcome: "named-error", ok: true, detail: `named ${namedFiles.join(", ")}` }
    : { outcome: "accounted", ok: true, detail: `rows_in ${rowsIn}` };
}

/** A run without a JSON report (exit 1): stderr must name the bad file, and only it. */
function classifyFailure(c: FuzzCase, run: ScoreRun, caseDir: string, relative: boolean): Verdict {
  const fail = (outcome: string, detail: string): Verdict => ({ outcome, ok: false, detail });
  if (run.code === 0) return fail("no-json", `exit 0 without a JSON report: ${head(run.stdout)}`);
  const named = c.expect.filter((e) => stderrNames(run.stderr, e, caseDir, relative));
  const falseError = named.find((e) => !e.allowed.includes("named-error"));
  if (falseError) return fail("false-error", `${falseError.path}: ${head(run.stderr, 2)}`);
  const mustScore = c.expect.filter((e) =>
    e.allowed.includes("accounted") && !e.allowed.includes("named-error")
  );
  if (named.length > 0 && mustScore.length > 0) {
    return fail(
      "others-unscored",
      `${named.map((e) => e.path).join(", ")} stopped the run; ${mustScore.length} good ` +
        `file(s) unscored: ${head(run.stderr, 2)}`,
    );
  }
  if (named.length === 0) {
    return fail(
      "unnamed-error",
      `exit ${run.code}, stderr names no case file: ${head(run.stderr, 2)}`,
    );
  }
  return { outcome: "named-error", ok: true, detail: head(run.stderr, 1, 160) };
}
