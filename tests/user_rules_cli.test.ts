/**
 * Your own rule from the command line (issue 22, item 3), on logs built at test time from the
 * BBH data set in a convention no built-in scorer reads (`ANSWER=>…<=`, `_arrow_logs.ts`):
 * `--answer-pattern REGEX` and `--scorer ./rule.ts` give the verdicts each record was built to
 * get, under the rule's name, in `score`, `compare`, `analyze` and `report`; the module is
 * loaded by the scoring Workers too; the cache follows an edit of the module; wrong rules are
 * usage errors found before anything is scored.
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT } from "@runlens/core/data_dir.ts";
import { readBbhExamples } from "@runlens/benchmarks/bbh/examples.ts";
import { type CliResult, runCli } from "./_cli.ts";
import { dataTest } from "./_data.ts";
import { withTempDir } from "./_tmp.ts";
import {
  ARROW,
  arrowLog,
  arrowModule,
  expectedAccuracy,
  expectedTasks,
  reportedTasks,
  totalCorrect,
  writeLines,
} from "./_arrow_logs.ts";

const PATTERN_NAME = `pattern:${ARROW}`;

/** A report's JSON, after checking the exit code. */
function json(r: CliResult) {
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

dataTest(
  "--answer-pattern: the last match's group, matched by type, named pattern:…",
  (data) =>
    withTempDir(async (dir) => {
      const log = arrowLog(data, { runs: ["r1"], perTask: 30 });
      const path = writeLines(join(dir, "arrow.jsonl"), log.records);
      const rows = join(dir, "rows.jsonl");
      const r = await runCli([
        "score",
        path,
        "--data",
        data,
        "--no-cache",
        "--json",
        "--rows",
        rows,
        "--answer-pattern",
        ARROW,
      ]);
      const [run] = json(r).runs;
      assert.equal(run.scorer, PATTERN_NAME);
      assert.deepEqual([run.rows_in, run.rows_scored], [810, 810]);
      assert.deepEqual(reportedTasks(run.tasks), expectedTasks(log.built, "r1"));
      // per row: the answer of the LAST marker, none where the response uses another convention
      const written = Deno.readTextFileSync(rows).trim().split("\n").map((l) => JSON.parse(l));
      const byKey = new Map(log.built.map((b) => [`${b.task}/${b.example_index}`, b]));
      for (const row of written) {
        const b = byKey.get(`${row.task}/${row.example_index}`)!;
        assert.equal(row.scorer, PATTERN_NAME);
        assert.deepEqual([row.answer, row.correct], [b.answer, b.correct], JSON.stringify(row));
      }
      // the default rule reads none of these answers: the pattern is what makes them count
      const plain = json(await runCli(["score", path, "--data", data, "--no-cache", "--json"]));
      assert.equal(plain.runs[0].scorer, "bbh-release-cot");
      const [plainCorrect, ruleCorrect] = [
        totalCorrect(plain.runs[0].tasks),
        totalCorrect(run.tasks),
      ];
      assert.ok(
        plainCorrect < ruleCorrect,
        `${plainCorrect} vs ${ruleCorrect}`,
      );
    }),
);

dataTest(
  "--scorer ./rule.ts: a module's rule, by a path relative to the working folder",
  (data) =>
    withTempDir(async (dir) => {
      const log = arrowLog(data, { runs: ["r1", "r2"], perTask: 12 });
      const path = writeLines(join(dir, "logs", "arrow.jsonl"), log.records);
      Deno.writeTextFileSync(join(dir, "arrow_rule.ts"), arrowModule("arrow-rule"));
      const rule = ["--scorer", "./arrow_rule.ts", "--no-cache", "--data", data];
      const score = json(await runCli(["score", path, "--json", ...rule], { cwd: dir }));
      for (const run of score.runs) {
        assert.equal(run.scorer, "arrow-rule");
        assert.deepEqual(reportedTasks(run.tasks), expectedTasks(log.built, run.run));
      }
      // the same verdicts flow into compare, analyze and report, under the rule's name
      const compare = await runCli(["compare", path, ...rule], { cwd: dir });
      assert.equal(compare.code, 0, compare.stderr);
      assert.match(
        compare.stdout,
        /^r1 vs r2 \(bbh\): 324 paired examples; .*; scorer arrow-rule$/m,
      );
      const pattern = ["--answer-pattern", ARROW, "--no-cache", "--data", data];
      const cmp = json(await runCli(["compare", path, "--json", ...pattern], { cwd: dir }));
      assert.deepEqual(cmp.runs.map((r: { scorer: string }) => r.scorer), [
        PATTERN_NAME,
        PATTERN_NAME,
      ]);
      const overall = cmp.comparisons[0].overall;
      assert.ok(Math.abs(overall.acc_a - expectedAccuracy(log.built, "r1")) < 1e-9);
      assert.ok(Math.abs(overall.acc_b - expectedAccuracy(log.built, "r2")) < 1e-9);
      const analyze = json(await runCli(["analyze", path, "--json", ...rule], { cwd: dir }));
      assert.deepEqual(analyze.runs.map((r: { scorer: string }) => r.scorer), [
        "arrow-rule",
        "arrow-rule",
      ]);
      const out = join(dir, "report");
      const report = await runCli(["report", path, "--out", out, ...rule], { cwd: dir });
      assert.equal(report.code, 0, report.stderr);
      const md = Deno.readTextFileSync(join(out, "report.md"));
      assert.match(md, /\| r1 +\| .*\| arrow-rule +\|/);
      assert.match(md, /^- scorers: arrow-rule$/m); // the provenance names the rule alone
    }),
);

dataTest(
  "README's example module reads its convention, its name on every number",
  (data) =>
    withTempDir(async (dir) => {
      const readme = Deno.readTextFileSync(join(REPO_ROOT, "README.md"));
      const section = readme.split("### Your own scoring rule")[1] ?? "";
      const module = /```ts\n(\/\/ my_rule\.ts\n[\s\S]*?)```/.exec(section)?.[1];
      assert.ok(module, "README shows the example module");
      assert.ok(module.split("\n").length <= 12, "a short example");
      Deno.writeTextFileSync(join(dir, "my_rule.ts"), module);
      const block = (a: string) => `>> FINAL ANSWER:\n"""\n${a}\n"""`;
      const log = arrowLog(data, { runs: ["r1"], perTask: 10, convention: block });
      const path = writeLines(join(dir, "chat.jsonl"), log.records);
      const r = await runCli([
        "score",
        path,
        "--data",
        data,
        "--no-cache",
        "--json",
        "--scorer",
        "./my_rule.ts",
      ], {
        cwd: dir,
      });
      const [run] = json(r).runs;
      assert.equal(run.scorer, "final-answer-block");
      assert.deepEqual(reportedTasks(run.tasks), expectedTasks(log.built, "r1"));
    }),
);

dataTest(
  "--scorer ./rule.ts --workers 2: the scoring Workers load the module too",
  (data) =>
    withTempDir(async (dir) => {
      // one file per task, ~2.8 MB in all: tasks of at most 1 MB, so two Workers score them
      const log = arrowLog(data, { runs: ["big"], pad: 8 });
      const tasks = Map.groupBy(log.records, (r) => r.task as string);
      for (const [task, records] of tasks) writeLines(join(dir, "logs", `${task}.jsonl`), records);
      const trace = join(dir, "loaded.txt");
      Deno.writeTextFileSync(join(dir, "arrow_rule.ts"), arrowModule("arrow-rule", { trace }));
      const r = await runCli([
        "score",
        join(dir, "logs"),
        "--data",
        data,
        "--no-cache",
        "--json",
        "--workers",
        "2",
        "--scorer",
        join(dir, "arrow_rule.ts"),
      ]);
      const [run] = json(r).runs;
      assert.equal(run.scorer, "arrow-rule");
      assert.deepEqual([run.rows_in, run.rows_scored], [6511, 6511]);
      assert.deepEqual(reportedTasks(run.tasks), expectedTasks(log.built, "big"));
      // checked once in the main thread, then imported by each of the two Workers
      const loaded = Deno.readTextFileSync(trace).trim().split("\n").sort();
      assert.deepEqual(loaded, ["main", "worker", "worker"]);
    }),
);

dataTest(
  "the cache keys on the module's content: an edited rule scores again",
  (data) =>
    withTempDir(async (dir) => {
      const log = arrowLog(data, { runs: ["r1"], perTask: 10 });
      const path = writeLines(join(dir, "arrow.jsonl"), log.records);
      const module = join(dir, "arrow_rule.ts");
      const args = [
        "score",
        path,
        "--data",
        data,
        "--json",
        "--cache",
        join(dir, "cache"),
        "--scorer",
        module,
      ];
      const correct = (r: CliResult) => totalCorrect(json(r).runs[0].tasks);
      Deno.writeTextFileSync(module, arrowModule("arrow-rule"));
      const expected = totalCorrect(expectedTasks(log.built, "r1"));
      assert.equal(correct(await runCli(args)), expected);
      assert.equal(correct(await runCli(args)), expected); // from the cache
      // the same name, another rule: every answer is wrong now
      Deno.writeTextFileSync(
        module,
        arrowModule("arrow-rule", { extra: "\n  match: () => false," }),
      );
      assert.equal(correct(await runCli(args)), 0);
      assert.ok(Deno.readDirSync(join(dir, "cache")), "the cache was written");
    }),
);

dataTest(
  "wrong rules: usage errors (exit 2) naming the flag or the file, before any scoring",
  (data) =>
    withTempDir(async (dir) => {
      // a log path that does not exist: had anything been read first, that would be the error
      const missing = join(dir, "no_such_log.jsonl");
      const usage = async (args: string[], message: RegExp) => {
        const r = await runCli(["score", missing, "--data", data, "--no-cache", ...args], {
          cwd: dir,
        });
        assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
        assert.match(r.stderr, message);
        assert.equal(r.stdout, "");
      };
      await usage(
        ["--answer-pattern", "ANSWER=>(.*"],
        /^runlens score: --answer-pattern "ANSWER=>\(\.\*": not a regular expression/,
      );
      await usage(["--answer-pattern", ""], /--answer-pattern needs a value/);
      // Python's syntax: refused with the JavaScript to write (never "Invalid group" alone,
      // never \A silently read as the letter A)
      await usage(
        ["--answer-pattern", "(?P<a>\\w+) = (?P=a)\\Z"],
        /uses Python's syntax, not JavaScript's: .*: write it as \(\?<a>\\w\+\) = \\k<a>\$$/m,
      );
      await usage(
        ["--answer-pattern", "\\Aanswer: (\\w+)"],
        /"\\A" \/ "\\Z" \(JavaScript reads them as the letters A and Z\): write it as \^answer/,
      );
      await usage(
        ["--answer-pattern", "x", "--scorer", "lenient"],
        /--scorer and --answer-pattern: give one/,
      );
      await usage(
        ["--scorer", "./nowhere.ts"],
        /^runlens score: scorer module \.\/nowhere\.ts: no such file/,
      );
      const write = (name: string, text: string) => Deno.writeTextFileSync(join(dir, name), text);
      write("no_export.ts", "export const helper = 1;\n");
      await usage(
        ["--scorer", "./no_export.ts"],
        /^runlens score: scorer module \.\/no_export\.ts: exports no rule: .*; it exports helper/,
      );
      write("throws.ts", 'throw new Error("rule file is broken");\nexport default {};\n');
      await usage(
        ["--scorer", "./throws.ts"],
        /^runlens score: scorer module \.\/throws\.ts: cannot be loaded: rule file is broken/,
      );
      write("syntax.ts", "export default { name: };\n");
      await usage(
        ["--scorer", "./syntax.ts"],
        /^runlens score: scorer module \.\/syntax\.ts: cannot be loaded: .*SyntaxError/,
      );
      write("no_extract.ts", 'export default { name: "mine", extract: "ANSWER" };\n');
      await usage(
        ["--scorer", "./no_extract.ts"],
        /scorer module \.\/no_extract\.ts: extract must be a function, not a string/,
      );
      write("builtin.ts", arrowModule("lenient"));
      await usage(
        ["--scorer", "./builtin.ts"],
        /scorer module \.\/builtin\.ts: the rule's name "lenient" is a built-in scorer's/,
      );
      write("bbx.ts", 'export default { name: "x", benchmarks: ["bbx"], extract: () => null };\n');
      await usage(
        ["--scorer", "./bbx.ts"],
        /scorer module \.\/bbx\.ts: unknown benchmark\(s\) bbx/,
      );
      // the other commands share the options and the errors
      for (const command of ["analyze", "compare", "report"]) {
        const r = await runCli([command, missing, "--data", data, "--scorer", "./no_export.ts"], {
          cwd: dir,
        });
        assert.equal(r.code, 2, `${command}: ${r.stderr}`);
        assert.match(
          r.stderr,
          new RegExp(`^runlens ${command}: scorer module \\./no_export\\.ts: exports no rule`),
        );
      }
    }),
);

dataTest(
  "a rule that fails on a response: the file's error names the rule (exit 1)",
  (data) =>
    withTempDir(async (dir) => {
      const log = arrowLog(data, { runs: ["r1"], perTask: 2 });
      const path = writeLines(join(dir, "arrow.jsonl"), log.records);
      Deno.writeTextFileSync(
        join(dir, "bad.ts"),
        'export default { name: "numbers", extract: (r: string) => r.length };\n',
      );
      const r = await runCli([
        "score",
        path,
        "--data",
        data,
        "--no-cache",
        "--scorer",
        join(dir, "bad.ts"),
      ]);
      assert.equal(r.code, 1, r.stderr);
      assert.match(
        r.stderr,
        /arrow\.jsonl: line 1: scorer numbers: extract returned a number, not a string or null$/m,
      );
    }),
);

dataTest(
  "--answer-pattern '(?i)…': a usage error whose suggested JavaScript pattern scores the log",
  (data) =>
    withTempDir(async (dir) => {
      // "Answer:" in three cases, a letter without parentheses: right on 2 rows of 3
      const examples = readBbhExamples(data).date_understanding.slice(0, 30);
      const cue = ["ANSWER", "Answer", "answer"];
      const lines = examples.map((e, i) => {
        const letter = i % 3 === 2 ? (e.target === "(A)" ? "B" : "A") : e.target.slice(1, 2);
        return JSON.stringify({
          run: "cased",
          benchmark: "bbh",
          task: "date_understanding",
          example_index: i,
          response: `Thinking it through.\n${cue[i % 3]}: ${letter}`,
        });
      });
      const log = join(dir, "cased.jsonl");
      Deno.writeTextFileSync(log, lines.join("\n") + "\n");
      const python = "(?i)answer: ([a-z])";
      const refused = await runCli(["score", log, "--data", data, "--answer-pattern", python]);
      assert.equal(refused.code, 2);
      const suggested = /write it as (\S+: \S+)/.exec(refused.stderr)?.[1];
      assert.equal(suggested, "(?i:answer: ([a-z]))", refused.stderr);
      assert.ok(refused.stderr.includes("spell the cases out with classes such as [Aa]"));
      const args = ["score", log, "--data", data, "--no-cache", "--json"];
      const [run] = json(await runCli([...args, "--answer-pattern", suggested!])).runs;
      const right = examples.filter((_, i) => i % 3 !== 2).length;
      assert.deepEqual([run.tasks.date_understanding.correct, run.no_answer], [right, 0]);
    }),
);
