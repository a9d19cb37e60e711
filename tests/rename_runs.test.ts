/**
 * `--rename OLD=NEW` and `--rename-file FILE` (issue 25, item 3): runs that lm-eval names
 * `meta-llama__Llama-3.2-3B-Instruct_2026-01-08T17-20-31.984236` (its model folder and the
 * date of the files, built here from the fixture's samples under another folder and date)
 * carry the new name in every output — text, JSON, `--rows`, compare's pairs and `--baseline`,
 * the report — and every rename that would lose or merge a run is a usage error (exit 2).
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runlensMain } from "@runlens/cli/runlens.ts";
import { inProcess } from "./_cli.ts";
import { dataTest } from "./_data.ts";
import { withTempDir } from "./_tmp.ts";

const LONG = "meta-llama__Llama-3.2-3B-Instruct_2026-01-08T17-20-31.984236";
/** The fixture's run: lm-eval's folder `org__tiny-model` and the files' date. */
const FIXTURE_RUN = "org__tiny-model_2025-01-25T04-48-43.622918";
const FIXTURE = "tests/fixtures/logs/bbh/lm_eval";

/** `runlens args…` in this process: its exit code and what it printed. */
const runlens = (args: string[]) => inProcess(() => runlensMain(args));

/** The fixture's lm-eval files copied under `meta-llama__Llama-3.2-3B-Instruct/`, dated 2026. */
function longNamedRun(dir: string): string {
  const folder = join(dir, "lm", "meta-llama__Llama-3.2-3B-Instruct");
  Deno.mkdirSync(folder, { recursive: true });
  for (const f of Deno.readDirSync(join(FIXTURE, "org__tiny-model"))) {
    const to = f.name.replace("2025-01-25T04-48-43.622918", "2026-01-08T17-20-31.984236");
    Deno.copyFileSync(join(FIXTURE, "org__tiny-model", f.name), join(folder, to));
  }
  return join(dir, "lm");
}

dataTest(
  "--rename: the new name in the text, the JSON, --rows, compare and the report",
  (data) =>
    withTempDir(async (dir) => {
      const logs = [longNamedRun(dir), FIXTURE, "--data", data, "--no-cache"];
      // as read: the long name (the premise of the rest)
      const plain = JSON.parse((await runlens(["score", ...logs, "--json"])).stdout);
      assert.deepEqual(plain.runs.map((r: { run: string }) => r.run), [LONG, FIXTURE_RUN]);

      const rename = ["--rename", `${LONG}=llama-3b`];
      const rows = join(dir, "rows.jsonl");
      const json = await runlens(["score", ...logs, ...rename, "--json", "--rows", rows]);
      assert.equal(json.code, 0, json.stderr);
      const report = JSON.parse(json.stdout);
      // sorted by the new names: "llama-3b" < "org__…"
      assert.deepEqual(report.runs.map((r: { run: string }) => r.run), ["llama-3b", FIXTURE_RUN]);
      assert.deepEqual(report.renamed, { [LONG]: "llama-3b" });
      assert.deepEqual(report.runs[0].tasks, plain.runs[0].tasks); // the same rows, renamed
      assert.ok(!json.stdout.replace(/"renamed":\{[^}]*\}/, "").includes(LONG));
      const runs = Deno.readTextFileSync(rows).trim().split("\n").map((l) => JSON.parse(l).run);
      assert.deepEqual([...new Set(runs)].sort(), ["llama-3b", FIXTURE_RUN]);
      assert.equal(runs.length, 10);

      const text = await runlens(["score", ...logs, ...rename]);
      const lines = text.stdout.split("\n");
      const at = lines.findIndex((l) => l.startsWith("run llama-3b  (bbh"));
      assert.ok(at >= 0, text.stdout);
      assert.ok(lines.slice(at, at + 4).includes(`  renamed from ${LONG} (--rename)`));

      // compare pairs the new names, and --baseline takes one
      const compare = await runlens([
        "compare",
        ...logs,
        ...rename,
        "--baseline",
        "llama-3b",
        "--json",
      ]);
      assert.equal(compare.code, 0, compare.stderr);
      const pairs = JSON.parse(compare.stdout).comparisons.map((
        c: { run_a: string; run_b: string },
      ) => [c.run_a, c.run_b]);
      assert.deepEqual(pairs, [[FIXTURE_RUN, "llama-3b"]]);

      const out = join(dir, "report");
      const built = await runlens(["report", ...logs, ...rename, "--out", out]);
      assert.equal(built.code, 0, built.stderr);
      const files = built.stdout.replace(/^runlens report: wrote /, "").split(", ");
      const html = files.filter((f) => /\.(html|md)$/.test(f)).map((f) => Deno.readTextFileSync(f))
        .join("\n")
        // the command line the report records holds the old name in its --rename
        .replaceAll(`${LONG}=llama-3b`, "");
      assert.ok(html.includes("llama-3b"), files.join(", "));
      assert.ok(!html.includes(LONG), "the report names the run as renamed");
    }),
);

