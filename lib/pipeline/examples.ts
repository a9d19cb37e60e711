/**
 * Identify, scalar and polars-free (scoring Workers load it): tie one checked log record to one
 * example of one benchmark's released data set, or say why not. One {@link ExampleIndex} over
 * every scored benchmark answers each record with hash lookups.
 *
 * A record is tied (the rules and reasons of the former polars identify step, word for word):
 * - by `example_index`: the target and input, when given, must agree with the data set (an
 *   input that embeds the question, see `question_key.ts`, agrees; so does one whose last
 *   question starts with a data-set input known to be cut short, e.g. BBH snarks 88);
 * - else by its exact `input` text within the task;
 * - else by the one question embedded at the end of the logged prompt (few-shot prompt, chat
 *   template, answer cue); several questions of the task that fit → ambiguous;
 * - a given `target` picks among examples that share an input. Identical inputs without an
 *   index are handed out in file order (the k-th such row of a run and epoch takes the k-th
 *   matching example): that needs the rows of other units, so such a record comes back
 *   {@link PendingIdentification pending} with its candidates, and the caller hands them out
 *   with {@link resolvePending}. Duplicates (run, benchmark, task, example, epoch) are the
 *   caller's too.
 *
 * Beyond the former polars step (issue 14):
 * - **benchmark and task from the content**: a record without a benchmark is looked up in
 *   every benchmark of the index (or those of {@link IdentifyHints.benchmarks}); a record
 *   without a task, or with a label no benchmark knows, is found by its question text among
 *   every task's questions: exactly, or embedded at the end of a prompt. There is no default
 *   benchmark: a BBH question is identified as BBH. A question in two tasks or benchmarks is
 *   ambiguous only when neither the record's task and benchmark, nor the file name's task
 *   ({@link IdentifyHints.task}), nor the target separates them; the reason names both;
 * - **the file name's task** ({@link IdentifyHints.task}) is a hint checked against the record:
 *   a record naming another task, or whose text is another task's question, is quarantined
 *   with both names;
 * - **data-set versions** ({@link DataVersion}): a record whose question and target match an
 *   item of a known other version (e.g. the BBH copy lm-evaluation-harness reads) is that
 *   example, with the version's input and target and `data_version` set — also when the
 *   record's own copy of the question (lm-eval's `doc.input`) lays the item out otherwise
 *   (one line, commas between option words: {@link layoutKey}); unknown disagreements stay
 *   quarantined;
 * - **cut-short inputs** ({@link BenchmarkScoring.truncatedInputs}) match in every path;
 * - **a target that differs only in case** (`no` for `No`: a log that lower-cases its gold
 *   labels) agrees when no example's target is the same exactly ({@link targetMatch}); the row
 *   is scored against the data set's target, and the load counts such rows per file.
 * - **rows tied by id** (a benchmark with `identity: "id"`): a record with an `example_id`
 *   (one of the benchmark's record fields) is tied by (task, id), its own input and target
 *   taken as they are — no released data set is consulted; the caller drops repeats of an id;
 * - **a benchmark's own target rule** (`BenchmarkScoring.sameTarget`) replaces
 *   {@link sameTarget} for its examples.
 *
 * Lookups: one hash map from each data-set input to its questions (exact text), and one tree of
 * question tails (16 characters at a time, from the end of the normalised text, skipping
 * the endings many questions share) for the embedded case: a record costs a few hash lookups
 * and the verification of a handful of candidates, never a scan of the questions.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ExampleIndex } from "@runlens/pipeline/examples.ts";
 * import type { BenchmarkScoring } from "@runlens/benchmarks/types.ts";
 * import type { CheckedRecord } from "@runlens/pipeline/check.ts";
 * const toy = (name: string, task: string): BenchmarkScoring => ({
 *   name, label: name.toUpperCase(), tasks: [{ name: task, size: 2 }],
 *   canonicalTask: (l) => (l === task ? task : null), readExamples: () => ({}),
 *   defaultScorer: "stored", scorers: [],
 * });
 * const index = new ExampleIndex([
 *   { scoring: toy("aa", "add"), examples: { add: [
 *     { input: "1 + 1 =", target: "2" }, { input: "2 + 2 =", target: "4" }] } },
 *   { scoring: toy("bb", "mul"), examples: { mul: [{ input: "3 * 3 =", target: "9" }] } },
 * ]);
 * const row = (over: Partial<CheckedRecord>): CheckedRecord => ({
 *   line: 1, run: "r", runFrom: "run", group: "r", model: "m", benchmark: null, task: "",
 *   example_index: null,
 *   input: null, target: null, response: "x", chars: 1, bytes: 1, response_tokens: null,
 *   epoch: 1, stored_correct: null, tool_extracted: null, filter: null, ...over,
 * });
 * // no benchmark, no task: found from the question at the end of a chat prompt
 * const found = index.identify(row({ input: "<|user|>\n3 * 3 =<|end|>\n<|assistant|>" }));
 * assert.deepEqual(found, { ok: true, benchmark: "bb", task: "mul", example_index: 0,
 *   input: "3 * 3 =", target: "9", input_chars: 7, data_version: null });
 * const off = index.identify(row({ benchmark: "aa", task: "add", example_index: 5 }));
 * assert.equal(!("pending" in off) && !off.ok && off.reason,
 *   "example_index 5 out of range for add (0–1)");
 * ```
 * @module
 */
import type { BenchmarkScoring, Example, ExampleSet } from "../benchmarks/types.ts";
import type { CheckedRecord } from "./check.ts";
import { pyLen, pyStrip } from "../core/python.ts";
import { quoteValue } from "../logs/quarantine.ts";
import { isEmbeddedKey, questionKey, truncatedKeyMatch } from "./question_key.ts";

