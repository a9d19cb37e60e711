/**
 * `lm-eval-flexible`: lm-evaluation-harness `bbh_cot_zeroshot`, filter `flexible-extract`
 * (per task, see `lm_eval/bbh_cot_zeroshot.ts`), then `take_first`, scored with the
 * cot_zeroshot `exact_match` (ignore case; ".$", ",", "\\", "\n", '"' removed from both sides).
 *
 * Per task: `\b(True|False)\b`, `\b(Yes|No|yes|no)\b`, `\b(valid|invalid)\b` and the Dyck
 * bracket runs take the LAST match (`group_select: -1`); sports_understanding and web_of_lies
 * map the last yes/no phrase of the lower-cased response to "yes"/"no"; the arithmetic tasks
 * take the last `[-0-9]+` run, else an English number phrase; word_sorting keeps the listed
 * words in the order of their last occurrence; the 17 multiple-choice tasks take the last
 * "(X)", else the last option text (case and punctuation ignored), else the last ": X".
 * "[invalid]" when nothing is found.
 *
 * Polars form: Rust's regex has no look-around, so each "last match" is a `(?s:.*)` prefix
 * (latest start) over patterns whose matches cannot overlap, with word boundaries consumed
 * (`(?:^|[^\w])…(?:[^\w]|$)`); "not plausible" is rewritten to "no" first because it contains
 * the later-starting "plausible". The multiple-choice option alternation can overlap, so it
 * uses `^(?:(?s:.*?)(ALT))*`, which repeats the leftmost-first scan of `re.findall` and keeps
 * the last iteration. Option patterns depend only on the input: they are built in JavaScript
 * once per distinct input and mapped onto the rows. All of this happens in `prepare`, in
 * stages of `withColumns` so that no step is computed twice; `expr` only reads the result.
 * Rows needing `word2number` (no digit or "-" in the response), word_sorting rows and inputs
 * with NUL/SOH characters are left to the scalar form (`slow`).
 *
 * @example
 * ```ts
 * import { lmEvalFlexible } from "@runlens/benchmarks/bbh/scorers/lm_eval/flexible.ts";
 * import assert from "node:assert/strict";
 * const v = lmEvalFlexible.score("Jane is lying, so yes", "Yes", { task: "web_of_lies" });
 * assert.deepEqual(v, { extracted: "yes", correct: true });
 * ```
 * @module
 */
import pl from "nodejs-polars";
import {
  DYCK_PATTERN,
  FLEXIBLE_FILTERS,
  type FlexibleSpec,
  SPORTS_MAP,
  WEB_OF_LIES_MAP,
} from "./bbh_cot_zeroshot.ts";
import { lmEvalZeroshotEqual, lmEvalZeroshotEqualExpr } from "./exact_match.ts";
import {
  FALLBACK,
  mapRegexFilter,
  mcChoices,
  multiChoiceRegexFilter,
  numberParseRegexFilter,
  regexFilter,
  wordSortFilter,
} from "./filters.ts";
import {
  escapeRust,
  lastMatch,
  PY_WORD,
  PY_WS,
  stripPy,
  wholeWords,
} from "../../../../scorers/pyre.ts";
import type { ScoreContext, Scorer, ScorerColumns, Verdict } from "../../../../scorers/types.ts";

/**
 * The filter spec of a task (null for tasks outside BBH).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(flexibleSpec("word_sorting")?.kind, "word_sort");
 * assert.equal(flexibleSpec("zebra_puzzles"), null); // a BBEH task
 * ```
 */
export function flexibleSpec(task: string | null | undefined): FlexibleSpec | null {
  return task && Object.hasOwn(FLEXIBLE_FILTERS, task) ? FLEXIBLE_FILTERS[task] : null;
}

/**
 * The `flexible-extract` output for one response; null where the rule cannot score (unknown
 * task, missing input, or the harness itself would raise).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(extractFlexible("It has 3 + 4 = 7 legs", "object_counting", null), "7");
 * assert.equal(extractFlexible("(B) it is", "snarks", null), null); // needs the input
 * ```
 */
