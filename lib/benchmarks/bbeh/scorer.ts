/**
 * The official BBEH scorer (`bbeh/evaluate.py` of google-deepmind/bbeh), ported rule by rule
 * with its quirks: case-sensitive answer prefixes applied cumulatively (text after the LAST
 * occurrence of each), Python `strip()`/`lower()`/`float()` semantics, `split("boxed{")[1]`
 * (the text up to a second `boxed{`, not to the matching brace), a trailing "." removed from
 * the prediction but never from the target.
 *
 * Two forms of the same rules: {@link bbehOfficial} scores one response (readable, used for
 * rare rows), {@link withBbehOfficial} scores a whole LazyDataFrame in polars expressions (the
 * hot path). Tests hold both to the same conformance table and to each other on real data.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bbehOfficial } from "@runlens/benchmarks/bbeh/scorer.ts";
 * assert.ok(bbehOfficial("Thinking… The answer is: (B)", "(B)").correct);
 * assert.ok(!bbehOfficial("the answer is: (B)", "(B)").correct); // prefix is case-sensitive
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { PY_WHITESPACE, pyFloat, pyStrip } from "../../core/python.ts";

/** Name recorded on every row this scorer produces. */
export const BBEH_OFFICIAL = "bbeh-official";

/** The answer prefixes, in the order the official code tries them. */
export const BBEH_ANSWER_PREFIXES = [
  "The answer is:",
  "The final answer is ",
  "The final answer is: ",
  "The answer is ",
] as const;

/** The LaTeX wrappers `strip_latex` unwraps, in order. */
const LATEX_WRAPPERS = ["boxed{", "text{", "texttt{"] as const;

/** A verdict with the extracted answer (after the official pre-processing). */
export interface BbehVerdict {
  extracted: string;
  target: string;
  correct: boolean;
}

/** `extract_answer` + `preprocess_sample`: the normalised prediction of a response. */
export function bbehExtract(response: string): string {
  let answer = pyStrip(response);
  for (const prefix of BBEH_ANSWER_PREFIXES) {
    if (answer.includes(prefix)) answer = pyStrip(answer.split(prefix).at(-1)!);
  }
  if (answer.endsWith(".")) answer = answer.slice(0, -1);
  answer = stripLatex(answer).toLowerCase();
  answer = answer.replaceAll(", ", ",").replaceAll("**", "");
  answer = answer.split("\n")[0];
  return answer.endsWith(".") ? answer.slice(0, -1) : answer;
}

function stripLatex(response: string): string {
  if (response.startsWith("$") && response.endsWith("$")) response = response.slice(1, -1);
  for (const wrapper of LATEX_WRAPPERS) {
    if (response.includes(wrapper) && response.endsWith("}")) {
      response = response.slice(0, -1).split(wrapper)[1];
    }
  }
  return response;
}

/** `preprocess_reference`: strip, lowercase, ", " → ",". */
export function bbehNormalizeTarget(target: string): string {
  return pyStrip(target).toLowerCase().replaceAll(", ", ",");
}

/** `fuzzy_match` on a normalised prediction and target. */
export function bbehFuzzyMatch(prediction: string, reference: string): boolean {
  if (prediction === reference) return true;
  const p = [...prediction];
  const r = [...reference];
  if (p.length === 3 && p[0] === "(" && p[2] === ")") return p[1] === reference;
  if (r.length === 3 && r[0] === "(" && r[2] === ")") return r[1] === prediction;
  const pf = pyFloat(prediction);
  const rf = pyFloat(reference);
  if (pf !== null && rf !== null && pf === rf) return true;
  if (prediction.replaceAll("'", "") === reference.replaceAll("'", "")) return true;
  if (`[${reference}]` === prediction || `[${prediction}]` === reference) return true;
  return prediction.endsWith("?") && prediction.slice(0, -1) === reference;
}

/**
 * Score one response against one target with the official rules.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const v = bbehOfficial("The final answer is $\\boxed{42}$.", "42");
 * assert.deepEqual(v, { extracted: "42", target: "42", correct: true });
 * ```
 */