/** What a record's file or folder name, and the user, say about it. */
export interface IdentifyHints {
  /**
   * Task (and benchmark) from the file or folder name when it names exactly one known task
   * (e.g. `bbeh_nycc/…`, `samples_bbh_cot_fewshot_navigate_…`, `navigate.jsonl`); `task` is a
   * label the benchmark's `canonicalTask` knows, `benchmark` null when the name does not say.
   */
  task?: { benchmark: string | null; task: string } | null;
  /** Restrict to these benchmarks (the user's `--benchmark`); absent: every indexed one. */
  benchmarks?: readonly string[];
  /**
   * The benchmark of records that name none when several benchmarks fit equally (e.g. an
   * index into a task name BBEH and BBH share): the canonical format's documented default.
   */
  defaultBenchmark?: string;
}

/** A record tied to one example. */
export interface IdentifiedExample {
  ok: true;
  benchmark: string;
  task: string;
  example_index: number;
  /** The example's input and target (of its data-set version when `data_version` is set). */
  input: string;
  target: string;
  /** Python `len` of `input`. */
  input_chars: number;
  /** The {@link DataVersion} whose item the record matched; null: the release. */
  data_version: string | null;
  /** A record tied by id (`example_index` is then -1): its id. */
  example_id?: string;
}

/** A record that cannot be tied to an example, and why (the quarantine reason). */
export interface UnidentifiedRecord {
  ok: false;
  /** The benchmark the record is counted under; null when it names none that applies. */
  benchmark: string | null;
  /** A short code: `unknown_task`, `out_of_range`, `input_not_found`, … */
  problem: string;
  reason: string;
}

/**
 * A record whose question several examples share, without an index: which example it is
 * depends on the records before it (the k-th record with the same `key` takes the k-th
 * candidate, the last one when there are fewer: {@link resolvePending}). The other fields are
 * the same for every candidate.
 */
export interface PendingIdentification {
  pending: true;
  benchmark: string;
  task: string;
  /** Run, epoch and question: records with the same key share the candidates' order. */
  key: string;
  /** The candidate example indices, ascending (the examples matching the record's target). */
  candidates: number[];
  input: string;
  target: string;
  input_chars: number;
  data_version: string | null;
}

/** The outcome of {@link ExampleIndex.identify}. */
export type Identification = IdentifiedExample | UnidentifiedRecord | PendingIdentification;

/**
 * Hand out pending records (in file order) to their
 * examples: the k-th record of a key takes its k-th candidate, or its last candidate when it
 * has fewer (the caller then quarantines the repeats as duplicates). Returns one example index
 * per record, in order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const rows = [
 *   { key: "run a/1/spatial 65", candidates: [65, 71] },
 *   { key: "run a/2/spatial 65", candidates: [65, 71] }, // another epoch: its own count
 *   { key: "run a/1/spatial 65", candidates: [65, 71] },
 *   { key: "run a/1/spatial 65", candidates: [65, 71] }, // a third repeat: 71 again
 *   { key: "run a/1/linguini 41", candidates: [121] }, // its target picked one
 * ];
 * assert.deepEqual(resolvePending(rows), [65, 65, 71, 71, 121]);
 * ```
 */
export function resolvePending(
  rows: Iterable<{ key: string; candidates: readonly number[] }>,
): number[] {
  const seen = new Map<string, number>();
  const out: number[] = [];
  for (const r of rows) {
    const k = seen.get(r.key) ?? 0;
    seen.set(r.key, k + 1);
    out.push(r.candidates[Math.min(k, r.candidates.length - 1)]);
  }
  return out;
}

/**
 * Whether a logged target is the data set's: the same text, but for whitespace around it
 * (` (B) `), or — for targets of one letter, the multiple-choice form `(B)` — that letter in
 * the other form (`B` for a data-set `(B)`, `(E)` for a data-set `E`), as many scripts write
 * it. Only that: no case folding (`b` is not `B`: {@link targetMatch} says when only case
 * differs), no other forms (`B.`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.ok(sameTarget("(B)", "(B)"));
 * assert.ok(sameTarget("B", "(B)"));
 * assert.ok(sameTarget("(E)", "E")); // both directions
 * assert.ok(sameTarget(" (D) ", "(D)"));
 * assert.ok(sameTarget("\nD\n", "(D)"));
 * assert.ok(!sameTarget("b", "(B)"));
 * assert.ok(!sameTarget("(b)", "B"));
 * assert.ok(!sameTarget("B.", "(B)"));
 * ```
 */
export function sameTarget(logged: string, target: string): boolean {
  if (logged === target) return true;
  const trimmed = logged.trim();
  if (trimmed === target) return true;
  const letter = letterOf(trimmed);
  return letter !== null && letter === letterOf(target);
}

/**
 * How a logged target matches the data set's: `same` ({@link sameTarget}), `case` — equal only
 * when case is ignored (`no` for `No`, `(b)` for `(B)`: a script that lower-cases its gold
 * labels) — or null. A row whose target matches only so is still that example (its
 * question says so); it is scored against the data set's target, and the load says how many
 * rows matched only ignoring case (`merge.ts`), rather than quarantining every row of such
 * a log as "target differs".
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(targetMatch("(B)", "(B)"), "same");
 * assert.equal(targetMatch("no", "No"), "case");
 * assert.equal(targetMatch("b", "(B)"), "case");
 * assert.equal(targetMatch("no.", "No"), null);
 * ```
 */
