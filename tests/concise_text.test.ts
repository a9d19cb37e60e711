/**
 * Concise text (issue 25, item 3): a run of 27 headerless per-task CSVs — generated here
 * from the BBH release, a third of the responses without an answer — printed its 27 paths on
 * its `rows:` line (about 5,000 characters). Long lists are now summarised (`27 files in
 * few_gen_cot/`, the fields once per choice, the quarantine by reason) and `--verbose` lists
 * them all, while the warnings that matter — no answer found, quarantine reasons, the advice —
 * are printed whole either way, and `--json` is the same with or without `--verbose`.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runlensMain } from "@runlens/cli/runlens.ts";
import { inProcess } from "./_cli.ts";
import { dataTest } from "./_data.ts";
import { readBbhExamples } from "./_examples.ts";
import { withTempDir } from "./_tmp.ts";

/** `runlens args…` in this process: its exit code and what it printed. */
const runlens = (args: string[]) => inProcess(() => runlensMain(args));

const quote = (s: string) => `"${s.replaceAll('"', '""')}"`;

/** A CoT response: the target after "So the answer is", except every third has no answer. */
const response = (target: string, i: number) =>
  i % 3 === 0
    ? "I cannot decide between the options."
    : `Step by step. So the answer is ${target}.`;

/**
 * One headerless CSV per BBH task under `folder` (question, response, target; the columns in
 * `order` for the tasks `reorder` picks); returns the paths in task order.
 */
function writeCsvRun(
  data: string,
  folder: string,
  reorder: (task: string) => boolean = () => false,
): string[] {
  Deno.mkdirSync(folder, { recursive: true });
  return Object.entries(readBbhExamples(data)).map(([task, examples]) => {
    const path = join(folder, `${task}.csv`);
    const lines = examples.map((e, i) => {
      const cells = [e.input, response(e.target, i), e.target].map(quote);
      return (reorder(task) ? [cells[2], cells[0], cells[1]] : cells).join(",");
    });
    Deno.writeTextFileSync(path, lines.join("\n") + "\n");
    return path;
  });
}

/** The lines of run `run`'s block in a text report (its `run` line up to the blank line). */
function runBlock(text: string, run: string): string[] {
  const lines = text.split("\n");
  const at = lines.findIndex((l) => l.startsWith(`run ${run}  (`));
  assert.ok(at >= 0, text.slice(0, 2000));
  const end = lines.indexOf("", at);
  return lines.slice(at, end);
}

dataTest(
  "27 headerless CSVs: one short rows line, one fields line; --verbose lists all",
  (data) =>
    withTempDir(async (dir) => {
      const folder = join(dir, "few_gen_cot");
      const files = writeCsvRun(data, folder);
      assert.equal(files.length, 27);
      const args = ["score", folder, "--data", data, "--no-cache"];
      const short = await runlens(args);
      assert.equal(short.code, 0, short.stderr);
      const block = runBlock(short.stdout, "few_gen_cot");
      const rowsLine = block.find((l) => l.startsWith("  rows: "))!;
      assert.match(rowsLine, new RegExp(`\\[27 files in ${folder}/; --verbose lists them\\]$`));
      assert.ok(rowsLine.length < 200, rowsLine);
      for (const f of files) assert.ok(!short.stdout.includes(f), f); // no path printed
      const fields = block.filter((l) => /^ {2}(fields of |\d+ files in )/.test(l));
      assert.deepEqual(fields.map((l) => l.split(" (")[0]), [
        `  27 files in ${folder}/: input ← column 0, response ← column 1, target ← column 2`,
      ]);

      const verbose = await runlens([...args, "--verbose"]);
      assert.equal(verbose.code, 0, verbose.stderr);
      const full = runBlock(verbose.stdout, "few_gen_cot");
      assert.ok(full.find((l) => l.startsWith("  rows: "))!.endsWith(`[${files.join(", ")}]`));
      const perFile = full.filter((l) => l.startsWith("  fields of "));
      assert.deepEqual(perFile.map((l) => l.slice("  fields of ".length).split(":")[0]), files);

      // what matters is never folded: the advice for every task is the same in both
      const advice = (text: string) => text.slice(text.indexOf("no answer found ("));
      const listed = Number(/^no answer found \((\d+)\):\n/.exec(advice(short.stdout))?.[1]);
      const tasks = advice(short.stdout).split("\n").filter((l) =>
        l.startsWith("  no answer found in")
      );
      assert.equal(tasks.length, listed);
      assert.ok(listed > 20, advice(short.stdout)); // a third of the answers missing: most tasks
      assert.equal(advice(short.stdout), advice(verbose.stdout));
      // and the JSON is complete, with or without --verbose
      const json = await runlens([...args, "--json"]);
      const jsonVerbose = await runlens([...args, "--json", "--verbose"]);
      assert.equal(json.stdout, jsonVerbose.stdout);
      assert.deepEqual(Object.keys(JSON.parse(json.stdout).runs[0].fields), files);
    }),
);