dataTest(
  "--rename-file: a JSON object, or lines old=new and old<TAB>new, with --rename",
  (data) =>
    withTempDir(async (dir) => {
      const logs = [longNamedRun(dir), FIXTURE, "--data", data, "--no-cache", "--json"];
      const names = async (args: string[]) => {
        const r = await runlens(["score", ...logs, ...args]);
        assert.equal(r.code, 0, r.stderr);
        return JSON.parse(r.stdout).runs.map((x: { run: string }) => x.run);
      };
      const json = join(dir, "names.json");
      Deno.writeTextFileSync(json, JSON.stringify({ [LONG]: "llama 3B", [FIXTURE_RUN]: "tiny" }));
      assert.deepEqual(await names(["--rename-file", json]), ["llama 3B", "tiny"]);
      const lines = join(dir, "names.txt");
      // a tab lets a new name hold "=" and ","
      Deno.writeTextFileSync(lines, `# names for the paper\n${LONG}\tllama=3B, instruct\n\n`);
      assert.deepEqual(await names(["--rename-file", lines, "--rename", `${FIXTURE_RUN}=tiny`]), [
        "llama=3B, instruct",
        "tiny",
      ]);
      // a swap merges nothing
      assert.deepEqual(
        await names(["--rename", `${LONG}=${FIXTURE_RUN},${FIXTURE_RUN}=${LONG}`]),
        [LONG, FIXTURE_RUN],
      );
    }),
);

dataTest(
  "--rename that loses or merges a run, or is malformed: exit 2, saying why",
  (data) =>
    withTempDir(async (dir) => {
      const logs = [longNamedRun(dir), FIXTURE, "--data", data, "--no-cache"];
      const refused = async (args: string[], message: RegExp) => {
        const r = await runlens(["score", ...logs, ...args]);
        assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
        assert.equal(r.stdout, "");
        assert.match(r.stderr.split("\n")[0], message);
      };
      // a typo: the runs listed, the close one suggested
      const typo = LONG.replace("3B", "8B");
      await refused(
        ["--rename", `${typo}=x`],
        new RegExp(`no run of that name \\(did you mean ${LONG}\\?\\); the runs: ${LONG}, org__`),
      );
      await refused(["--rename", "nothing-like-it=x"], /no run of that name; the runs: /);
      await refused(["--rename", `${LONG}=${FIXTURE_RUN}`], /another run's name; a rename never/);
      await refused(["--rename", `${LONG}=x,${FIXTURE_RUN}=x`], /both renamed x; a rename never/);
      await refused(["--rename", LONG], /not OLD=NEW/);
      await refused(["--rename", `${LONG}=`], /not OLD=NEW/);
      await refused(["--rename", `${LONG}=a`, "--rename", `${LONG}=b`], /renamed twice/);
      const bad = join(dir, "bad.txt");
      Deno.writeTextFileSync(bad, `${LONG}=x\njust a name\n`);
      await refused(["--rename-file", bad], /bad.txt:2: not old=new or old<TAB>new/);
      await refused(["--rename-file", join(dir, "none.json")], /--rename-file .*cannot be read/);
      // every command that loads logs has the option
      for (const command of ["analyze", "compare", "report"]) {
        const out = command === "report" ? ["--out", join(dir, "report")] : [];
        const r = await runlens([command, ...logs, "--rename", "nothing-like-it=x", ...out]);
        assert.equal(r.code, 2, `${command}: ${r.stderr}`);
      }
    }),
);