export function targetMatch(logged: string, target: string): "same" | "case" | null {
  if (sameTarget(logged, target)) return "same";
  return sameTarget(logged.toLowerCase(), target.toLowerCase()) ? "case" : null;
}

/**
 * The text of a question without its layout: runs of whitespace (line breaks included),
 * commas, semicolons and colons become one space, and the ends are trimmed. Two copies of a
 * data-set item that differ only there — the question on one line or on several, `Monsters,
 * Inc` or `Monsters Inc`, `eareth, wind, & fire` or `eareth, wind & fire` — have the same key;
 * options split differently (`(A) Monsters (B) Inc`) or other words do not. Only items a
 * data-set version lists as repaired are compared this way (see the module doc).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(layoutKey("Aladdin:\nOptions:\n(A) Monsters, Inc\n(B) Inc"), "Aladdin Options (A) Monsters Inc (B) Inc");
 * assert.equal(layoutKey("Aladdin: Options: (A) Monsters Inc (B) Inc"), layoutKey("Aladdin:\nOptions:\n(A) Monsters, Inc\n(B) Inc"));
 * assert.notEqual(layoutKey("(A) Monsters (B) Inc"), layoutKey("(A) Monsters, Inc"));
 * ```
 */
export function layoutKey(text: string): string {
  return text.split(LAYOUT).filter((w) => w !== "").join(" ");
}

const LAYOUT = /[\s,;:]+/u;

/** The letter of `B` or `(B)` (null for anything else). */
function letterOf(t: string): string | null {
  if (t.length === 1) return /^[A-Za-z]$/.test(t) ? t : null;
  return t.length === 3 && t[0] === "(" && t[2] === ")" && /^[A-Za-z]$/.test(t[1]) ? t[1] : null;
}

/** One example (or one item of another data-set version) a record can be tied to. */
interface Candidate {
  index: number;
  input: string;
  target: string;
  version: string | null;
  question: Question;
  /** Python `len` of `input`, computed on first use (-1: not yet). */
  chars: number;
}

/** One distinct input text of one task, and the examples (and version items) that have it. */
interface Question {
  task: TaskEntry;
  input: string;
  key: string;
  /** Ascending by index; the release's example before a version's item. */
  examples: Candidate[];
}

interface TaskEntry {
  bench: BenchEntry;
  name: string;
  /** Reads the data set's examples, until the task is indexed (done lazily, {@link indexed}). */
  source: (() => readonly Example[]) | null;
  /** The release's examples, by index (once indexed). */
  examples: Candidate[];
  /** Its distinct questions, in the order they were first met (once indexed). */
  questions: Question[];
  /** Cut-short inputs (by index). */
  truncated: Set<number>;
  /** Items of other data-set versions, by index (once indexed). */
  versions: Map<number, Candidate[]>;
}

/** What {@link ExampleIndex} builds over every task, when a search first needs it. */
interface GlobalIndex {
  /** Data-set input → its questions (one per task that has it). */
  raw: Map<string, Question[]>;
  rawLengths: Set<number>;
  tail: TailNode;
  truncated: Candidate[];
  /** {@link layoutKey} of each data-set version's item → its questions. */
  layouts: Map<string, Question[]>;
}

interface BenchEntry {
  name: string;
  label: string;
  scoring: BenchmarkScoring;
  tasks: Map<string, TaskEntry>;
}

/** Distinct normalised question texts and the questions that normalise to each. */
interface KeyEntry {
  key: string;
  questions: Question[];
}

/**
 * A node of the tail tree: questions whose normalised text has the same 16 characters ending
 * `end` characters before its end are under `children.get(those 16)`; shorter ones in `short`.
 * A leaf is a short list, verified one by one.
 */
type TailNode = KeyEntry[] | { end: number; short: KeyEntry[]; children: Map<string, TailNode> };

const CHUNK = 16;
const LEAF = 6;

function buildTail(entries: KeyEntry[], from: number): TailNode {
  const long = entries.filter((e) => e.key.length >= from + CHUNK);
  if (entries.length <= LEAF || long.length <= 1) return entries;
  // skip the ending every long key shares (e.g. an instruction all questions of a task end with)
  let end = from;
  const first = long[0].key;
  scan: while (end < first.length) {
    const c = first.charCodeAt(first.length - 1 - end);
    for (const e of long) {
      const at = e.key.length - 1 - end;
      if (at < 0 || e.key.charCodeAt(at) !== c) break scan;
    }
    end++;
  }
  const short: KeyEntry[] = [];
  const groups = new Map<string, KeyEntry[]>();
  for (const e of entries) {
    const n = e.key.length;
    if (n < end + CHUNK) short.push(e);
    else {
      const chunk = e.key.slice(n - end - CHUNK, n - end);
      const g = groups.get(chunk);
      if (g) g.push(e);
      else groups.set(chunk, [e]);
    }
  }
  const children = new Map<string, TailNode>();
  for (const [chunk, g] of groups) children.set(chunk, buildTail(g, end + CHUNK));
  return { end, short, children };
}

/** The entries of the tail tree that may end `key` (to be verified). */
function tailCandidates(root: TailNode, key: string, out: KeyEntry[]): void {
  const n = key.length;
  let node = root;
  for (;;) {
    if (Array.isArray(node)) {
      for (const e of node) out.push(e);
      return;
    }
    for (const e of node.short) out.push(e);
    if (n < node.end + CHUNK) return;
    const child = node.children.get(key.slice(n - node.end - CHUNK, n - node.end));
    if (child === undefined) return;
    node = child;
  }
}

/** Problems of a record tied by id that say it is not such a benchmark's record. */
const NOT_BY_ID = new Set(["unknown_task", "missing_task"]);

