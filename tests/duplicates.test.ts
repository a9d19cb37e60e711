/**
 * No new duplicated logic in lib/: `duplicates` (the tool library's pair finder) is run on
 * lib/, and every pair of places it reports must be one `tests/duplicates_allowed.txt` lists
 * (by its two files, with the reason it stays) or one the tool itself marks `boilerplate`
 * (what the two places share is thin: punctuation, keywords, a shape that recurs across a
 * folder). A new pair fails the test with its row; a listed pair the tool no longer reports
 * fails it too, so the list stays the list of what is left. Without the tool the test is
 * skipped outside CI and fails with `CI=true`.
 * @module
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const ALLOWED = join(ROOT, "tests", "duplicates_allowed.txt");
const inCI = Deno.env.get("CI") === "true";

/** The `duplicates` executable on the PATH, or null. */
function findTool(): string | null {
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    const path = join(dir, "duplicates");
    try {
      if (Deno.statSync(path).isFile) return path;
    } catch {
      // not in this folder
    }
  }
  return null;
}

/** One reported pair: its two files (sorted) and the row as printed. */
interface Pair {
  key: string;
  row: string;
  boilerplate: boolean;
}

/** Parse the rows of `duplicates` (`D1 a.ts:1-9 ~ b.ts:4-12 shape …`). */
export function parsePairs(out: string): Pair[] {
  const pairs: Pair[] = [];
  for (const row of out.split("\n")) {
    const m = /^D\d+ (\S+?):\d+-\d+ ~ (\S+?):\d+-\d+/.exec(row);
    if (!m) continue;
    pairs.push({
      key: [m[1], m[2]].sort().join(" ~ "),
      row,
      boilerplate: / boilerplate\b/.test(row),
    });
  }
  return pairs;
}

/** The allowed pairs: `a.ts ~ b.ts  # reason` lines (files sorted), with their reasons. */
function allowedPairs(): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of Deno.readTextFileSync(ALLOWED).split("\n")) {
    if (line.trim() === "" || line.startsWith("#")) continue;
    const m = /^(\S+) ~ (\S+)\s+#\s*(.+)$/.exec(line);
    assert.ok(m, `duplicates_allowed.txt: not "a ~ b  # reason": ${line}`);
    const key = [m[1], m[2]].sort().join(" ~ ");
    assert.ok(!out.has(key), `duplicates_allowed.txt lists ${key} twice`);
    out.set(key, m[3]);
  }
  return out;
}

const tool = findTool();

Deno.test({
  name: "duplicates on lib/: every pair reported is boilerplate or listed with its reason",
  ignore: tool === null && !inCI,
  fn: () => {
    if (tool === null) throw new Error("CI=true but `duplicates` is not on the PATH");
    const run = new Deno.Command(tool, {
      args: ["--repo", "lib", "--most", "200", "--seconds", "120"],
      cwd: ROOT,
      stdout: "piped",
      stderr: "piped",
    }).outputSync();
    const out = new TextDecoder().decode(run.stdout);
    assert.doesNotMatch(out, /^incomplete:/m, "duplicates did not read all of lib/ in time");
    assert.doesNotMatch(out, /\(\+\d+ more pairs\)/, "more pairs than --most shows");
    const pairs = parsePairs(out);
    assert.ok(pairs.length > 0 || /no duplicates/.test(out), out.slice(0, 500));
    const allowed = allowedPairs();
    const unlisted = pairs.filter((p) => !p.boilerplate && !allowed.has(p.key)).map((p) => p.row);
    assert.deepEqual(unlisted, [], "new duplicated places in lib/ (remove them, or list them)");
    const reported = new Set(pairs.map((p) => p.key));
    const gone = [...allowed.keys()].filter((k) => !reported.has(k));
    assert.deepEqual(gone, [], "listed in duplicates_allowed.txt but no longer reported");
  },
});

Deno.test("parsePairs: rows, sorted file pairs, boilerplate marks", () => {
  const out = "3 pairs of places (9 files read)\n" +
    "D1 b.ts:1-9 ~ a.ts:4-12 (+1 more runs)\n" +
    "D2 c.ts:1-6 ~ c.ts:9-14 shape\n" +
    "D3 a.ts:2-8 ~ d.ts:1-7 shape boilerplate\n" +
    "left out: 1 run\n";
  assert.deepEqual(parsePairs(out).map((p) => [p.key, p.boilerplate]), [
    ["a.ts ~ b.ts", false],
    ["c.ts ~ c.ts", false],
    ["a.ts ~ d.ts", true],
  ]);
});
