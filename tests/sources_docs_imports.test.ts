/**
 * The modules of the streaming path's document sources, containers and discovery are
 * polars-free (scoring Workers load them; importing nodejs-polars in a Worker costs
 * 300–450 ms): no module they reach imports `nodejs-polars`.
 * @module
 */
import assert from "node:assert/strict";

const MODULES = [
  "lib/codecs/byte_source.ts",
  "lib/codecs/crc32.ts",
  "lib/logs/discover.ts",
  "lib/codecs/gzip_stream.ts",
  "lib/codecs/inflate_budget.ts",
  "lib/codecs/json_limits.ts",
  "lib/codecs/zip.ts",
  "lib/logs/sources/documents.ts",
];

Deno.test("document sources, containers and discovery never load nodejs-polars", () => {
  // the check itself: a module known to load polars is caught
  const raw = new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "lib/pipeline/rows_frame.ts"],
    stdout: "piped",
  }).outputSync();
  assert.match(new TextDecoder().decode(raw.stdout), /"specifier": "npm:\/nodejs-polars@/);
  for (const module of MODULES) {
    const out = new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", module],
      stdout: "piped",
      stderr: "piped",
    }).outputSync();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
      modules: { specifier: string }[];
    };
    const polars = info.modules.map((m) => m.specifier).filter((s) => s.includes("nodejs-polars"));
    assert.deepEqual(polars, [], `${module} reaches ${polars.join(", ")}`);
    assert.ok(info.modules.some((m) => m.specifier.endsWith(module)), module);
  }
});
