/**
 * The exit codes every command documents (`core/command.ts`): 0 done, 1 a data problem
 * (nothing scored, a file that cannot be read, data missing), 2 usage. One table, one row per
 * command word of `runlens` — run in this process through `runlensMain`, as `deno task runlens
 * <word>` runs it, so the table holds wherever a command's module lives — and rows for
 * `deno task main` and `deno task fuzz`: for each, a usage error of its own (not only an
 * unknown option), a data problem, and a run that works.
 *
 * Not run here: a good `deno task main` (it executes every notebook: minutes; its usage line
 * is run in cli_commands.test.ts) and `deno task bench` (a benchmark; its usage error is
 * checked with every command's in cli_commands.test.ts).
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { type Command, runCommand } from "@runlens/core/command.ts";
import { COMMAND_NAMES, runlensMain } from "@runlens/cli/runlens.ts";
import { mainCommand } from "@runlens/cli/main.ts";
import { inProcess } from "./_cli.ts";
import { dataTest } from "./_data.ts";
import { withTempDir } from "./_tmp.ts";
import { fuzzCommand } from "./fuzz/main.ts";

/** What the table's rows run in: the data directory and a scratch folder with logs in it. */
interface Setting {
  data: string;
  dir: string;
  /** Records of two runs (a, b), every one scored. */
  scored: string;
  /** Records of two runs whose every record is quarantined (a task no benchmark has). */
  quarantined: string;
  /** A `.jsonl.gz` that is no gzip: a file that cannot be read. */
  unreadable: string;
}

/** One command: its word and the arguments of each outcome (null: not run, see the module). */
interface Row {
  word: string;
  usage: (s: Setting) => string[];
  /** Data problems: each must exit 1. */
  data: (s: Setting) => string[][];
  good: ((s: Setting) => string[]) | null;
}

/** The rows of the commands that load run logs (`--no-cache`: each run reads the logs). */
const loading = (word: string, extra: (s: Setting) => string[] = () => []): Row => ({
  word,
  usage: (s) => [s.scored, "--data", s.data, "--run-by", "nowhere"],
  data: (s) => [
    [s.quarantined, "--data", s.data, "--no-cache", ...extra(s)],
    [s.unreadable, s.scored, "--data", s.data, "--no-cache", ...extra(s)],
    [join(s.dir, "no_such_log.jsonl"), "--data", s.data, "--no-cache", ...extra(s)],
  ],
  good: (s) => [s.scored, "--data", s.data, "--no-cache", ...extra(s)],
});

const TABLE: Row[] = [
  loading("score"),
  loading("analyze"),
  loading("compare"),
  loading("report", (s) => ["--out", join(s.dir, "report")]),
  {
    word: "subsets",
    usage: () => ["extra-argument"],
    data: (s) => [["--data", join(s.dir, "none")]],
    good: (s) => ["--data", s.data, "--json"],
  },
  {
    word: "bbm",
    usage: () => ["--data"],
    data: (s) => [["--data", join(s.dir, "none")], [
      "--data",
      "tests/fixtures/bbm",
      "--numbering",
      "one-based",
      s.scored,
    ]],
    good: () => ["--data", "tests/fixtures/bbm"],
  },
  {
    word: "arb",
    usage: () => [],
    data: (s) => {
      const log = join(s.dir, "arb.jsonl");
      Deno.writeTextFileSync(log, JSON.stringify({ subject: "math", id: "1" }) + "\n");
      return [[log]];
    },
    good: () => ["tests/fixtures/arb/illustrative", "--json"],
  },
  {
    word: "cache",
    usage: () => ["frobnicate"],
    // a file where the cache's folder should be
    data: (s) => [["info", "--cache", s.scored], ["clear", "--cache", s.scored]],
    good: (s) => ["info", "--cache", join(s.dir, "cache")],
  },
  {
    word: "fetch-data",
    usage: (s) => ["--data", join(s.dir, "fetched"), "--only", "no-such-folder"],
    // nothing listens on port 9: the download fails
    data: (s) => [["--data", join(s.dir, "fetched"), "--only", "bbh", "--base-url", DOWN]],
    // present and verified already: nothing to download
    good: (s) => ["--data", s.data, "--only", "bbh", "--base-url", DOWN],
  },
];

const DOWN = "http://127.0.0.1:9";

/** The scripts of deno.json's tasks that run on the command framework. */
const SCRIPTS: { command: Command<unknown>; row: Row }[] = [
  {
    command: mainCommand as Command<unknown>,
    row: {
      word: "main",
      usage: () => ["notebooks/"],
      data: () => [["--only", "no-such-notebook"]],
      good: null,
    },
  },
  {
    command: fuzzCommand as Command<unknown>,
    row: {
      word: "fuzz",
      usage: () => ["--size", "huge"],
      data: (s) => [["--data", join(s.dir, "none")]],
      good: () => ["--list"],
    },
  },
];

const jsonl = (records: object[]) => records.map((r) => JSON.stringify(r)).join("\n") + "\n";

/** The logs of the setting, written in `dir`. */
function setting(data: string, dir: string): Setting {
  const records = (task: string) =>
    ["a", "b"].flatMap((model) =>
      [0, 1, 2].map((i) => ({ model, task, example_index: i, response: "(A)" }))
    );
  const s = {
    data,
    dir,
    scored: join(dir, "scored.jsonl"),
    quarantined: join(dir, "quarantined.jsonl"),
    unreadable: join(dir, "broken.jsonl.gz"),
  };
  Deno.writeTextFileSync(s.scored, jsonl(records("nycc")));
  Deno.writeTextFileSync(s.quarantined, jsonl(records("not_a_task")));
  // a gzip stream cut in half
  const gz = gzipSync(new TextEncoder().encode(jsonl(records("nycc"))));
  Deno.writeFileSync(s.unreadable, gz.subarray(0, Math.floor(gz.length / 2)));
  return s;
}

Deno.test("the table has a row for every runlens command", () => {
  assert.deepEqual(TABLE.map((r) => r.word).sort(), [...COMMAND_NAMES].sort());
});

/** Check one row: usage 2, every data problem 1, the good run 0. */
async function checkRow(row: Row, s: Setting, run: (args: string[]) => Promise<number>) {
  const usage = await inProcess(() => run(row.usage(s)));
  assert.equal(usage.code, 2, `${row.word} ${row.usage(s).join(" ")}: ${usage.stderr}`);
  assert.match(usage.stderr, /\nusage: /, row.word); // the usage line follows the message
  for (const args of row.data(s)) {
    const r = await inProcess(() => run(args));
    assert.equal(r.code, 1, `${row.word} ${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, new RegExp(`^runlens ${row.word}: `, "m"), row.word);
    assert.doesNotMatch(r.stderr, /\nusage: /, row.word); // a data problem is not usage
  }
  if (row.good === null) return;
  const good = await inProcess(() => run(row.good!(s)));
  assert.equal(good.code, 0, `${row.word} ${row.good(s).join(" ")}: ${good.stderr}`);
}

for (const row of TABLE) {
  dataTest(
    `runlens ${row.word}: usage 2, a data problem 1, a good run 0`,
    (data) =>
      withTempDir((dir) =>
        checkRow(row, setting(data, dir), (args) => runlensMain([row.word, ...args]))
      ),
  );
}

for (const { command, row } of SCRIPTS) {
  dataTest(
    `deno task ${row.word}: usage 2, a data problem 1, a good run 0`,
    (data) =>
      withTempDir((dir) => checkRow(row, setting(data, dir), (args) => runCommand(command, args))),
  );
}
