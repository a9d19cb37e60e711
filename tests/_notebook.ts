/**
 * Test helpers for the project's notebooks: execute a copy of one with a given environment,
 * writing figures/ and results/ into a temporary folder instead of the checkout's
 * ({@link withNotebookCopy}); read its code cells as one module ({@link notebookCode}).
 *
 * @example
 * ```ts
 * await withNotebookCopy("01_bbeh_leaderboard.ipynb", { RUNLENS_DATA: "/nowhere" }, (run, out) => {
 *   console.log(run.ok, out);
 * });
 * ```
 */
import { join } from "node:path";
import { REPO_ROOT } from "@runlens/core/data_dir.ts";
import { executeNotebook, type NotebookRun } from "@runlens/notebook/execute.ts";

/** Run `notebook` (a file name in notebooks/) in a temp copy; `check` sees the run and out dir. */
export async function withNotebookCopy(
  notebook: string,
  env: Record<string, string>,
  check: (run: NotebookRun, outDir: string, path: string) => void,
  options: { keepWhenSkipped?: boolean } = {},
): Promise<void> {
  // The copy must sit inside the checkout so the kernel finds deno.json (the import map).
  const work = join(REPO_ROOT, ".runlens", "tmp", `nb-${crypto.randomUUID()}`);
  Deno.mkdirSync(work, { recursive: true });
  try {
    const path = join(work, notebook);
    Deno.copyFileSync(join(REPO_ROOT, "notebooks", notebook), path);
    const run = await executeNotebook(path, {
      env: { RUNLENS_LOGS: "", ...env, RUNLENS_OUT: work },
      ...options,
    });
    check(run, work, path);
  } finally {
    Deno.removeSync(work, { recursive: true });
  }
}

/**
 * The code cells of the notebook at `path`, concatenated into one module's text (`deno check`,
 * `deno info` and `deno lint` ignore `.ipynb` files; a module written from this they read).
 */
export function notebookCode(path: string): string {
  const nb = JSON.parse(Deno.readTextFileSync(path));
  return nb.cells
    .filter((c: { cell_type: string }) => c.cell_type === "code")
    .map((c: { source: string | string[] }, i: number) =>
      `// cell ${i + 1}\n${Array.isArray(c.source) ? c.source.join("") : c.source}\n`
    )
    .join("\n") + "\nexport {};\n";
}
