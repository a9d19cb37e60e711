/**
 * `deno task test`: install what the tests need (the Jupyter client; Debian's Chromium for the
 * report's real-browser tests; Debian's TeX for compiling every LaTeX table; NumPy, SciPy and
 * statsmodels for the statistics reference check), then run every test and every doc example
 * in one `deno test` run. Without a data directory (no `$RUNLENS_DATA`, no `../shared/data`)
 * the doc examples — many read the data sets — are type-checked instead of run, and the
 * data-backed tests skip (with `CI=true` they fail instead). Extra arguments go to
 * `deno test` (e.g. `--filter scorer`).
 *
 * @example Not run by `deno test --doc`: it runs the whole suite
 * ```ts ignore
 * Deno.exit(await runTests([]));
 * ```
 * @module
 */
import { existsSync } from "node:fs";
import { DEBIAN_PYTHON, ensureDebianPackages, pythonImports } from "./debian.ts";
import { ensureChromium } from "./chromium.ts";
import { ensureJupyter } from "./jupyter.ts";
import { ensureLatex } from "./latex.ts";

/** Debian packages of the independent statistics reference (tests/reference/stats_reference.py). */
export const STATS_REFERENCE_PACKAGES = ["python3-numpy", "python3-scipy", "python3-statsmodels"];

/** The data directory the tests use: `$RUNLENS_DATA`, else `../shared/data`; null if absent. */
function testDataDir(): string | null {
  const dir = Deno.env.get("RUNLENS_DATA") || "../shared/data";
  return existsSync(dir) ? dir : null;
}

/** Run `deno` with `args`, inheriting the terminal; its exit code. */
async function deno(args: string[], env: Record<string, string> = {}): Promise<number> {
  const cmd = new Deno.Command(Deno.execPath(), {
    args,
    env,
    stdout: "inherit",
    stderr: "inherit",
  });
  return (await cmd.output()).code;
}

/** Install what is missing, then test; returns the exit code. */
export async function runTests(extra: string[]): Promise<number> {
  await ensureJupyter();
  await ensureChromium();
  await ensureLatex();
  await ensureDebianPackages(
    "the statistics reference (NumPy, SciPy, statsmodels)",
    STATS_REFERENCE_PACKAGES,
    () => pythonImports(["numpy", "scipy", "statsmodels"], DEBIAN_PYTHON),
  );
  const data = testDataDir();
  const test = ["test", "--allow-all", "--parallel", ...extra];
  if (data !== null) {
    return await deno([...test, "--doc", "lib/", "tests/"], { RUNLENS_DATA: data });
  }
  console.error("runlens: no data directory: doc examples are type-checked, not run");
  const checked = await deno(["check", "--doc-only", "lib/"]);
  const tested = await deno([...test, "tests/"]);
  return checked || tested;
}

if (import.meta.main) {
  try {
    Deno.exit(await runTests(Deno.args));
  } catch (e) {
    console.error(`runlens: ${(e as Error).message}`);
    Deno.exit(1);
  }
}
