/**
 * Notebook code type-checks: `deno check` ignores `.ipynb` files, so each notebook's code cells
 * are concatenated into a module (inside the repo, so the import map applies) and checked.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT } from "@runlens/core/data_dir.ts";
import { listNotebooks } from "@runlens/cli/main.ts";
import { notebookCode } from "./_notebook.ts";

// Not under .runlens/: deno.json excludes that folder, and `deno check` skips excluded files.
const checkDir = join(REPO_ROOT, ".nbcheck");

for (const path of listNotebooks()) {
  const name = path.split("/").at(-1)!;
  Deno.test(`${name}: code cells type-check`, async () => {
    Deno.mkdirSync(checkDir, { recursive: true });
    const file = join(checkDir, name.replace(/\.ipynb$/, ".ts"));
    Deno.writeTextFileSync(file, notebookCode(path));
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["check", "--quiet", file],
      cwd: REPO_ROOT,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.ok(out.success, new TextDecoder().decode(out.stderr));
  });
}