/** Some tasks, as a list (in benchmark order) and as a set. */
interface Tasks {
  tasks: TaskEntry[];
  set: Set<TaskEntry>;
}
const NONE: Tasks = { tasks: [], set: new Set() };

/** Every task of some benchmarks, and the tasks each label names among them. */
interface Scope {
  all: Set<TaskEntry>;
  labels: Map<string, Tasks>;
}

/** Where a record's question was found: per task, the questions that fit. */
type Found = Map<TaskEntry, Question[]>;

/** A record's fields identification reads, and its normalised input (computed once). */
class Row {
  #key: string | null = null;
  constructor(readonly r: CheckedRecord) {}
  get input(): string | null {
    return this.r.input;
  }
  get target(): string | null {
    return this.r.target;
  }
  get key(): string {
    return this.#key ??= questionKey(this.r.input ?? "");
  }
}

/** A record of a benchmark the load does not score (named by the reason). */
const unsupported = (benchmark: unknown, allowed: readonly BenchEntry[]) =>
  fail(
    null,
    "unsupported_benchmark",
    `unsupported benchmark ${quoteValue(benchmark)} ` +
      `(supported: ${allowed.map((b) => b.name).join(", ")})`,
  );

const fail = (benchmark: string | null, problem: string, reason: string): UnidentifiedRecord => ({
  ok: false,
  benchmark,
  problem,
  reason,
});

/** A list for a reason: at most `max` values, strings quoted and cut at 30 characters. */
function listOf(values: readonly (string | number)[], max = 8): string {
  const shown = values.slice(0, max).map((v) => typeof v === "string" ? quoteValue(v, 30) : v);
  return shown.join(", ") + (values.length > max ? ", …" : "");
}

/** Code-point order (what polars' sort of strings gives), not JavaScript's UTF-16 order. */
function byCodePoint(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs && !ys && y >= 0xe000) return 1;
    if (ys && !xs && x >= 0xe000) return -1;
    return x - y;
  }
  return a.length - b.length;
}

