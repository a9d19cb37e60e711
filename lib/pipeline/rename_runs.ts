/**
 * Run names the user chooses (`--rename OLD=NEW`, `--rename-file FILE`): a log names its runs
 * as its tool wrote them (`meta-llama__Llama-3.2-3B-Instruct_2026-01-08T17-20-31.984236`), and
 * a paper wants `Llama-3.2-3B`. The load renames the runs right after reading them (`load.ts`),
 * before anything is summarised, so the text, the JSON, `--rows`, the report and the pairing
 * of `compare` all see the new names; the cache keeps the names as read.
 *
 * A rename never merges runs: two runs given one name, or a new name that another run already
 * has, is refused — the duplicate checks of a load (`merge.ts`) ran on the runs as read, so a
 * merged run could hold one example twice. A swap (`a=b,b=a`) merges nothing and is allowed.
 * Every refusal is a {@link RenameError}, a usage error (exit 2).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const renames = parseRenamePairs(["meta-llama__Llama-3.2-3B-Instruct_2026-01-08=llama-3b,x=y"]);
 * assert.deepEqual([...renames], [["meta-llama__Llama-3.2-3B-Instruct_2026-01-08", "llama-3b"],
 *   ["x", "y"]]);
 * const runs = ["meta-llama__Llama-3.2-3B-Instruct_2026-01-08", "x"];
 * checkRenames(renames, runs); // every old name is a run, no two runs become one
 * assert.throws(() => checkRenames(new Map([["meta-llama__Llama-3.2-3B-Instruct_2026-01-09", "m"]]),
 *   runs), /no run of that name \(did you mean meta-llama__Llama-3.2-3B-Instruct_2026-01-08\?/);
 * assert.throws(() => checkRenames(new Map([["x", "meta-llama__Llama-3.2-3B-Instruct_2026-01-08"]]),
 *   runs), /another run's name/);
 * ```
 * @module
 */
import { distance } from "fastest-levenshtein";
import { UsageError } from "../core/command.ts";

/** A rename that cannot be done: a malformed pair or file, an unknown run, two runs made one. */
export class RenameError extends UsageError {}

/** Run names a message lists before `… and N more`. */
const LISTED = 12;

/**
 * The renames of `--rename` values, in order: each value one `OLD=NEW` pair or several
 * separated by commas (split at the first `=`; spaces around a pair are dropped). A name with
 * a comma or an `=` goes in a {@link parseRenameFile} file. Throws {@link RenameError}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual([...parseRenamePairs(["a=A", "b=B, c=C"])], [["a", "A"], ["b", "B"], ["c", "C"]]);
 * assert.throws(() => parseRenamePairs(["a"]), /--rename a: not OLD=NEW/);
 * assert.throws(() => parseRenamePairs(["a=A,a=B"]), /--rename: run a renamed twice/);
 * ```
 */
export function parseRenamePairs(values: readonly string[]): Map<string, string> {
  const pairs = values.flatMap((v) => v.split(",")).map((item) => {
    const pair = item.trim();
    const eq = pair.indexOf("=");
    const [from, to] = [pair.slice(0, eq).trim(), pair.slice(eq + 1).trim()];
    if (eq < 0 || from === "" || to === "") {
      throw new RenameError(
        `--rename ${pair}: not OLD=NEW (a name with "," or "=" goes in a --rename-file)`,
      );
    }
    return [from, to] as [string, string];
  });
  return collect(pairs, "--rename");
}

/**
 * The renames of a `--rename-file`: a JSON object `{"old": "new", …}`, or lines `old=new` or
 * `old<TAB>new` (a tab, when there is one, separates the names, so either may hold `=`; empty
 * lines and lines starting with `#` are skipped). `file` names it in errors. Throws
 * {@link RenameError}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual([...parseRenameFile('{"a": "A", "b": "B"}', "m.json")], [["a", "A"], ["b", "B"]]);
 * assert.deepEqual([...parseRenameFile("# runs\na=A\nk=1\tK\n", "m.txt")], [["a", "A"], ["k=1", "K"]]);
 * assert.throws(() => parseRenameFile("a=A\nb\n", "m.txt"), /m.txt:2: not old=new or old<TAB>new/);
 * assert.throws(() => parseRenameFile('{"a": 1}', "m.json"), /m.json: "a" must map to a name/);
 * ```
 */