export function extractFlexible(
  response: string,
  task: string | null | undefined,
  input: string | null | undefined,
): string | null {
  const spec = flexibleSpec(task);
  if (!spec) return null;
  switch (spec.kind) {
    case "regex":
      return regexFilter(response, spec.pattern, spec.groupSelect);
    case "map":
      return mapRegexFilter(response, spec.patternToValue, spec.groupSelect, spec.ignoreCase);
    case "number":
      return numberParseRegexFilter(response, spec.pattern, spec.groupSelect);
    case "word_sort":
      return input == null ? null : wordSortFilter(response, input);
    case "multi_choice":
      return input == null ? null : multiChoiceRegexFilter(response, input, {
        pattern: spec.pattern,
        groupSelect: spec.groupSelect,
        ignoreCase: spec.ignoreCase,
        ignorePunct: spec.ignorePunctuation,
      });
  }
}

function score(response: string, target: string, ctx: ScoreContext = {}): Verdict {
  const extracted = extractFlexible(response, ctx.task, ctx.input);
  if (extracted === null) return { extracted: null, correct: null };
  return { extracted, correct: lmEvalZeroshotEqual(extracted, target) };
}

// ---------------------------------------------------------------------------------------------
// Polars form.

const tasksOf = (kind: FlexibleSpec["kind"], pattern?: string) =>
  Object.entries(FLEXIBLE_FILTERS)
    .filter(([, s]) =>
      s.kind === kind && (pattern === undefined || (s as { pattern?: string }).pattern === pattern)
    )
    .map(([t]) => t);

const MC_TASKS = tasksOf("multi_choice");
const NUMBER_TASKS = tasksOf("number");
const WORD_SORT_TASKS = tasksOf("word_sort");

/** Rust forms of the `regex` filters, keyed by the Python pattern. */
const DYCK_CLASS = '" \\[\\(<{}>\\)\\]';
const REGEX_LAST: Record<string, (e: pl.Expr) => pl.Expr> = {
  "\\b(True|False)\\b": (e) => lastMatch(e, wholeWords(["True", "False"])),
  "\\b(Yes|No|yes|no)\\b": (e) => lastMatch(e, wholeWords(["Yes", "No", "yes", "no"])),
  "\\b(valid|invalid)\\b": (e) => lastMatch(e, wholeWords(["valid", "invalid"])),
  [DYCK_PATTERN]: (e) => stripPy(lastMatch(e, `(?:^|[^${DYCK_CLASS}])([${DYCK_CLASS}]+)`)),
};

const NOT_PLAUSIBLE = `(^|[^${PY_WORD}])not plausible([^${PY_WORD}]|$)`;

function sportsExpr(e: pl.Expr): pl.Expr {
  // Whole-word "not plausible" is always one findall match (it maps to "no"); rewrite it so
  // the later-starting "plausible" inside it cannot be picked. Two passes: adjacent
  // occurrences share the separator the first pass consumes.
  let lower = e.str.toLowerCase();
  for (let pass = 0; pass < 2; pass++) lower = lower.str.replaceAll(NOT_PLAUSIBLE, "${1}no${2}");
  const w = lastMatch(lower, wholeWords(["no", "yes", "plausible"]));
  return pl.when(w.isNull()).then(pl.lit(FALLBACK))
    .when(w.eq(pl.lit("no"))).then(pl.lit("no")).otherwise(pl.lit("yes"));
}

function webOfLiesExpr(e: pl.Expr): pl.Expr {
  const no = ["no", "does not tell the truth", "is not telling the truth"];
  const yes = ["yes", "tells the truth", "is telling the truth"];
  const w = lastMatch(e.str.toLowerCase(), wholeWords([...no, ...yes]));
  return pl.when(w.isNull()).then(pl.lit(FALLBACK))
    .when(w.isIn(no)).then(pl.lit("no")).otherwise(pl.lit("yes"));
}