/** "A and B", "A, B and C". */
function andList(items: readonly string[]): string {
  return items.length <= 1
    ? items.join("")
    : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** A task of `bench` whose `examples` are indexed on first use ({@link indexed}). */
function taskEntry(
  bench: BenchEntry,
  name: string,
  source: () => readonly Example[],
): TaskEntry {
  return {
    bench,
    name,
    source,
    examples: [],
    questions: [],
    truncated: new Set(
      (bench.scoring.truncatedInputs ?? []).filter((t) => t.task === name).map((t) => t.index),
    ),
    versions: new Map(),
  };
}

/** Index a task's examples and its data-set versions' items (once), and return it. */
function indexed(task: TaskEntry): TaskEntry {
  if (task.source === null) return task;
  const examples = task.source();
  task.source = null;
  const byInput = new Map<string, Question>();
  const add = (index: number, input: string, target: string, version: string | null) => {
    let q = byInput.get(input);
    if (!q) {
      q = { task, input, key: questionKey(input), examples: [] };
      byInput.set(input, q);
      task.questions.push(q);
    }
    const c: Candidate = { index, input, target, version, question: q, chars: -1 };
    q.examples.push(c);
    return c;
  };
  examples.forEach((e, i) => task.examples.push(add(i, e.input, e.target, null)));
  for (const v of task.bench.scoring.dataVersions ?? []) {
    for (const item of v.items) {
      if (item.task !== task.name || item.index < 0 || item.index >= examples.length) continue;
      const c = add(item.index, item.input, item.target, v.name);
      task.versions.set(item.index, [...(task.versions.get(item.index) ?? []), c]);
    }
  }
  for (const q of task.questions) {
    q.examples.sort((a, b) => a.index - b.index || (a.version === null ? -1 : 1));
  }
  return task;
}

/**
 * One index over the released examples of several benchmarks; see the module documentation.
 *
 * Built lazily, so that a small load pays only for what it asks: a task's examples are indexed
 * when a record first names it, and the lookups over every task (exact input, question tails,
 * cut-short inputs) when a record is first searched for by its text. The result, and the order
 * of every list a reason names, is the same as an eager build's.
 */
export class ExampleIndex {
  readonly #benches: BenchEntry[] = [];
  #global: GlobalIndex | null = null;
  /** Per set of benchmarks (names joined): every task, and the tasks each label names. */
  readonly #scopes = new Map<string, Scope>();

  /**
   * Index the examples (and the data-set versions and cut-short inputs their scoring part
   * lists) of `benchmarks`, in this order (the order reasons list them in).
   */
  constructor(benchmarks: readonly { scoring: BenchmarkScoring; examples: ExampleSet }[]) {
    for (const { scoring, examples } of benchmarks) {
      const bench: BenchEntry = {
        name: scoring.name,
        label: scoring.label,
        scoring,
        tasks: new Map(),
      };
      this.#benches.push(bench);
      const names = [
        ...scoring.tasks.map((t) => t.name),
        ...Object.keys(examples).filter((t) => !scoring.tasks.some((x) => x.name === t)),
      ];
      for (const name of names) {
        bench.tasks.set(
          name,
          taskEntry(bench, name, () => examples[name] ?? []),
        );
      }
    }
  }

  /** The lookups over every task (built on first use, tasks and questions in index order). */
  #lookups(): GlobalIndex {
    if (this.#global) return this.#global;
    const keys = new Map<string, KeyEntry>();
    const raw = new Map<string, Question[]>();
    const rawLengths = new Set<number>();
    const truncated: Candidate[] = [];
    const layouts = new Map<string, Question[]>();
    for (const bench of this.#benches) {
      for (const task of bench.tasks.values()) {
        for (const q of indexed(task).questions) {
          if (q.examples.some((c) => c.version !== null)) {
            const k = layoutKey(q.input);
            layouts.set(k, [...(layouts.get(k) ?? []), q]);
          }
          const entry = keys.get(q.key);
          if (entry) entry.questions.push(q);
          else keys.set(q.key, { key: q.key, questions: [q] });
          const same = raw.get(q.input);
          if (same) same.push(q);
          else raw.set(q.input, [q]);
          rawLengths.add(q.input.length);
        }
        for (const i of task.truncated) if (task.examples[i]) truncated.push(task.examples[i]);
      }
    }
    keys.delete("");
    const tail = buildTail([...keys.values()], 0);
    return this.#global = { raw, rawLengths, tail, truncated, layouts };
  }

  /**
   * Tie a checked record to one example, set it apart with the reason, or say it is pending
   * (its question is shared by several examples: see {@link resolvePending}).
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import type { CheckedRecord } from "@runlens/pipeline/check.ts";
   * const index = new ExampleIndex([{
   *   scoring: { name: "toy", label: "Toy", tasks: [{ name: "t", size: 3 }],
   *     canonicalTask: (l) => (l === "t" ? "t" : null), readExamples: () => ({}),
   *     defaultScorer: "stored", scorers: [] },
   *   examples: { t: [{ input: "Same?", target: "yes" }, { input: "Same?", target: "yes" },
   *     { input: "Other?", target: "no" }] },
   * }]);
   * const row = (input: string, target: string | null = null): CheckedRecord => ({
   *   line: 1, run: "r", runFrom: "run", group: "r", model: "m", benchmark: "toy", task: "t",
   *   example_index: null,
   *   input, target, response: "x", chars: 1, bytes: 1, response_tokens: null, epoch: 1,
   *   stored_correct: null, tool_extracted: null, filter: null,
   * });
   * const p = index.identify(row("Q: Same?\nA:"));
   * assert.ok("pending" in p && p.candidates.join() === "0,1"); // handed out in file order
   * const bad = index.identify(row("Other?", "yes"));
   * assert.equal("reason" in bad && bad.reason, 'target "yes" differs from the data set\'s ' +
   *   'target(s) "no" for this input in t (example_index 2)');
   * ```
   */
  identify(r: CheckedRecord, hints: IdentifyHints = {}): Identification {
    const found = this.#identify(r, hints);
    const only = hints.defaultBenchmark;
    if (!("problem" in found) || found.problem !== "ambiguous_task" || !only) return found;
    if (r.benchmark !== null || (hints.benchmarks && !hints.benchmarks.includes(only))) {
      return found;
    }
    const again = this.#identify(r, { ...hints, benchmarks: [only] });
    return "problem" in again ? found : again;
  }

  /**
   * The targets of the examples whose question `text` is, exactly or at the end of a prompt
   * (few-shot prompt, chat template, answer cue) — those of every example sharing it, and of
   * its data-set versions' items; null when it is no question of an indexed data set. What a
   * log's question column holds: `columns.ts` finds that column, and the target column by
   * each row's own target, with it.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { ExampleIndex } from "@runlens/pipeline/examples.ts";
   * const index = new ExampleIndex([{
   *   scoring: { name: "aa", label: "AA", tasks: [{ name: "add", size: 2 }],
   *     canonicalTask: (l) => l, readExamples: () => ({}), defaultScorer: "stored", scorers: [] },
   *   examples: { add: [{ input: "What is 1 + 1?", target: "2" }, { input: "2 + 2?", target: "4" }] },
   * }]);
   * assert.deepEqual(index.targetsOf("What is 1 + 1?"), ["2"]);
   * assert.deepEqual(index.targetsOf("Q: What is 3 + 3?\nA: 6\n\nQ: What is 1 + 1?\nA:"), ["2"]);
   * assert.equal(index.targetsOf("(A)"), null);
   * ```
   */
  targetsOf(text: string): string[] | null {
    const row = new Row({ input: text, target: null } as CheckedRecord);
    const found = this.#search(row, this.#all(this.#benches));
    if (found.size === 0) return null;
    const targets = new Set<string>();
    for (const qs of found.values()) {
      for (const q of qs) for (const c of q.examples) targets.add(c.target);
    }
    return [...targets];
  }

  #identify(r: CheckedRecord, hints: IdentifyHints): Identification {
    const row = new Row(r);
    const allowed = hints.benchmarks
      ? this.#benches.filter((b) => hints.benchmarks!.includes(b.name))
      : this.#benches;
    let benches = allowed;
    if (r.benchmark !== null && r.benchmark !== undefined) {
      const named = allowed.find((b) => b.name === r.benchmark);
      if (!named) {
        const known = this.#benches.some((b) => b.name === r.benchmark);
        return known ? unsupported(r.benchmark, allowed) : this.#unknown(r, hints, allowed);
      }
      benches = [named];
    }
    const label = typeof r.task === "string" && pyStrip(r.task) !== "" ? r.task : null;
    const byId = benches.filter((b) => b.scoring.identity === "id");
    if (byId.length > 0 && (r.example_id != null || byId.length === benches.length)) {
      const tied = this.#byId(r, label ?? hints.task?.task ?? null, byId);
      // a task of none of them: the record is another benchmark's, tied as usual
      const others = benches.filter((b) => !byId.includes(b));
      if (!("problem" in tied) || !NOT_BY_ID.has(tied.problem) || others.length === 0) return tied;
      benches = others;
    }
    const only = benches.length === 1 ? benches[0].name : null;
    const labelled = label === null ? NONE : this.#named(label, benches);
    const hinted = hints.task ? this.#hintTasks(hints.task, benches) : NONE;

    if (labelled.tasks.length > 0) {
      let scope = labelled;
      if (hinted.tasks.length > 0) {
        const tasks = labelled.tasks.filter((t) => hinted.set.has(t));
        scope = { tasks, set: new Set(tasks) };
        if (tasks.length === 0) {
          return fail(
            this.#benchOf(labelled.tasks),
            "task_conflict",
            `task ${quoteValue(label)} (${this.#names(labelled.tasks)}) differs from the task ` +
              `the file name names (${this.#names(hinted.tasks)})`,
          );
        }
      }
      return r.example_index !== null
        ? this.#byIndex(row, scope.tasks)
        : this.#decide(row, this.#search(row, scope.set), () => this.#notFoundIn(scope.tasks));
    }

    // no task label, or one no benchmark knows: the file name's task, else the content
    const unknown = label === null ? null : fail(
      only,
      "unknown_task",
      `unknown task ${quoteValue(label)} (not a ${benches.map((b) => b.label).join(" or ")} task)`,
    );
    if (unknown && row.input === null) return unknown;
    if (hinted.tasks.length > 0) return this.#byHint(row, hinted, benches, unknown);
    if (row.input === null) {
      return fail(
        only,
        "missing_task",
        "missing task (no task field, no task in the file name, and no input to find it by)",
      );
    }
    const found = this.#search(row, this.#all(benches));
    const notFound = () =>
      unknown ?? fail(
        only,
        "input_not_found",
        `input not found in ${benches.map((b) => b.label).join(" or ")} (no task given, and ` +
          "no example of any task has exactly this text, nor is one the question at its end)",
      );
    if (found.size === 0) return notFound();
    return r.example_index !== null
      ? this.#byIndex(row, [...found.keys()])
      : this.#decide(row, found, notFound);
  }

  /**
   * A record that names a benchmark runlens does not know (an inspect task's own name,
   * `bbh_custom`): tied by its question, as a record that names none, when that finds its
   * example — the question text is the evidence, the name only a label; else quarantined,
   * naming the remedy.
   */
  #unknown(r: CheckedRecord, hints: IdentifyHints, allowed: readonly BenchEntry[]): Identification {
    if (r.input !== null && r.input !== undefined) {
      const byContent = this.#identify({ ...r, benchmark: null }, hints);
      if (!("problem" in byContent)) return byContent;
    }
    const why = unsupported(r.benchmark, allowed);
    return {
      ...why,
      reason: `${why.reason}: if its rows are one of these, say which with --map benchmark==NAME`,
    };
  }

  /**
   * A record of a benchmark tied by id: its task by label among `benches`, its own id, input
   * and target.
   */
  #byId(r: CheckedRecord, label: string | null, benches: readonly BenchEntry[]): Identification {
    const only = benches.length === 1 ? benches[0].name : null;
    const labels = benches.map((b) => b.label).join(" or ");
    if (label === null) {
      return fail(only, "missing_task", `missing task (${labels} rows name theirs)`);
    }
    const tasks = benches.flatMap((b) => {
      const task = b.scoring.canonicalTask(label);
      return task === null ? [] : [{ b, task }];
    });
    if (tasks.length === 0) {
      return fail(only, "unknown_task", `unknown task ${quoteValue(label)} (not a ${labels} task)`);
    }
    if (tasks.length > 1) {
      return fail(
        null,
        "ambiguous_task",
        `ambiguous task: ${quoteValue(label)} is a task of ${
          andList(tasks.map((t) => t.b.label))
        }; ` +
          "give benchmark",
      );
    }
    const [{ b, task }] = tasks;
    if (r.example_id == null) {
      return fail(b.name, "missing_id", `missing example_id (${b.label} rows are tied by id)`);
    }
    const optional = b.scoring.targetOptional?.(r.subset ?? null) === true;
    if (r.target === null && !optional) {
      return fail(b.name, "missing_target", `missing target (${b.label} rows carry their own)`);
    }
    const input = r.input ?? "";
    return {
      ok: true,
      benchmark: b.name,
      task,
      example_index: -1,
      input,
      target: r.target ?? "",
      input_chars: pyLen(input),
      data_version: null,
      example_id: r.example_id,
    };
  }

  /** Every task of `benches`, and the tasks labels name among them (cached). */
  #scope(benches: readonly BenchEntry[]): Scope {
    const key = benches.length === 1 ? benches[0].name : benches.map((b) => b.name).join("\0");
    let s = this.#scopes.get(key);
    if (!s) {
      s = { all: new Set(benches.flatMap((b) => [...b.tasks.values()])), labels: new Map() };
      this.#scopes.set(key, s);
    }
    return s;
  }

  #all(benches: readonly BenchEntry[]): Set<TaskEntry> {
    return this.#scope(benches).all;
  }

  /** The tasks of `benches` a label names (cached per label: logs repeat a few labels). */
  #named(label: string, benches: readonly BenchEntry[]): Tasks {
    const { labels } = this.#scope(benches);
    let t = labels.get(label);
    if (!t) {
      const tasks = this.#tasksNamed(label, benches);
      t = { tasks, set: new Set(tasks) };
      if (labels.size < 10_000) labels.set(label, t);
    }
    return t;
  }

  /** Tasks of `benches` a label names (canonical names; several when benchmarks share one). */
  #tasksNamed(label: string, benches: readonly BenchEntry[]): TaskEntry[] {
    const out: TaskEntry[] = [];
    for (const b of benches) {
      const name = b.scoring.canonicalTask(label);
      if (name === null) continue;
      let t = b.tasks.get(name);
      if (!t) { // a task the scoring part knows but the examples lack: nothing to tie to
        t = { ...taskEntry(b, name, () => []), truncated: new Set() };
        b.tasks.set(name, t);
      }
      out.push(t);
    }
    return out;
  }

  #hintTasks(
    hint: { benchmark: string | null; task: string },
    benches: readonly BenchEntry[],
  ): Tasks {
    const pool = hint.benchmark === null
      ? benches
      : benches.filter((b) => b.name === hint.benchmark);
    return pool.length === 0 ? NONE : this.#named(hint.task, pool);
  }

  /** The file name names the task: tie within it; explain a record of another task. */
  #byHint(
    row: Row,
    hinted: Tasks,
    benches: readonly BenchEntry[],
    unknown: UnidentifiedRecord | null,
  ): Identification {
    const result = row.r.example_index !== null ? this.#byIndex(row, hinted.tasks) : this.#decide(
      row,
      this.#search(row, hinted.set),
      () => unknown ?? this.#notFoundIn(hinted.tasks),
    );
    if (("ok" in result && result.ok) || "pending" in result || row.input === null) return result;
    // it failed: is its text another task's question?
    const others = new Set([...this.#all(benches)].filter((t) => !hinted.set.has(t)));
    const found = this.#search(row, others);
    if (found.size === 0) return result;
    const where = [...found].map(([t, qs]) =>
      `${t.bench.label} ${t.name} (example_index ${
        listOf(qs.flatMap((q) => q.examples.map((c) => c.index)))
      })`
    );
    return fail(
      this.#benchOf([...found.keys()]),
      "other_task",
      `input is a question of ${where.join(" and of ")}, not of the task the file name names ` +
        `(${this.#names(hinted.tasks)})`,
    );
  }

  /** Where the record's input is found among the tasks of `scope`. */
  #search(row: Row, scope: ReadonlySet<TaskEntry>): Found {
    const found: Found = new Map();
    const input = row.input;
    if (input === null) return found;
    const add = (q: Question) => {
      if (!scope.has(q.task)) return;
      const qs = found.get(q.task);
      if (!qs) found.set(q.task, [q]);
      else if (!qs.includes(q)) qs.push(q);
    };
    // 1. the exact text of a data-set input
    const { raw, rawLengths, tail, truncated, layouts } = this.#lookups();
    if (rawLengths.has(input.length)) { for (const q of raw.get(input) ?? []) add(q); }
    if (found.size > 0) return found;
    // 2. the question at the end of a prompt (normalised texts, at a question boundary)
    const key = row.key;
    const cands: KeyEntry[] = [];
    tailCandidates(tail, key, cands);
    for (const e of cands) {
      if (e.key.length <= key.length && isEmbeddedKey(key, e.key)) {
        for (const q of e.questions) add(q);
      }
    }
    if (found.size > 0) return found;
    // 3. a data-set input known to be cut short, whose whole question the prompt asks
    for (const c of truncated) {
      if (truncatedKeyMatch(key, c.question.key)) add(c.question);
    }
    if (found.size > 0) return found;
    // 4. a data-set version's item in another layout (the whole input, not a prompt's end)
    for (const q of layouts.get(layoutKey(input)) ?? []) add(q);
    return found;
  }

  /** The record without an index: one task's outcome each, then one answer. */
  #decide(row: Row, found: Found, notFound: () => UnidentifiedRecord): Identification {
    if (found.size === 0) return notFound();
    const outcomes = [...found].map(([task, qs]) => ({
      task,
      result: this.#byQuestion(row, task, qs),
    }));
    return this.#combine(outcomes, (oks) => {
      const where = oks.map(({ task, result }) => {
        const c = "pending" in result
          ? result.candidates
          : [(result as IdentifiedExample).example_index];
        return `${this.#name(task)} (example_index ${listOf(c)})`;
      });
      return `ambiguous input: it is a question of ${andList(where)}; give benchmark, task or ` +
        "target";
    });
  }

  /** The rule for a record without an index, within one task. */
  #byQuestion(row: Row, task: TaskEntry, questions: Question[]): Identification {
    const bench = task.bench.name;
    if (questions.length > 1) {
      const indices = questions.flatMap((q) => q.examples.map((c) => c.index))
        .sort((a, b) => a - b);
      return fail(
        bench,
        "ambiguous_embedded",
        `ambiguous input: it ends with several questions of ${task.name} ` +
          `(example_index ${listOf(indices)}); give example_index`,
      );
    }
    const q = questions[0];
    const target = row.target;
    const same = task.bench.scoring.sameTarget ?? sameTarget;
    // the examples whose target is the row's; failing that, those equal to it ignoring case
    let match = q.examples.filter((c) => target === null || same(target, c.target));
    if (match.length === 0 && target !== null) {
      match = q.examples.filter((c) => targetMatch(target, c.target) === "case");
    }
    const indices = q.examples.map((c) => c.index).sort((a, b) => a - b);
    if (match.length === 0) {
      const targets = [...new Set(q.examples.map((c) => c.target))].sort(byCodePoint);
      return fail(
        bench,
        "input_target_mismatch",
        `target ${quoteValue(target)} differs from the data set's target(s) ${listOf(targets)} ` +
          `for this input in ${task.name} (example_index ${listOf(indices)})`,
      );
    }
    if (new Set(match.map((c) => c.target)).size > 1) {
      return fail(
        bench,
        "ambiguous_input",
        `ambiguous input: ${indices.length} examples of ${task.name} (example_index ` +
          `${listOf(indices)}) share it with different targets; give example_index or target`,
      );
    }
    const c = match[0];
    if (q.examples.length === 1) return this.#ok(c);
    const first = q.examples[0];
    return {
      pending: true,
      benchmark: bench,
      task: task.name,
      key: [row.r.group, row.r.epoch, bench, task.name, first.version ?? "", first.index].join(
        "\0",
      ),
      candidates: match.map((m) => m.index).sort((a, b) => a - b),
      input: c.input,
      target: c.target,
      input_chars: this.#chars(c),
      data_version: c.version,
    };
  }

  /** The record with an index, against each task of `scope`; one answer. */
  #byIndex(row: Row, scope: TaskEntry[]): Identification {
    const outcomes = scope.map((task) => ({ task, result: this.#atIndex(row, task) }));
    return this.#combine(
      outcomes,
      (oks) =>
        `ambiguous task: example_index ${row.r.example_index} fits ` +
        `${andList(oks.map((o) => this.#name(o.task)))}; give benchmark, input or target`,
    );
  }

  /** The rule for a record with an index, in one task; then the known versions. */
  #atIndex(row: Row, task: TaskEntry): Identification {
    const i = row.r.example_index!;
    const bench = task.bench.name;
    const ex = indexed(task).examples[i];
    if (!ex) {
      return fail(
        bench,
        "out_of_range",
        `example_index ${i} out of range for ${task.name} (0–${task.examples.length - 1})`,
      );
    }
    const problem = this.#disagreement(row, task, ex, task.truncated.has(i));
    if (problem === null) return this.#ok(ex);
    const versions = task.versions.get(i) ?? [];
    for (const v of versions) {
      if (this.#disagreement(row, task, v, false) === null) return this.#ok(v);
    }
    // the log's own copy of a repaired item, laid out otherwise (lm-eval's `doc`)
    const layout = row.input === null ? null : layoutKey(row.input);
    for (const v of versions) {
      const targetAgrees = row.target === null ||
        (task.bench.scoring.sameTarget ?? sameTarget)(row.target, v.target);
      if (targetAgrees && layout === layoutKey(v.input)) return this.#ok(v);
    }
    // a target equal to the release's only when case is ignored (a lower-cased gold column)
    if (this.#disagreement(row, task, ex, task.truncated.has(i), true) === null) {
      return this.#ok(ex);
    }
    return problem;
  }

  /**
   * Why the record's target or input disagrees with a candidate; null when they agree
   * (`ignoringCase`: a target equal to the candidate's only when case is ignored agrees).
   */
  #disagreement(
    row: Row,
    task: TaskEntry,
    c: Candidate,
    truncated: boolean,
    ignoringCase = false,
  ): UnidentifiedRecord | null {
    const at = `${task.name}[${c.index}]`;
    const same = task.bench.scoring.sameTarget ?? sameTarget;
    const agrees = (t: string) =>
      ignoringCase ? targetMatch(t, c.target) !== null : same(t, c.target);
    if (row.target !== null && !agrees(row.target)) {
      return fail(
        task.bench.name,
        "target_mismatch",
        `target ${quoteValue(row.target)} differs from the data set's target ` +
          `${quoteValue(c.target)} for ${at}`,
      );
    }
    if (row.input !== null && row.input !== c.input) {
      const q = c.question.key;
      if (!isEmbeddedKey(row.key, q) && !(truncated && truncatedKeyMatch(row.key, q))) {
        return fail(
          task.bench.name,
          "input_mismatch",
          `input differs from the data set's input for ${at}`,
        );
      }
    }
    return null;
  }

  /** One outcome per task → one: the one that ties, else ambiguity, else why none does. */
  #combine(
    outcomes: { task: TaskEntry; result: Identification }[],
    ambiguity: (oks: { task: TaskEntry; result: Identification }[]) => string,
  ): Identification {
    const oks = outcomes.filter(({ result }) => "pending" in result || result.ok);
    if (oks.length === 1) return oks[0].result;
    if (outcomes.length === 1) return outcomes[0].result;
    if (oks.length > 1) {
      return fail(this.#benchOf(oks.map((o) => o.task)), "ambiguous_task", ambiguity(oks));
    }
    return fail(
      this.#benchOf(outcomes.map((o) => o.task)),
      "no_task_fits",
      `no task fits: ${
        outcomes.map(({ task, result }) =>
          `${this.#name(task)}: ${(result as UnidentifiedRecord).reason}`
        ).join("; ")
      }`,
    );
  }

  #ok(c: Candidate): IdentifiedExample {
    return {
      ok: true,
      benchmark: c.question.task.bench.name,
      task: c.question.task.name,
      example_index: c.index,
      input: c.input,
      target: c.target,
      input_chars: this.#chars(c),
      data_version: c.version,
    };
  }

  #chars(c: Candidate): number {
    if (c.chars < 0) c.chars = pyLen(c.input);
    return c.chars;
  }

  #notFoundIn(scope: readonly TaskEntry[]): UnidentifiedRecord {
    const where = scope.length === 1 ? scope[0].name : scope.map((t) => this.#name(t)).join(" or ");
    return fail(
      this.#benchOf(scope),
      "input_not_found",
      `input not found in ${where} (no example has exactly this text, nor is one the question ` +
        "at its end)",
    );
  }

  #name(t: TaskEntry): string {
    return `${t.bench.label} ${t.name}`;
  }

  #names(ts: readonly TaskEntry[]): string {
    return ts.map((t) => this.#name(t)).join(", ");
  }

  /** The one benchmark of these tasks, else null. */
  #benchOf(ts: readonly TaskEntry[]): string | null {
    const names = new Set(ts.map((t) => t.bench.name));
    return names.size === 1 ? [...names][0] : null;
  }
}
