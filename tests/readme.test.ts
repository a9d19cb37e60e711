/**
 * README.md and the docs it leads to stay true: the two set-up commands (README.md), the row
 * schema (docs/logs.md) and the limits table (docs/limits.md).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT } from "@runlens/core/data_dir.ts";
import { schemaMarkdown } from "@runlens/core/schema.ts";
import { DEFAULT_LIMITS, LIMIT_FLAGS, MAX_RESPONSE_CHARS } from "@runlens/logs/limits.ts";
import { MAX_DOCUMENT_BYTES } from "@runlens/logs/sources/document.ts";
import { MAX_ZSTD_WINDOW } from "@runlens/codecs/zip.ts";

const readme = Deno.readTextFileSync(join(REPO_ROOT, "README.md"));
const logsPage = Deno.readTextFileSync(join(REPO_ROOT, "docs", "logs.md"));
const limitsPage = Deno.readTextFileSync(join(REPO_ROOT, "docs", "limits.md"));

/** Markdown with every table row's cells trimmed (deno fmt pads them) and rules as `---`. */
function tablesUnpadded(markdown: string): string {
  return markdown.split("\n").map((line) =>
    line.startsWith("|")
      ? line.split("|").map((c) => c.trim()).map((c) => /^:?-+:?$/.test(c) ? "---" : c).join("|")
      : line
  ).join("\n");
}

Deno.test("docs/logs.md shows the row schema exactly as lib/core/schema.ts defines it", () => {
  assert.ok(
    tablesUnpadded(logsPage).includes(tablesUnpadded(schemaMarkdown())),
    "print it with: deno eval 'import {schemaMarkdown} from \"./lib/core/schema.ts\"; console.log(schemaMarkdown())'",
  );
});

Deno.test("README gives the two set-up commands, which deno.json defines", () => {
  assert.ok(readme.includes("npx -y deno@2.9.6 task main"));
  assert.ok(readme.includes("npx -y deno@2.9.6 task test"));
  const tasks = JSON.parse(Deno.readTextFileSync(join(REPO_ROOT, "deno.json"))).tasks;
  assert.ok(tasks.main && tasks.test);
});

/** The rows of docs/limits.md's limits table: constant → [default cell, flag cell]. */
function limitsTable(): Map<string, [string, string]> {
  const section = limitsPage.split("\n## Limits\n")[1]?.split("\n## ")[0] ?? "";
  const rows = new Map<string, [string, string]>();
  for (const line of section.split("\n")) {
    const cells = line.split("|").map((c) => c.trim());
    const constant = /^`([\w.]+)`$/.exec(cells[2] ?? "")?.[1];
    if (constant) rows.set(constant, [cells[3], cells[4]]);
  }
  return rows;
}

Deno.test("docs/limits.md's limits table gives every limit with its constant's default and its flag", () => {
  const rows = limitsTable();
  const fixed: Record<string, number> = {
    MAX_RESPONSE_CHARS,
    MAX_DOCUMENT_BYTES,
    MAX_ZSTD_WINDOW,
  };
  const expected = new Map<string, [number, string]>([
    ...(Object.keys(DEFAULT_LIMITS) as (keyof typeof DEFAULT_LIMITS)[]).map((
      key,
    ): [string, [number, string]] => [
      `DEFAULT_LIMITS.${key}`,
      [DEFAULT_LIMITS[key], `\`--${LIMIT_FLAGS[key]}\``],
    ]),
    ...Object.entries(fixed).map(([name, value]): [string, [number, string]] => [
      name,
      [value, "—"],
    ]),
  ]);
  assert.deepEqual([...rows.keys()].sort(), [...expected.keys()].sort());
  for (const [name, [value, flag]] of expected) {
    const [defaultCell, flagCell] = rows.get(name)!;
    assert.equal(
      Number(/^[\d,]+/.exec(defaultCell)?.[0].replaceAll(",", "")),
      value,
      `${name}: docs/limits.md says ${defaultCell}`,
    );
    assert.equal(flagCell, flag, name);
  }
});