export function bbehOfficial(response: string, target: string): BbehVerdict {
  const extracted = bbehExtract(response);
  const normTarget = bbehNormalizeTarget(target);
  return { extracted, target: normTarget, correct: bbehFuzzyMatch(extracted, normTarget) };
}

// ---------------------------------------------------------------------------------------------
// Vectorised form. Every step is a named temporary column so polars evaluates it once.

const TMP = "__bbeh_";
const PY_FLOAT_PATTERN = "(?i)^[+-]?(?:(?:(?:[0-9](?:_?[0-9])*)?\\.[0-9](?:_?[0-9])*|" +
  "[0-9](?:_?[0-9])*\\.?)(?:e[+-]?[0-9](?:_?[0-9])*)?|inf|infinity|nan)$";
/** A decimal digit Python's float() accepts but the vectorised cast cannot parse. */
const NON_ASCII_DIGIT = "[\\p{Nd}--[0-9]]";

/** What float() strips: Python whitespace except "\x1c"-"\x1f" (not C isspace, not >= 128). */
const PY_FLOAT_WHITESPACE = PY_WHITESPACE.replace("\x1c\x1d\x1e\x1f", "");
const col = (name: string) => pl.col(TMP + name);
const dropLast = (e: pl.Expr, ch: string) => e.str.replace(`${escapeRegex(ch)}$`, "");
const stripPy = (e: pl.Expr) => e.str.stripChars(PY_WHITESPACE);
/** `e` where `cond` holds, null elsewhere (so that costly steps skip the other rows). */
const onlyWhere = (cond: pl.Expr, e: pl.Expr) =>
  pl.when(cond).then(e).otherwise(pl.lit(null).cast(pl.Utf8));

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Python `float()` of a column (null where Python raises); ASCII digits only. */
function pyFloatExpr(e: pl.Expr): pl.Expr {
  const stripped = e.str.stripChars(PY_FLOAT_WHITESPACE);
  return pl.when(stripped.str.contains(PY_FLOAT_PATTERN))
    .then(stripped.str.replaceAll("_", "", true).cast(pl.Float64))
    .otherwise(pl.lit(null).cast(pl.Float64));
}

/** Python `len(s) == 3 and s[0] == "(" and s[-1] == ")"`. */
function isParenLetter(e: pl.Expr): pl.Expr {
  return e.str.lengths().eq(3).and(e.str.startsWith("(")).and(e.str.endsWith(")"));
}

/**
 * Characters of the response's end the prefix steps look at first ({@link withBbehExtracted}).
 * Any value gives the same result; this one covers the usual final-answer line.
 */
export const BBEH_TAIL_CHARS = 512;

/**
 * Add `extracted` (the normalised prediction, {@link bbehExtract}) to a frame with a response
 * column, in polars expressions.
 *
 * The prefix steps keep the text after the LAST occurrence of each prefix, so they usually only
 * need the end of the response. Let T be the stripped last `tailChars` characters of the
 * response (a suffix of the stripped response). When the first prefix (in the official order)
 * found in T is also the first one found in the whole response, the first prefix step that fires
 * on the whole response fires on T at the same (last) occurrence and leaves the same text, and
 * every later step sees the same string: the steps run on T alone. The other rows (no prefix in
 * T, or an earlier prefix only before T; null responses) run on the whole stripped response.
 * The split of the prefix steps is evaluated only on rows that contain the prefix.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const df = pl.DataFrame({ response: ["Thinking… The answer is: (B)", "the answer is: yes"] });
 * const out = withBbehExtracted(df.lazy()).collectSync(); // adds "extracted"
 * // no prefix matches the lower-case "the answer is:", so the whole response is kept
 * assert.deepEqual(out.getColumn("extracted").toArray(), ["(b)", "the answer is: yes"]);
 * ```
 */
