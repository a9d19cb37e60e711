/**
 * Tests of discovery for the streaming path (`logs/discover.ts`): on every fixture folder the
 * format its folder or name prefix is named for (`formats/mcpbr/…`, `openai_evals__x.log`) and
 * every log file accounted
 * for, and file-system oddities
 * (issue 15): FIFOs and devices never opened, symbolic links leaving the folder or looping
 * skipped with the reason, dangling links and non-UTF-8 names reported, every file with a log
 * extension either read, a companion, or an error — never skipped in silence.
 * @module
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { gzipSync } from "node:zlib";
import { REPO_ROOT } from "@runlens/core/data_dir.ts";
import { detectFile, discover, escapeBytes } from "@runlens/logs/discover.ts";
import { dataTest } from "./_data.ts";
import { logFormats } from "@runlens/benchmarks/registry.ts";
import { withTempDir } from "./_tmp.ts";

const LOGS = join(REPO_ROOT, "tests", "fixtures", "logs");

/** Every file under `dir`. */
function walk(dir: string): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory) out.push(...walk(p));
    else out.push(p);
  }
  return out.sort();
}

/** The format (prefix) of the logs of a fixture folder named for it; null: any. */
function formatOfFolder(path: string): string | null {
  // the nearest name that tells: a file's own prefix (`openai_evals__x.log`), else its folder
  const names = [
    "inspect",
    "inspect_ai",
    "mcpbr",
    "openai_evals",
    "opencompass",
    "lm_eval",
    "mapped",
  ];
  const part = path.split("/").reverse().find((p) =>
    names.some((n) => p === n || p.startsWith(`${n}__`))
  );
  const dir = part?.replace(/__.*/, "").replace("inspect_ai", "inspect");
  if (dir === "inspect") return "inspect-";
  if (dir === "openai_evals") return "openai-evals";
  if (dir === "opencompass") {
    return path.includes("/results/") ? "opencompass-results" : "opencompass-predictions";
  }
  if (dir === "lm_eval") return "lm-eval";
  if (dir === "mapped") return path.endsWith(".csv") ? "canonical-csv" : "canonical-jsonl";
  if (dir === "mcpbr") return "mcpbr";
  return /\.jsonl$/.test(path) ? "canonical-jsonl" : /\.csv$/.test(path) ? "canonical-csv" : null;
}

/** Discovery finds every log under `dir` in path order, each of its folder's format. */
function discoversAll(dir: string): void {
  const found = discover([dir]);
  const paths = found.files.map((f) => f.path);
  assert.deepEqual(paths, [...paths].sort());
  for (const f of found.files) {
    const want = formatOfFolder(f.path);
    if (want !== null) assert.ok(f.format.startsWith(want), `${f.path}: ${f.format}`);
    assert.equal(f.gzip, f.path.endsWith(".gz"), f.path);
  }
  // a file with a log extension is read, a companion or an error — never nothing
  const listed = new Set([
    ...found.files.map((f) => f.path),
    ...found.companions.map((c) => c.file),
    ...found.errors.map((e) => e.file),
  ]);
  for (const path of walk(dir)) {
    if (/\.(jsonl|json|csv|eval|log)(\.gz)?$/i.test(path)) assert.ok(listed.has(path), path);
  }
}

Deno.test("discover: every fixture folder, each log of its folder's format", () => {
  discoversAll(LOGS);
  const formats = discover([join(LOGS, "formats")]);
  assert.deepEqual(formats.errors.map((e) => relative(LOGS, e.file)), [
    "formats/unknown/notes.log",
    "formats/unknown/summary.json",
  ]);
  assert.deepEqual(formats.companions.map((c) => relative(LOGS, c.file)), [
    "formats/opencompass/20250101_120000/results/demo-7b/bbeh_boardgame_qa.json",
    "formats/opencompass/20250202_090000/results/parted-7b/bbeh_boardgame_qa.json",
  ]);
  const lm = discover([join(LOGS, "bbh")]);
  assert.deepEqual(lm.companions.map((c) => c.reason), [
    "an lm-eval results file (read alongside its samples files)",
  ]);
});

dataTest("discover: the real logs and the BBH release (metrics files as companions)", (
  data,
) => {
  discoversAll(join(data, "logs"));
  const formats = logFormats(); // the BBH release's format is BBH's contribution
  const release = discover([join(data, "bbh", "code-davinci-002-outputs")], { formats });
  assert.equal(release.files.length, 54);
  assert.equal(release.companions.length, 54); // the _eval_metrics.jsonl files
  assert.deepEqual(release.errors, []);
});