dataTest(
  "distinct column choices: one line per choice, with its count of files",
  (data) =>
    withTempDir(async (dir) => {
      const folder = join(dir, "mixed_order");
      // 4 tasks written target first: their own rows decide their columns
      const moved = new Set(["navigate", "snarks", "hyperbaton", "web_of_lies"]);
      writeCsvRun(data, folder, (t) => moved.has(t));
      const r = await runlens(["score", folder, "--data", data, "--no-cache"]);
      assert.equal(r.code, 0, r.stderr);
      // files of one choice and one evidence in one line; the evidence of a file decided by its
      // own rows counts its rows (snarks has 178, the others 250): one line per count
      const choices = new Map<string, number>();
      for (const line of runBlock(r.stdout, "mixed_order")) {
        const m = /^ {2}(?:(\d+) files in [^:]+|fields of [^:]+): ([^(]+) \(/.exec(line);
        if (m) choices.set(m[2], (choices.get(m[2]) ?? 0) + Number(m[1] ?? 1));
      }
      assert.deepEqual(Object.fromEntries(choices), {
        "input ← column 0, response ← column 1, target ← column 2": 23,
        "input ← column 1, response ← column 2, target ← column 0": 4,
      });
      assert.equal(r.stdout.match(/column 0 \(/g)?.length, 2, r.stdout); // 250 rows, and 178
    }),
);

dataTest(
  "files of one run across folders, and a long quarantine: summarised, not hidden",
  (data) =>
    withTempDir(async (dir) => {
      // JSON lines naming their model: one run over 27 files in 3 folders
      const examples = Object.entries(readBbhExamples(data));
      const files = examples.map(([task, list], t) => {
        const folder = join(dir, "logs", ["seed1", "seed2", "seed3"][t % 3]);
        Deno.mkdirSync(folder, { recursive: true });
        const path = join(folder, `${task}.jsonl`);
        const records = list.slice(0, 20).map((e, i) => ({
          model: "m",
          question: e.input,
          output: response(e.target, i),
          gold: e.target,
        }));
        // 3 lines per file that are no JSON: 81 quarantined rows of one reason
        const lines = [...records.map((x) => JSON.stringify(x)), ...["{", "{", "{"]];
        Deno.writeTextFileSync(path, lines.join("\n") + "\n");
        return path;
      });
      const args = ["score", join(dir, "logs"), "--data", data, "--no-cache"];
      const short = await runlens(args);
      const block = runBlock(short.stdout, "m");
      const logs = `${join(dir, "logs")}/`;
      assert.match(
        block.find((l) => l.startsWith("  rows: "))!,
        new RegExp(`\\[27 files in 3 folders of ${logs} \\(seed1/, seed2/, seed3/\\); --verbose`),
      );
      const fields = block.filter((l) => l.startsWith("  fields of "));
      assert.equal(fields.length, 1, fields.join("\n"));
      assert.match(fields[0], new RegExp(`^ {2}fields of 27 files in 3 folders of ${logs} `));
      // the quarantine: its reason and count always, 3 examples, the rest under --verbose
      const quarantine = short.stdout.slice(short.stdout.indexOf("quarantine (81 rows):"));
      assert.match(
        quarantine,
        /\n {2}81 × [^\n]+\n(?: {4}\S+:\d+: [^\n]+\n){3} {4}… 78 more \(--verbose lists them, --json too\)\n/,
      );
      const verbose = await runlens([...args, "--verbose"]);
      const listed = verbose.stdout.split("\n").filter((l) => /^ {2}\/\S+\.jsonl:\d+: /.test(l));
      assert.equal(listed.length, 81);
      assert.deepEqual(new Set(listed.map((l) => l.trim().split(":")[0])), new Set(files));
    }),
);