export function withBbehExtracted(
  lf: pl.LazyDataFrame,
  responseCol = "response",
  tailChars = BBEH_TAIL_CHARS,
): pl.LazyDataFrame {
  const resp = pl.col(responseCol);
  const tail = stripPy(resp.str.slice(-tailChars));
  let inTail: pl.Expr | null = null;
  let earlierInResp: pl.Expr | null = null;
  for (const prefix of BBEH_ANSWER_PREFIXES) {
    const here = earlierInResp === null
      ? col("t").str.contains(prefix, true)
      : col("t").str.contains(prefix, true).and(earlierInResp.not());
    inTail = inTail === null ? here : inTail.or(here);
    const inResp = resp.str.contains(prefix, true);
    earlierInResp = earlierInResp === null ? inResp : earlierInResp.or(inResp);
  }
  let out = lf.withColumns(tail.alias(TMP + "t"))
    .withColumns(inTail!.fillNull(false).alias(TMP + "tail_ok"))
    .withColumns(
      pl.when(col("tail_ok")).then(col("t"))
        .otherwise(stripPy(onlyWhere(col("tail_ok").not(), resp)))
        .alias(TMP + "a"),
    )
    .drop(TMP + "t", TMP + "tail_ok");
  for (const prefix of BBEH_ANSWER_PREFIXES) {
    const a = col("a");
    const has = a.str.contains(prefix, true);
    out = out.withColumns(
      pl.when(has)
        .then(stripPy(onlyWhere(has, a).str.split(prefix).lst.last()))
        .otherwise(a)
        .alias(TMP + "a"),
    );
  }
  out = out.withColumns(dropLast(col("a"), ".").alias(TMP + "a"));
  // strip_latex
  out = out.withColumns(
    pl.when(col("a").str.startsWith("$").and(col("a").str.endsWith("$")))
      .then(dropLast(col("a").str.slice(1), "$"))
      .otherwise(col("a"))
      .alias(TMP + "a"),
  );
  for (const wrapper of LATEX_WRAPPERS) {
    const a = col("a");
    out = out.withColumns(
      pl.when(a.str.contains(wrapper, true).and(a.str.endsWith("}")))
        .then(dropLast(a, "}").str.split(wrapper).lst.get(1))
        .otherwise(a)
        .alias(TMP + "a"),
    );
  }
  return out.withColumns(
    dropLast(
      col("a").str.toLowerCase().str.replaceAll(", ", ",", true).str.replaceAll("**", "", true)
        .str.split("\n").lst.first(),
      ".",
    ).alias("extracted"),
  ).drop(TMP + "a");
}

/**
 * Add `correct` (the official verdict) to a frame with an `extracted` column (from
 * {@link withBbehExtracted}) and a target column, plus the helper `__bbeh_slow`: rows whose
 * verdict depends on Python parsing a non-ASCII digit ({@link collectBbehOfficial} re-scores them).
 */
export function withBbehMatch(lf: pl.LazyDataFrame, targetCol = "target"): pl.LazyDataFrame {
  const out = lf.withColumns(
    stripPy(pl.col(targetCol)).str.toLowerCase().str.replaceAll(", ", ",", true)
      .alias(TMP + "t"),
  );
  const p = pl.col("extracted");
  const t = col("t");
  const pf = pyFloatExpr(p);
  const tf = pyFloatExpr(t);
  const later = pf.eq(tf).and(pf.isNan().not()).fillNull(false)
    .or(p.str.replaceAll("'", "", true).eq(t.str.replaceAll("'", "", true)))
    .or(
      p.str.startsWith("[").and(p.str.endsWith("]")).and(
        p.str.replace("^\\[(?s:(.*))\\]$", "${1}").eq(t),
      ),
    )
    .or(
      t.str.startsWith("[").and(t.str.endsWith("]")).and(
        t.str.replace("^\\[(?s:(.*))\\]$", "${1}").eq(p),
      ),
    )
    .or(p.str.endsWith("?").and(dropLast(p, "?").eq(t)));
  return out.withColumns(
    pl.when(p.eq(t)).then(pl.lit(true))
      .when(isParenLetter(p)).then(p.str.slice(1, 1).eq(t))
      .when(isParenLetter(t)).then(t.str.slice(1, 1).eq(p))
      .otherwise(later)
      .alias("correct"),
    p.str.contains(NON_ASCII_DIGIT).or(t.str.contains(NON_ASCII_DIGIT)).alias(TMP + "slow"),
  ).drop(TMP + "t");
}

