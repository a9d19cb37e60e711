/**
 * Build a Deno-kernel `.ipynb` from a script in "percent" format (`// %%` starts a code cell,
 * `// %% [markdown]` a Markdown cell whose lines are `//`-comments). Handy to write or review a
 * notebook as plain TypeScript; cell ids are derived from the position, so output is stable.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { percentToNotebook } from "@runlens/notebook/percent.ts";
 * const nb = percentToNotebook("// %% [markdown]\n// # Title\n// %%\n1 + 1\n");
 * assert.deepEqual(nb.cells.map((c) => [c.cell_type, c.source]), [
 *   ["markdown", ["# Title"]],
 *   ["code", ["1 + 1"]],
 * ]);
 * ```
 * @module
 */
import { type Command, runCommand } from "../core/command.ts";

/** A minimal nbformat 4.5 notebook. */
export interface Notebook {
  cells: Record<string, unknown>[];
  metadata: Record<string, unknown>;
  nbformat: 4;
  nbformat_minor: 5;
}

/** Split `source` into lines the way nbformat stores them (each keeps its "\n"). */
function lines(source: string): string[] {
  const parts = source.split("\n");
  return parts.map((l, i) => (i < parts.length - 1 ? l + "\n" : l)).filter((l) => l !== "");
}

/** Convert a percent-format script into a notebook (no outputs). */
export function percentToNotebook(script: string): Notebook {
  const chunks = script.split(/^\/\/ %%/m).slice(1);
  const cells = chunks.map((chunk, i) => {
    const newline = chunk.indexOf("\n");
    const header = chunk.slice(0, newline < 0 ? chunk.length : newline).trim();
    const body = (newline < 0 ? "" : chunk.slice(newline + 1)).replace(/\s+$/, "");
    const id = `cell-${String(i).padStart(2, "0")}`;
    if (header === "[markdown]") {
      const md = body.split("\n").map((l) => l.replace(/^\/\/ ?/, "")).join("\n");
      return { cell_type: "markdown", id, metadata: {}, source: lines(md) };
    }
    return {
      cell_type: "code",
      execution_count: null,
      id,
      metadata: {},
      outputs: [],
      source: lines(body),
    };
  });
  return {
    cells,
    metadata: {
      kernelspec: { display_name: "Deno", language: "typescript", name: "deno" },
      language_info: { name: "typescript" },
    },
    nbformat: 4,
    nbformat_minor: 5,
  };
}

/** `lib/notebook/percent.ts` as a script. */
export const percentCommand: Command<{ input: string; output: string }> = {
  name: "percent",
  invocation: "deno run --allow-all lib/notebook/percent.ts",
  summary: "Build a Deno-kernel notebook from a script in percent format (// %% starts a code " +
    "cell, // %% [markdown] a Markdown cell).",
  usage: "<script.ts> <notebook.ipynb>",
  arguments: { "script.ts": "the percent-format script", "notebook.ipynb": "the notebook written" },
  options: {},
  prints: "Nothing: the notebook is written (cell ids from their position, so the output is " +
    "stable).",
  examples: ["deno run --allow-all lib/notebook/percent.ts draft.ts notebooks/99_draft.ipynb"],
  failure: "the script cannot be read or the notebook cannot be written",
  parse: ({ positionals }) =>
    positionals.length === 2
      ? { input: positionals[0], output: positionals[1] }
      : "give the script and the notebook",
  run: ({ input, output }) => {
    const nb = percentToNotebook(Deno.readTextFileSync(input));
    Deno.writeTextFileSync(output, JSON.stringify(nb, null, 1) + "\n");
    return 0;
  },
};

if (import.meta.main) Deno.exit(await runCommand(percentCommand, Deno.args));