const H = "__lmflex_";
// Per distinct input (multiple-choice tasks):
const P2 = `${H}options`; // findall-last pattern over the option texts (null: step 2 is falsy)
const MAP = `${H}letters`; // "\0key\x01(A)\0key\x01(B)…"
const P3 = `${H}bare`; // last ":\s*(A|B|…)" (null: no options)
const FLAG = `${H}flag`; // "bad" (> 26 options: the harness dies), "slow" (NUL/SOH in options)
// Per row, in stages so that no step is evaluated twice:
const FIRST = `${H}first`; // multiple choice step 1: the last "(X)"
const NUM = `${H}number`; // the last [-0-9]+ run
const PICKED = `${H}picked`; // multiple choice step 2: the last option text, stripped
const SECOND = `${H}second`; // step 2 mapped to its letter (or kept as it is)
const BARE = `${H}bare_letter`; // multiple choice step 3: the letter after the last ":"
const X = `${H}extracted`;
const SLOW = `${H}slow`;

/** Step 2/3 patterns and flags for one multiple-choice input. */
function mcPlan(input: string): { p2: string; map: string; p3: string; flag: string } {
  const c = mcChoices(input);
  if (c.letters.length > 26) return { p2: "", map: "", p3: "", flag: "bad" };
  if (c.keys.some((k) => k.includes("\0") || k.includes("\x01"))) {
    return { p2: "", map: "", p3: "", flag: "slow" };
  }
  const p2 = c.keys.length === 0 || c.keys.some((k) => k === "")
    ? ""
    : `^(?:(?s:.*?)(${c.keys.map(escapeRust).join("|")}))*`;
  const map = [...c.toLetter].map(([k, v]) => `\0${k}\x01${v}`).join("");
  const p3 = c.letters.length === 0 ? "" : `(?s:.*):[${PY_WS}]*(${c.letters.join("|")})`;
  return { p2, map, p3, flag: "" };
}

const NULL_STR = () => pl.lit(null).cast(pl.Utf8);

/** The per-input helper columns: one JavaScript plan per distinct multiple-choice input. */
function withInputPlans(lf: pl.LazyDataFrame, cols: ScorerColumns): pl.LazyDataFrame {
  const inputs = (lf.filter(pl.col(cols.task).isIn(MC_TASKS)).select(pl.col(cols.input))
    .unique().collectSync().getColumn(cols.input).toArray() as (string | null)[])
    .filter((x): x is string => x !== null);
  const plans = inputs.map(mcPlan);
  const column = (key: "p2" | "map" | "p3" | "flag", name: string) => {
    if (inputs.length === 0) return NULL_STR().alias(name);
    const mapped = pl.col(cols.input).replaceStrict(
      inputs,
      plans.map((p) => p[key]),
      NULL_STR(),
      pl.Utf8,
    );
    return pl.when(mapped.eq(pl.lit(""))).then(NULL_STR()).otherwise(mapped).alias(name);
  };
  return lf.withColumns(
    column("p2", P2),
    column("map", MAP),
    column("p3", P3),
    column("flag", FLAG),
  );
}

/**
 * Add the helper columns, ending with the filter output (`__lmflex_extracted`) and the rows
 * left to the scalar form (`__lmflex_slow`).
 */