export function parseRenameFile(text: string, file: string): Map<string, string> {
  if (text.trimStart().startsWith("{")) return collect(jsonPairs(text, file), file);
  const pairs: [string, string][] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    const at = raw.includes("\t") ? raw.indexOf("\t") : raw.indexOf("=");
    const [from, to] = [raw.slice(0, at).trim(), raw.slice(at + 1).trim()];
    if (at < 0 || from === "" || to === "" || to.includes("\t")) {
      throw new RenameError(`${file}:${i + 1}: not old=new or old<TAB>new: ${line}`);
    }
    pairs.push([from, to]);
  });
  return collect(pairs, file);
}

/** The pairs of a JSON object of names; throws {@link RenameError}. */
function jsonPairs(text: string, file: string): [string, string][] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new RenameError(`${file}: not JSON (${(e as Error).message})`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new RenameError(`${file}: a JSON object {"old": "new", …} expected`);
  }
  return Object.entries(value).map(([from, to]) => {
    if (typeof to !== "string" || to.trim() === "" || from.trim() === "") {
      throw new RenameError(`${file}: ${JSON.stringify(from)} must map to a name`);
    }
    return [from.trim(), to.trim()];
  });
}

/** `pairs` as a map; an old name given twice is an error naming `where`. */
function collect(pairs: readonly [string, string][], where: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const [from, to] of pairs) {
    if (out.has(from)) throw new RenameError(`${where}: run ${from} renamed twice`);
    out.set(from, to);
  }
  return out;
}

/**
 * Both sources of renames in one map (`--rename` after the file's); an old name in both is an
 * error.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const both = joinRenames(new Map([["a", "A"]]), new Map([["b", "B"]]));
 * assert.deepEqual([...both], [["a", "A"], ["b", "B"]]);
 * assert.throws(() => joinRenames(new Map([["a", "A"]]), new Map([["a", "B"]])), /renamed twice/);
 * ```
 */
export function joinRenames(
  first: ReadonlyMap<string, string>,
  second: ReadonlyMap<string, string>,
): Map<string, string> {
  return collect([...first, ...second], "--rename-file and --rename");
}

/**
 * Check `renames` against the runs of a load; throws {@link RenameError} when an old name is
 * no run (naming the runs, and the closest name when one is close), when two runs would get
 * one name, or when a new name is the name of a run that keeps it.
 */
export function checkRenames(renames: ReadonlyMap<string, string>, runs: readonly string[]): void {
  const known = new Set(runs);
  for (const from of renames.keys()) {
    if (!known.has(from)) throw new RenameError(unknownRun(from, [...known].sort()));
  }
  const byNew = new Map<string, string>();
  for (const run of known) {
    const to = renames.get(run) ?? run;
    const other = byNew.get(to);
    if (other !== undefined) {
      const [a, b] = [other, run].sort();
      const renamed = renames.has(a) && renames.has(b);
      throw new RenameError(
        renamed
          ? `--rename: runs ${a} and ${b} both renamed ${to}; a rename never merges runs ` +
            "(their rows were checked for repeats apart)"
          : `--rename ${renames.has(a) ? a : b}=${to}: ${to} is another run's name; a rename ` +
            "never merges runs (their rows were checked for repeats apart): rename that run " +
            "too, or choose another name",
      );
    }
    byNew.set(to, run);
  }
}

/** The message of an old name that is no run: the runs, and the closest when it is close. */
function unknownRun(from: string, runs: readonly string[]): string {
  const close = runs
    .map((run) => ({ run, d: distance(from.toLowerCase(), run.toLowerCase()) }))
    .filter(({ run, d }) => d <= Math.max(2, Math.floor(Math.max(from.length, run.length) / 3)))
    .sort((a, b) => a.d - b.d || (a.run < b.run ? -1 : 1))[0];
  const listed = runs.slice(0, LISTED).join(", ") +
    (runs.length > LISTED ? `, … and ${runs.length - LISTED} more` : "");
  return `--rename ${from}: no run of that name` +
    (close ? ` (did you mean ${close.run}?)` : "") + `; the runs: ${listed}`;
}

/**
 * A function giving each run its new name (a run not renamed keeps its own).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const to = renamer(new Map([["a", "A"]]));
 * assert.deepEqual(["a", "b"].map(to), ["A", "b"]);
 * ```
 */
export function renamer(renames: ReadonlyMap<string, string>): (run: string) => string {
  return (run) => renames.get(run) ?? run;
}
