/**
 * The scorer interface: one scoring rule in two forms that must agree on every row.
 *
 * - `score(response, target, ctx?)` scores one response in plain TypeScript (the readable
 *   reference, and the fallback for the rare rows a rule cannot score in polars);
 * - `expr(responseCol, targetCol, ctx?)` returns polars expressions for the `extracted` and
 *   `correct` columns (the hot path: logs can be gigabytes). Rules that need per-example
 *   helper columns add them first with `prepare`, and rules that cannot decide some rows in
 *   polars flag them with a `slow` expression; {@link ScorerExprs.slow} rows are re-scored
 *   with `score` by `scoreFrame` (`scorers/frame.ts`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { Scorer } from "@runlens/scorers/types.ts";
 * import { getScorer } from "@runlens/benchmarks/registry.ts";
 * const s: Scorer = getScorer("last-line");
 * assert.deepEqual(s.score("thinking…\nTrue\n", "true"), { extracted: "true", correct: true });
 * ```
 * @module
 */
import type pl from "nodejs-polars";

/** The outcome of scoring one response. */
export interface Verdict {
  /** The answer the rule extracted (null: the rule extracts nothing). */
  extracted: string | null;
  /** The verdict; null when the rule does not score this row. */
  correct: boolean | null;
}

/** What some rules need besides the response and the target (one row). */
export interface ScoreContext {
  /** Canonical task name (rules with per-task behaviour). */
  task?: string | null;
  /** The question text of the data set (rules that read the options or word list). */
  input?: string | null;
  /** The verdict the log stored (the `stored` rule). */
  stored?: boolean | null;
}

/** Column names a rule may read besides response and target. */
export interface ExprContext {
  /** Task column (default `task`). */
  taskCol?: string;
  /** Input column (default `input`). */
  inputCol?: string;
  /** Stored-verdict column (default `stored_correct`). */
  storedCol?: string;
}

/** The polars form of a rule's output. */
export interface ScorerExprs {
  /** Utf8: the extracted answer (null where the rule extracts nothing). */
  extracted: pl.Expr;
  /** Bool: the verdict (null where the rule does not score). */
  correct: pl.Expr;
  /** Bool: rows whose verdict must come from the scalar `score` (absent: none). */
  slow?: pl.Expr;
}

/** All columns `scoreFrame` passes to a rule. */
export interface ScorerColumns {
  response: string;
  target: string;
  task: string;
  input: string;
  stored: string;
}

/** Extra columns a rule reads. */
export type ScorerNeed = "task" | "input" | "stored";

/**
 * A scoring rule's scalar form: its name and documentation and `score`, without polars — what
 * the streaming path's Workers load.
 */
export interface ScalarScorer {
  /** Registry name, e.g. `bbh-release-cot`. */
  name: string;
  /** One paragraph: what the rule does, including its quirks. */
  description: string;
  /** Where the rule comes from (file, commit or page). */
  source: string;
  /** Names of the benchmarks the rule is meant for. */
  benchmarks: readonly string[];
  /** Columns read besides response and target. */
  needs: readonly ScorerNeed[];
  /** The lm-evaluation-harness filter whose extraction this rule reproduces, if any. */
  lmEvalFilter?: string;
  /** Score one response. */
  score(response: string, target: string, ctx?: ScoreContext): Verdict;
}

/** One registered scoring rule. */
export interface Scorer {
  /** Registry name, e.g. `bbh-release-cot`. */
  name: string;
  /** One paragraph: what the rule does, including its quirks. */
  description: string;
  /** Where the rule comes from (file, commit or page). */
  source: string;
  /** Names of the benchmarks the rule is meant for. */
  benchmarks: readonly string[];
  /** Columns read besides response and target. */
  needs: readonly ScorerNeed[];
  /** The lm-evaluation-harness filter whose extraction this rule reproduces, if any. */
  lmEvalFilter?: string;
  /** Score one response. */
  score(response: string, target: string, ctx?: ScoreContext): Verdict;
  /** Polars expressions for `extracted`, `correct` (and `slow`); call `prepare` first if set. */
  expr(responseCol: string, targetCol: string, ctx?: ExprContext): ScorerExprs;
  /** Add the helper columns `expr` reads (names start with `__`); absent when none. */
  prepare?(lf: pl.LazyDataFrame, cols: ScorerColumns): pl.LazyDataFrame;
}