function prepare(lf: pl.LazyDataFrame, cols: ScorerColumns): pl.LazyDataFrame {
  for (const t of tasksOf("regex")) {
    const pattern = (FLEXIBLE_FILTERS[t] as { pattern: string }).pattern;
    if (!REGEX_LAST[pattern]) throw new Error(`lm-eval-flexible: no polars form for ${t}`);
  }
  checkMap("sports_understanding", SPORTS_MAP);
  checkMap("web_of_lies", WEB_OF_LIES_MAP);
  const task = pl.col(cols.task);
  const response = pl.col(cols.response);
  const only = (tasks: string[]) => pl.when(task.isIn(tasks)).then(response).otherwise(NULL_STR());
  const mc = only(MC_TASKS);
  const keyPattern = pl.concatString(
    [
      pl.lit("(?s:.*)\0"),
      pl.col(PICKED).str.replaceAll("[\\\\.+*?()|\\[\\]{}^$#&\\-~]", "\\$0"),
      pl.lit("\x01([^\0]*)"),
    ],
    "",
    false,
  );
  const letter = pl.col(MAP).str.extract(keyPattern, 1);
  const second = pl.col(SECOND);
  const multiChoice = pl.when(pl.col(FLAG).eq(pl.lit("bad"))).then(NULL_STR())
    .when(pl.col(FIRST).isNotNull()).then(pl.col(FIRST))
    .when(second.isNotNull().and(second.neq(pl.lit("")))).then(second)
    .when(pl.col(BARE).isNotNull())
    .then(pl.concatString([pl.lit("("), pl.col(BARE), pl.lit(")")], "", false))
    .otherwise(pl.lit(FALLBACK));
  let extracted: pl.Expr = NULL_STR();
  for (const [pattern, toExpr] of Object.entries(REGEX_LAST)) {
    const tasks = tasksOf("regex", pattern);
    extracted = pl.when(task.isIn(tasks)).then(toExpr(only(tasks)).fillNull(pl.lit(FALLBACK)))
      .otherwise(extracted);
  }
  extracted = pl.when(response.isNull()).then(NULL_STR())
    .when(task.eq(pl.lit("sports_understanding")))
    .then(sportsExpr(only(["sports_understanding"])))
    .when(task.eq(pl.lit("web_of_lies"))).then(webOfLiesExpr(only(["web_of_lies"])))
    .when(task.isIn(NUMBER_TASKS)).then(pl.col(NUM))
    .when(task.isIn(MC_TASKS).and(pl.col(cols.input).isNull())).then(NULL_STR())
    .when(task.isIn(MC_TASKS)).then(multiChoice)
    .otherwise(extracted);
  const slow = task.isIn(WORD_SORT_TASKS)
    .or(task.isIn(NUMBER_TASKS).and(pl.col(NUM).isNull()))
    .or(task.isIn(MC_TASKS).and(pl.col(FLAG).eq(pl.lit("slow"))))
    .and(response.isNotNull())
    .fillNull(false);
  return withInputPlans(lf, cols)
    .withColumns(
      lastMatch(mc, "(\\([A-Z]\\))").alias(FIRST),
      lastMatch(only(NUMBER_TASKS), "(?:^|[^-0-9])([-0-9]+)").alias(NUM),
    )
    .withColumns(
      stripPy(
        mc.str.toLowerCase().str.replaceAll("\\p{P}", "")
          .str.extract(pl.when(pl.col(FIRST).isNull()).then(pl.col(P2)).otherwise(NULL_STR()), 1),
      ).alias(PICKED),
      mc.str.extract(pl.when(pl.col(FIRST).isNull()).then(pl.col(P3)).otherwise(NULL_STR()), 1)
        .alias(BARE),
    )
    .withColumns(pl.when(letter.isNotNull()).then(letter).otherwise(pl.col(PICKED)).alias(SECOND))
    .withColumns(extracted.alias(X), slow.alias(SLOW));
}

/** `lm-eval-flexible`. */
export const lmEvalFlexible: Scorer = {
  name: "lm-eval-flexible",
  description: 'lm-evaluation-harness bbh_cot_zeroshot "flexible-extract": per-task ' +
    "filters (last True/False, Yes/No, valid/invalid, bracket run or number; yes/no phrase " +
    "maps; word order by last occurrence; last (X), else option text, else ': X'), " +
    '"[invalid]" when nothing is found; exact match ignoring case, a final ".", commas, ' +
    "backslashes, newlines and double quotes. Needs the task and input columns; its polars " +
    "form does the work in prepare.",
  source: "EleutherAI/lm-evaluation-harness lm_eval/tasks/bbh/cot_zeroshot/<task>.yaml @ " +
    "2a59f1d and utils.py @ 2542e47 (see lib/benchmarks/bbh/scorers/lm_eval/bbh_cot_zeroshot.ts)",
  benchmarks: ["bbh"],
  needs: ["task", "input"],
  lmEvalFilter: "flexible-extract",
  score,
  prepare,
  expr: (_responseCol, targetCol) => ({
    extracted: pl.col(X),
    correct: lmEvalZeroshotEqualExpr(pl.col(X), pl.col(targetCol)),
    slow: pl.col(SLOW),
  }),
};

/** The polars forms hard-code the two yes/no maps: fail loudly if the table changes. */
function checkMap(task: string, expected: readonly (readonly [string, string])[]): void {
  const spec = FLEXIBLE_FILTERS[task];
  if (spec.kind !== "map" || JSON.stringify(spec.patternToValue) !== JSON.stringify(expected)) {
    throw new Error(`lm-eval-flexible: the polars form of ${task} is out of date`);
  }
}