Deno.test("discover: gzip by magic bytes, .gz without it, forced formats, --map", () => {
  withTempDir((dir) => {
    const a = Deno.readFileSync(join(LOGS, "tree", "a.jsonl"));
    Deno.writeFileSync(join(dir, "a.jsonl.gz"), gzipSync(a));
    Deno.writeFileSync(join(dir, "hidden.jsonl"), gzipSync(a)); // gzip without .gz
    Deno.writeTextFileSync(join(dir, "plain.json.gz"), "{}");
    Deno.writeFileSync(join(dir, "notes.txt.gz"), gzipSync(new TextEncoder().encode("hi")));
    const found = discover([dir]);
    assert.deepEqual(found.files.map((f) => [relative(dir, f.path), f.format, f.gzip, f.name]), [
      ["a.jsonl.gz", "canonical-jsonl", true, join(dir, "a.jsonl")],
      ["hidden.jsonl", "canonical-jsonl", true, join(dir, "hidden.jsonl")],
    ]);
    assert.deepEqual(found.errors.map((e) => [relative(dir, e.file), e.reason]), [
      ["plain.json.gz", "not a run log runlens reads (extension .gz but no gzip signature)"],
    ]);
    const forced = discover([dir], { format: "openai-evals" });
    assert.equal(forced.files.length, 3);
    assert.ok(forced.files.every((f) => f.format === "openai-evals"));
    assert.deepEqual(
      discover([join(dir, "a.jsonl.gz")], { map: true }).files.map((f) => f.format),
      ["mapped-jsonl"],
    );
  });
});

Deno.test("discover: special files are never opened, links out and loops are skipped", () => {
  withTempDir((root) => {
    const dir = join(root, "case");
    const outside = join(root, "outside");
    Deno.mkdirSync(dir);
    Deno.mkdirSync(outside);
    const good = '{"task": "nycc", "example_index": 0, "response": "x"}\n';
    Deno.writeTextFileSync(join(dir, "good.jsonl"), good);
    Deno.writeTextFileSync(join(outside, "real.jsonl"), good);
    new Deno.Command("mkfifo", { args: [join(dir, "pipe.jsonl")] }).outputSync();
    Deno.symlinkSync("/dev/zero", join(dir, "zero.jsonl"));
    Deno.symlinkSync("/dev/null", join(dir, "null.jsonl"));
    Deno.symlinkSync("b.jsonl", join(dir, "a.jsonl"));
    Deno.symlinkSync("a.jsonl", join(dir, "b.jsonl"));
    Deno.symlinkSync("self.jsonl", join(dir, "self.jsonl"));
    Deno.symlinkSync("missing.jsonl", join(dir, "gone.jsonl"));
    Deno.symlinkSync(".", join(dir, "loop"));
    Deno.symlinkSync("..", join(dir, "up"));
    Deno.symlinkSync("../outside/real.jsonl", join(dir, "out.jsonl"));
    Deno.symlinkSync("good.jsonl", join(dir, "alias.jsonl"));
    Deno.mkdirSync(join(dir, "dir.jsonl"));
    Deno.writeTextFileSync(join(dir, "dir.jsonl", "inner.jsonl"), good);
    Deno.mkdirSync(join(dir, "sub"));
    Deno.symlinkSync("..", join(dir, "sub", "parent"));
    const t0 = performance.now();
    const found = discover([dir]);
    assert.ok(performance.now() - t0 < 5000, "no FIFO was opened (it would block)");
    const rel = (p: string) => relative(dir, p);
    assert.deepEqual(found.files.map((f) => rel(f.path)), ["dir.jsonl/inner.jsonl", "good.jsonl"]);
    assert.deepEqual(found.skipped.map((s) => [rel(s.file), s.reason]), [
      ["a.jsonl", "a symbolic link loop (not followed)"],
      ["alias.jsonl", `the same file as ${join(dir, "good.jsonl")} (read once)`],
      ["b.jsonl", "a symbolic link loop (not followed)"],
      ["loop", "a symbolic link to a folder already searched (a loop; not followed)"],
      ["null.jsonl", "a symbolic link to /dev/null, outside the folder named (not followed)"],
      [
        "out.jsonl",
        `a symbolic link to ${
          join(outside, "real.jsonl")
        }, outside the folder named (not followed)`,
      ],
      ["pipe.jsonl", "a FIFO, not a regular file (not read)"],
      ["self.jsonl", "a symbolic link loop (not followed)"],
      ["sub/parent", "a symbolic link to a folder already searched (a loop; not followed)"],
      ["up", `a symbolic link to ${root}, outside the folder named (not followed)`],
      ["zero.jsonl", "a symbolic link to /dev/zero, outside the folder named (not followed)"],
    ]);
    assert.equal(found.warnings.length, found.skipped.length);
    assert.deepEqual(found.errors.map((e) => [rel(e.file), e.reason]), [
      ["gone.jsonl", "a dangling symbolic link (to missing.jsonl, which does not exist)"],
    ]);

    // named directly: followed wherever they point, special files still not read
    const named = discover([
      join(dir, "pipe.jsonl"),
      join(dir, "zero.jsonl"),
      join(dir, "out.jsonl"),
      join(dir, "self.jsonl"),
      join(dir, "-x.jsonl"),
    ]);
    assert.deepEqual(named.files.map((f) => f.realPath), [join(outside, "real.jsonl")]);
    assert.deepEqual(named.skipped.map((s) => s.reason), [
      "a FIFO, not a regular file (not read)",
      "a character device, not a regular file (not read)",
    ]);
    assert.deepEqual(named.errors.map((e) => e.reason), [
      "a symbolic link loop (not followed)",
      "no such file or directory",
    ]);
  });
});

