/**
 * Execute notebooks headless with the real Deno Jupyter kernel, through Jupyter's client
 * machinery (`run_notebook.py`, which waits out the kernel's late-output race).
 *
 * The kernel spec is written to a project-local folder (`.runlens/jupyter/kernels/deno`) and
 * found through `JUPYTER_PATH`, pointing at the Deno executable running this code, with
 * `NO_COLOR=1` so text outputs carry no ANSI codes. Cells report what they could not do with
 * lines starting `SKIPPED:`; {@link executeNotebook} collects them.
 *
 * @example Not run by `deno test --doc`: it starts Python and a Deno kernel (may install Jupyter)
 * ```ts ignore
 * import { executeNotebook } from "@runlens/notebook/execute.ts";
 * const result = await executeNotebook("notebooks/01_bbeh_leaderboard.ipynb", { env: {} });
 * if (!result.ok) console.error(result.stderr);
 * ```
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { REPO_ROOT } from "../core/data_dir.ts";
import { DEBIAN_PYTHON } from "../setup/debian.ts";
import { ensureJupyter } from "../setup/jupyter.ts";

/** Where the project-local kernel spec lives (git-ignored). */
export const JUPYTER_DIR = join(REPO_ROOT, ".runlens", "jupyter");

/** The kernel name notebooks declare in their metadata. */
export const KERNEL_NAME = "deno";

const RUNNER = fileURLToPath(new URL("./run_notebook.py", import.meta.url));

/** Write the kernel spec for the running Deno executable; returns the JUPYTER_PATH entry. */
export function writeKernelSpec(dir = JUPYTER_DIR): string {
  const kernelDir = join(dir, "kernels", KERNEL_NAME);
  Deno.mkdirSync(kernelDir, { recursive: true });
  const spec = {
    argv: [Deno.execPath(), "jupyter", "--kernel", "--conn", "{connection_file}"],
    display_name: "Deno",
    language: "typescript",
    env: { NO_COLOR: "1" },
  };
  Deno.writeTextFileSync(join(kernelDir, "kernel.json"), JSON.stringify(spec, null, 1) + "\n");
  return dir;
}

/** Outcome of one notebook execution. */
export interface NotebookRun {
  path: string;
  ok: boolean;
  /**
   * The notebook file was left as it was before the run, because steps were skipped for
   * missing data ({@link ExecuteOptions.keepWhenSkipped}): its committed outputs stay.
   */
  kept?: boolean;
  seconds: number;
  /** Lines the notebook printed starting with `SKIPPED:` (without the prefix). */
  skipped: string[];
  stdout: string;
  stderr: string;
}

/** Options for {@link executeNotebook}. */
export interface ExecuteOptions {
  /** Extra environment for the kernel (e.g. RUNLENS_DATA). */
  env?: Record<string, string>;
  /** Per-cell timeout in seconds (default 600). */
  timeout?: number;
  /**
   * When the run skips steps (missing data), put the notebook file back as it was, so that a
   * run without the data sets never replaces outputs that need them (the main job's choice).
   */
  keepWhenSkipped?: boolean;
}

/** Execute `path` in place (outputs saved into the file). Ensures Jupyter is installed. */
export async function executeNotebook(
  path: string,
  options: ExecuteOptions = {},
): Promise<NotebookRun> {
  await ensureJupyter();
  const before = options.keepWhenSkipped ? Deno.readFileSync(path) : null;
  const jupyterPath = writeKernelSpec();
  const started = performance.now();
  const out = await new Deno.Command(DEBIAN_PYTHON, {
    args: [RUNNER, path, "--kernel", KERNEL_NAME, "--timeout", String(options.timeout ?? 600)],
    env: { ...options.env, JUPYTER_PATH: jupyterPath, NO_COLOR: "1", PYTHONHASHSEED: "0" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  const skipped = stdout.split("\n").filter((l) => l.startsWith("SKIPPED:"))
    .map((l) => l.slice("SKIPPED:".length).trim());
  const kept = before !== null && skipped.length > 0;
  if (kept) Deno.writeFileSync(path, before);
  return {
    path,
    ok: out.success,
    kept,
    seconds: (performance.now() - started) / 1000,
    skipped,
    stdout,
    stderr: new TextDecoder().decode(out.stderr),
  };
}
