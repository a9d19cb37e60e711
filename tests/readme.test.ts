/** README.md stays true: the schema table and the two set-up commands. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT } from "@runlens/core/data_dir.ts";
import { schemaMarkdown } from "@runlens/core/schema.ts";

const readme = Deno.readTextFileSync(join(REPO_ROOT, "README.md"));

Deno.test("README shows the row schema exactly as lib/core/schema.ts defines it", () => {
  assert.ok(
    readme.includes(schemaMarkdown()),
    "print it with: deno eval 'import {schemaMarkdown} from \"./lib/core/schema.ts\"; console.log(schemaMarkdown())'",
  );
});

Deno.test("README gives the two set-up commands, which deno.json defines", () => {
  assert.ok(readme.includes("npx -y deno@2.9.6 task main"));
  assert.ok(readme.includes("npx -y deno@2.9.6 task test"));
  const tasks = JSON.parse(Deno.readTextFileSync(join(REPO_ROOT, "deno.json"))).tasks;
  assert.ok(tasks.main && tasks.test);
});