Deno.test("discover: a file name that is not UTF-8 is reported with its bytes escaped", () => {
  withTempDir((dir) => {
    Deno.writeTextFileSync(join(dir, "ok.jsonl"), "{}\n");
    // the runtime cannot create such a name: a shell can
    const made = new Deno.Command("sh", {
      args: ["-c", `printf '{}\\n' > "$1/bad_$(printf '\\377\\376')_name.jsonl"`, "sh", dir],
    }).outputSync();
    assert.equal(made.code, 0);
    const found = discover([dir]);
    assert.deepEqual(found.files.map((f) => relative(dir, f.path)), ["ok.jsonl"]);
    const reason = "the file name is not valid UTF-8, so it cannot be opened (rename it)";
    assert.deepEqual(found.errors, [{ file: join(dir, "bad_\\xff\\xfe_name.jsonl"), reason }]);
    assert.deepEqual(found.warnings, [`${join(dir, "bad_\\xff\\xfe_name.jsonl")}: ${reason}`]);
  });
  assert.equal(escapeBytes(new Uint8Array([0x61, 0xe9, 0x62])), "a\\xe9b");
});

Deno.test("discover: BBH release outputs without a list, empty and garbage files are named", () => {
  withTempDir((dir) => {
    const run = join(dir, "code-davinci-002-cot");
    Deno.mkdirSync(run);
    const name = (t: string) => join(run, `${t}_few_shot_template_0-255000.json`);
    Deno.writeTextFileSync(name("snarks"), '{"canary": "c", "outputs": null}');
    Deno.writeTextFileSync(name("navigate"), '{"canary": "c", "outputs": {"0": {}}}');
    Deno.writeTextFileSync(name("web_of_lies"), '{"canary": "c"}');
    Deno.writeTextFileSync(name("dyck_languages"), '{"canary": "c", "outputs": []}');
    Deno.writeTextFileSync(join(dir, "empty.eval"), "");
    Deno.writeTextFileSync(join(dir, "empty.json"), "");
    Deno.writeTextFileSync(join(dir, "empty.jsonl"), "");
    Deno.writeFileSync(join(dir, "garbage.eval"), new Uint8Array([0x50, 0x4b, 3, 4, 9, 9]));
    // discovery knows the BBH release's files only through the format BBH contributes
    const unknown = discover([dir]).errors.map((e) => e.reason);
    assert.equal(unknown.filter((r) => r.includes("no known run-log format")).length, 5);
    const found = discover([dir], { formats: logFormats() });
    assert.deepEqual(found.files.map((f) => [relative(dir, f.path), f.format]), [
      [
        "code-davinci-002-cot/dyck_languages_few_shot_template_0-255000.json",
        "bbh-release-outputs",
      ],
      ["empty.jsonl", "canonical-jsonl"],
      ["garbage.eval", "inspect-eval"], // a ZIP signature: the reader names what is wrong
    ]);
    assert.deepEqual(found.errors.map((e) => [relative(dir, e.file), e.reason]), [
      [
        "code-davinci-002-cot/navigate_few_shot_template_0-255000.json",
        'a BBH release outputs file whose "outputs" is not a list of records: nothing to read',
      ],
      [
        "code-davinci-002-cot/snarks_few_shot_template_0-255000.json",
        'a BBH release outputs file whose "outputs" is null, not a list of records: nothing to read',
      ],
      [
        "code-davinci-002-cot/web_of_lies_few_shot_template_0-255000.json",
        'a BBH release outputs file without "outputs": nothing to read',
      ],
      ["empty.eval", "not a run log runlens reads (.eval file without a ZIP signature)"],
      ["empty.json", "not a run log runlens reads (JSON file of no known run-log format)"],
    ]);
  });
  assert.equal(detectFile(join(LOGS, "tree", "a.jsonl")).kind, "log");
});
