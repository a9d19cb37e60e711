/**
 * `deno task runlens` started outside the repository (`deno task --config …/deno.json runlens
 * score logs/`): relative paths on its command line are the caller's, not the repository's
 * (deno task runs in its configuration's folder and names the caller's in `INIT_CWD`).
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT } from "@runlens/core/data_dir.ts";
import { dataTest } from "./_data.ts";
import { withTempDir } from "./_tmp.ts";

/** The parent's environment without `INIT_CWD` (set when the tests run under `deno task`). */
function environment(extra: Record<string, string>): Record<string, string> {
  const env = Deno.env.toObject();
  delete env.INIT_CWD;
  return { ...env, NO_COLOR: "1", ...extra };
}

dataTest(
  "deno task runlens from another folder reads and writes the caller's paths",
  (data) =>
    withTempDir(async (dir) => {
      Deno.mkdirSync(join(dir, "logs"));
      const log = join(REPO_ROOT, "tests", "fixtures", "logs", "mixed.jsonl");
      Deno.copyFileSync(log, join(dir, "logs", "mixed.jsonl"));
      const args = ["task", "--quiet", "--config", join(REPO_ROOT, "deno.json"), "runlens"];
      const out = await new Deno.Command(Deno.execPath(), {
        args: [
          ...args,
          "score",
          "logs/mixed.jsonl",
          "--json",
          "--no-cache",
          "--rows",
          "rows.jsonl",
        ],
        cwd: dir,
        clearEnv: true,
        env: environment({ RUNLENS_DATA: data }),
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stderr = new TextDecoder().decode(out.stderr);
      assert.equal(out.code, 0, stderr);
      const report = JSON.parse(new TextDecoder().decode(out.stdout));
      assert.deepEqual(report.files.map((f: { file: string }) => f.file), ["logs/mixed.jsonl"]);
      const scored = report.runs.reduce(
        (s: number, r: { rows_scored: number }) => s + r.rows_scored,
        0,
      );
      assert.ok(scored > 0);
      const rows = Deno.readTextFileSync(join(dir, "rows.jsonl")).trim().split("\n");
      assert.equal(rows.length, scored);
    }),
);
