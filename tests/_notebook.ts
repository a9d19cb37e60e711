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

/** One cell of an .ipynb file. */
interface Cell {
  cell_type: string;
  source: string | string[];
  outputs?: { output_type: string; data?: Record<string, string | string[]> }[];
}

const text = (t: string | string[] | undefined) => Array.isArray(t) ? t.join("") : t ?? "";

/** Most lines the opening code cell may have: an import of the helper and one call. */
export const OPENING_CODE_LINES = 3;

/**
 * Why the notebook at `path` does not open on a result, or null when it does: rendered, its
 * first screen must be a title and one paragraph (cell 1: `# title`, a blank line, one
 * paragraph), then a short code cell (one `openNotebook` call, at most
 * {@link OPENING_CODE_LINES} lines) whose FIRST output is a table (`<table` in text/html) or a
 * figure (an SVG or PNG image).
 */
export function openingProblem(path: string): string | null {
  const cells: Cell[] = JSON.parse(Deno.readTextFileSync(path)).cells;
  const [intro, code] = cells;
  if (intro?.cell_type !== "markdown") return "the first cell is not Markdown";
  const lines = text(intro.source).trimEnd().split("\n");
  if (!/^# \S/.test(lines[0])) return `the first line is not a title: ${lines[0]}`;
  if (lines[1] !== "") return "no blank line after the title";
  const paragraph = lines.slice(2);
  if (paragraph.length === 0) return "no paragraph after the title";
  const bad = paragraph.find((l) => l.trim() === "" || /^(#|[-*] |\d+\. |\|)/.test(l));
  if (bad !== undefined) return `more than one paragraph after the title: "${bad}"`;
  if (code?.cell_type !== "code") return "the second cell is not code";
  const source = text(code.source).split("\n").filter((l) => l.trim() !== "");
  if (source.length > OPENING_CODE_LINES) return `the opening cell has ${source.length} lines`;
  if (!source.some((l) => /\bawait openNotebook\(/.test(l))) {
    return "the opening cell calls no openNotebook";
  }
  const first = code.outputs?.[0];
  if (!first) return "the opening cell has no output";
  const data = first.data ?? {};
  const shown = /<table/.test(text(data["text/html"])) || "image/svg+xml" in data ||
    "image/png" in data;
  return shown ? null : `its first output is not a table or figure: ${first.output_type} ` +
    `${Object.keys(data).join(", ")}`;
}