/**
 * Add `extracted` (normalised prediction) and `correct` (official verdict) to a frame with a
 * response column and a target column, entirely in polars expressions
 * ({@link withBbehExtracted}, then {@link withBbehMatch}). Rows whose verdict depends on Python
 * parsing a non-ASCII digit are flagged in `__bbeh_slow` for {@link collectBbehOfficial}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const df = pl.DataFrame({
 *   response: ["Thinking… The answer is: (B)", "The final answer is $\\boxed{42}$."],
 *   target: ["(B)", "41"],
 * });
 * const scored = withBbehOfficial(df.lazy()).collectSync();
 * assert.deepEqual(scored.columns, ["response", "target", "extracted", "correct", "__bbeh_slow"]);
 * assert.deepEqual(scored.getColumn("correct").toArray(), [true, false]);
 * ```
 */
export function withBbehOfficial(
  lf: pl.LazyDataFrame,
  responseCol = "response",
  targetCol = "target",
  tailChars = BBEH_TAIL_CHARS,
): pl.LazyDataFrame {
  return withBbehMatch(withBbehExtracted(lf, responseCol, tailChars), targetCol);
}

/**
 * Re-score in JavaScript the (rare) rows of a collected {@link withBbehMatch} frame whose
 * verdict needs Python's Unicode-digit float parsing, then drop the helper column. With a
 * response column the row is re-scored from the response ({@link bbehOfficial}); without one
 * (a frame whose responses were dropped after {@link withBbehExtracted}) from the extracted
 * prediction, which is the same normalised prediction ({@link bbehFuzzyMatch}).
 */
export function finishBbehSlowRows(
  df: pl.DataFrame,
  responseCol: string | null = "response",
  targetCol = "target",
): pl.DataFrame {
  const slow = df.getColumn(TMP + "slow").toArray() as (boolean | null)[];
  if (slow.some((x) => x)) {
    const useResponse = responseCol !== null && df.columns.includes(responseCol);
    const responses = df.getColumn(useResponse ? responseCol! : "extracted").toArray() as (
      | string
      | null
    )[];
    const targets = df.getColumn(targetCol).toArray() as (string | null)[];
    const correct = df.getColumn("correct").toArray() as (boolean | null)[];
    slow.forEach((isSlow, i) => {
      if (isSlow && responses[i] !== null && targets[i] !== null) {
        correct[i] = useResponse
          ? bbehOfficial(responses[i]!, targets[i]!).correct
          : bbehFuzzyMatch(responses[i]!, bbehNormalizeTarget(targets[i]!));
      }
    });
    df = df.withColumns(pl.Series("correct", correct, pl.Bool));
  }
  return df.drop(TMP + "slow");
}

/**
 * Collect a frame scored with {@link withBbehOfficial}, re-scoring the (rare) rows whose verdict
 * needs Python's Unicode-digit float parsing in JavaScript, then drop the helper column.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * // Python's float() reads Arabic-Indic digits: "٤٢" == 42 (a row the polars cast cannot score)
 * const df = pl.DataFrame({
 *   response: ["The answer is: ٤٢", "The answer is: 7"],
 *   target: ["42", "8"],
 * });
 * const scored = collectBbehOfficial(df.lazy());
 * assert.deepEqual(scored.columns, ["response", "target", "extracted", "correct"]);
 * assert.deepEqual(scored.getColumn("correct").toArray(), [true, false]);
 * ```
 */
export function collectBbehOfficial(
  lf: pl.LazyDataFrame,
  responseCol = "response",
  targetCol = "target",
  tailChars = BBEH_TAIL_CHARS,
): pl.DataFrame {
  const df = withBbehOfficial(lf, responseCol, targetCol, tailChars).collectSync();
  return finishBbehSlowRows(df, responseCol, targetCol);
}
