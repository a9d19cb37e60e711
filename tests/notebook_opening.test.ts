/**
 * Every committed notebook opens on a result: rendered, its first screen is a title, one
 * paragraph, and a one-call code cell whose first output is the headline table or figure — no
 * import block or loading code before it (issue 24, item 3). The executed notebooks with run logs
 * are checked the same way in tests/notebook_logs.test.ts.
 */
import assert from "node:assert/strict";
import { basename, join } from "node:path";
import pl from "nodejs-polars";
import { listNotebooks } from "@runlens/cli/main.ts";
import { REPO_ROOT } from "@runlens/core/data_dir.ts";
import { SHOWN_ROWS } from "@runlens/notebook/context.ts";
import { openingProblem } from "./_notebook.ts";

for (const path of listNotebooks()) {
  Deno.test(`${basename(path)} opens on a result`, () => {
    assert.equal(openingProblem(path), null);
  });
}

Deno.test("the opening check rejects a notebook that opens on plumbing", () => {
  const dir = Deno.makeTempDirSync();
  const write = (cells: unknown[]) => {
    const path = `${dir}/nb.ipynb`;
    Deno.writeTextFileSync(path, JSON.stringify({ cells }));
    return path;
  };
  const md = (source: string) => ({ cell_type: "markdown", source });
  const code = (source: string, outputs: unknown[]) => ({ cell_type: "code", source, outputs });
  const table = { output_type: "display_data", data: { "text/html": "<table></table>" } };
  const stream = { output_type: "stream", text: "loading…" };
  const opening =
    'import { openNotebook, x } from "@runlens/mod.ts";\nconst nb = await openNotebook(x);';
  const intro = md("# Title\n\nWhat it shows, from what data, with which scorer.");
  assert.equal(openingProblem(write([intro, code(opening, [table])])), null);
  const imports = [
    "import {",
    ...Array.from({ length: 25 }, (_, i) => `  name${i},`),
    '} from "x";',
  ];
  assert.match(openingProblem(write([intro, code(imports.join("\n"), [])]))!, /has 27 lines/);
  assert.match(openingProblem(write([intro, code(opening, [stream, table])]))!, /not a table/);
  assert.match(openingProblem(write([intro, code(opening, [])]))!, /no output/);
  const two = md("# Title\n\nOne paragraph.\n\nOutputs: a second one.");
  assert.match(openingProblem(write([two, code(opening, [table])]))!, /more than one paragraph/);
  assert.match(
    openingProblem(write([md("Title\n\nText."), code(opening, [table])]))!,
    /not a title/,
  );
  Deno.removeSync(dir, { recursive: true });
});

Deno.test("a long written table shows its first rows in the notebook and names its file", () => {
  let cut = 0;
  for (const path of listNotebooks()) {
    const cells = JSON.parse(Deno.readTextFileSync(path)).cells;
    for (const out of cells.flatMap((c: { outputs?: unknown[] }) => c.outputs ?? [])) {
      const data = (out as { data?: Record<string, string | string[]> }).data ?? {};
      const html = [data["text/html"] ?? ""].flat().join("");
      const said = /Showing the first (\d+) of ([\d,]+) rows; all are in (results\/\S+\.csv)\./
        .exec(html);
      if (!said) continue;
      cut++;
      const [shown, all, file] = [Number(said[1]), Number(said[2].replaceAll(",", "")), said[3]];
      assert.equal(shown, SHOWN_ROWS);
      assert.equal(html.split("<tbody>")[1].split("<tr>").length - 1, shown, file);
      // the file holds them all
      assert.equal(pl.readCSV(Deno.readTextFileSync(join(REPO_ROOT, file))).height, all, file);
      assert.ok(all > shown);
    }
  }
  assert.ok(cut > 0, "no notebook table was cut: 04's 378-row format-sensitivity table is");
});
