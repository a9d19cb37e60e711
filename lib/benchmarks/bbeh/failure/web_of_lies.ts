/**
 * Web of Lies, new cyclic variant: per-position correctness of the three-word answer and the
 * accuracy for the person at the end of the chain vs earlier people (BBEH paper, Appendix A.21:
 * o3-mini 41.2% / 41.2%, Gemini 2.0 Flash 30% earlier vs 27.5% last).
 *
 * The paper does not say which of the three asked people is "last". We read it from the
 * text: a statement "A says … B …" makes A depend on B; a person's chain depth is 1 + the
 * largest depth of the people they talk about (the person whose truth is given has depth 0;
 * cycles stop the recursion). The asked person of largest depth is "last" (no unique largest
 * depth: the item is left out of that measure), the others "earlier".
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * import {
 *   chainDepths,
 *   webOfLiesPositions,
 * } from "@runlens/benchmarks/bbeh/failure/web_of_lies.ts";
 * const q = "Amy tells the truth. Bob says Amy lies. Do Amy, Bob, and Bob tell the truth?";
 * assert.deepEqual(chainDepths(q), [0, 1, 1]);
 * // a run log: cyclic items 1 (gold "no, yes, no") and 3 (gold "yes, no, yes")
 * const log = Deno.makeTempFileSync({ suffix: ".csv" });
 * Deno.writeTextFileSync(
 *   log,
 *   `run,model,task,example_index,response
 * r1,m,web_of_lies,1,"The answer is: no, yes, yes"
 * r1,m,web_of_lies,3,"The answer is: yes, no, yes"
 * `,
 * );
 * const { rows } = await loadRuns([log], resolveDataDir());
 * Deno.removeSync(log);
 * const table = webOfLiesPositions(rows); // position_1_accuracy, …, earlier_person_accuracy
 * const last = table.filter(pl.col("measure").eq(pl.lit("last_person_accuracy")));
 * assert.deepEqual(last.select("count", "n").row(0), [1, 2]); // item 1 is wrong on the last
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { withSubsetLabel } from "./labels.ts";
import { requireColumns, shareMeasures } from "./shares.ts";

const NAME = /\b[A-Z][a-z]+\b/g;

/**
 * Chain depth of each of the asked people, in the order of the question ("Do X, Y, and Z tell
 * the truth?"); null for a person the text never mentions. Empty when there is no question.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const q = "Ann lies. Bo says Ann lies. Cy says Bo lies. Do Cy, Bo, and Ann tell the truth?";
 * assert.deepEqual(chainDepths(q), [2, 1, 0]);
 * assert.deepEqual(chainDepths("A lies. B says A lies. Do A, B, and B tell the truth?"), []);
 * // (names have two letters or more: one-letter names are not read)
 * ```
 */
export function chainDepths(input: string): (number | null)[] {
  const q = /Do ([A-Z][a-z]+), ([A-Z][a-z]+),? and ([A-Z][a-z]+) tell the truth\?/.exec(input);
  if (!q) return [];
  const refs = new Map<string, string[]>();
  const roots = new Set<string>();
  for (const raw of input.slice(0, q.index).split(".")) {
    const s = raw.trim();
    const says = /^([A-Z][a-z]+) says (.*)$/.exec(s);
    if (says) {
      refs.set(says[1], [...(refs.get(says[1]) ?? []), ...(says[2].match(NAME) ?? [])]);
    } else if (/^([A-Z][a-z]+) (?:tells the truth|lies)$/.test(s)) roots.add(s.split(" ")[0]);
  }
  const memo = new Map<string, number | null>();
  const visiting = new Set<string>();
  const depth = (p: string): number | null => {
    if (roots.has(p)) return 0;
    if (memo.has(p)) return memo.get(p)!;
    if (visiting.has(p) || !refs.has(p)) return null;
    visiting.add(p);
    const ds = refs.get(p)!.map(depth).filter((d): d is number => d !== null);
    visiting.delete(p);
    const d = ds.length === 0 ? null : 1 + Math.max(...ds);
    memo.set(p, d);
    return d;
  };
  return [q[1], q[2], q[3]].map(depth);
}

/** Position (0, 1, 2) of the asked person at the end of the chain, or null when not unique. */
export function lastPosition(depths: readonly (number | null)[]): number | null {
  const known = depths.map((d, i) => [d, i] as const).filter(([d]) => d !== null);
  if (known.length === 0) return null;
  const max = Math.max(...known.map(([d]) => d as number));
  const at = known.filter(([d]) => d === max);
  return at.length === 1 ? at[0][1] : null;
}

/** The i-th word of a normalised three-word answer ("yes,unknown,no"; brackets dropped). */
function word(col: string, i: number): pl.Expr {
  return pl.col(col).fillNull("").str.replaceAll("[<>\\[\\]\\s]", "").str.split(",").lst.get(i);
}

/**
 * Share table for the cyclic web_of_lies items: `position_1_accuracy`, `position_2_accuracy`,
 * `position_3_accuracy`, `last_person_accuracy`, `earlier_person_accuracy` (counts over
 * asked people) and `all_three_accuracy`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * // a run log: cyclic items 1 (gold "no, yes, no") and 3 (gold "yes, no, yes")
 * const log = Deno.makeTempFileSync({ suffix: ".csv" });
 * Deno.writeTextFileSync(
 *   log,
 *   `run,model,task,example_index,response
 * r1,m,web_of_lies,1,"The answer is: no, yes, yes"
 * r1,m,web_of_lies,3,"The answer is: yes, no, yes"
 * `,
 * );
 * const { rows } = await loadRuns([log], resolveDataDir());
 * Deno.removeSync(log);
 * const table = webOfLiesPositions(rows);
 * assert.deepEqual(table.select("measure", "count", "n").rows(), [
 *   ["position_1_accuracy", 2, 2],
 *   ["position_2_accuracy", 2, 2],
 *   ["position_3_accuracy", 1, 2],
 *   ["all_three_accuracy", 1, 2],
 *   ["last_person_accuracy", 1, 2], // counted over asked people
 *   ["earlier_person_accuracy", 4, 4],
 * ]);
 * ```
 */
export function webOfLiesPositions(rows: pl.DataFrame): pl.DataFrame {
  requireColumns(
    rows,
    ["run", "model", "task", "example_index", "input", "target", "extracted", "correct"],
    "webOfLiesPositions",
  );
  const df = withSubsetLabel(rows, "web_of_lies", "variant")
    .filter(pl.col("subset").eq(pl.lit("cyclic")));
  const items = df.select("example_index", "input").unique({
    subset: ["example_index"],
    keep: "first",
  });
  const lasts = (items.getColumn("input").toArray() as string[])
    .map((input) => lastPosition(chainDepths(input)));
  const last = pl.DataFrame({
    example_index: items.getColumn("example_index"),
    __last: lasts.length === 0 ? pl.Series("__last", [], pl.Int32) : pl.Series("__last", lasts)
      .cast(pl.Int32),
  });
  const gold = (i: number) => word("target", i).str.toLowerCase();
  const ok = (i: number) => word("extracted", i).eq(gold(i)).fillNull(false);
  const positions = df.join(last, { on: "example_index", how: "left" })
    .withColumns(ok(0).alias("__ok0"), ok(1).alias("__ok1"), ok(2).alias("__ok2"));
  // One row per asked person for last/earlier.
  const perPerson = pl.concat(
    [0, 1, 2].map((i) =>
      positions.select(
        pl.col("run"),
        pl.col("model"),
        pl.col("task"),
        pl.col(`__ok${i}`).alias("__ok"),
        pl.col("__last").eq(i).alias("__is_last"),
        pl.col("__last").isNotNull().alias("__known"),
      )
    ),
    { how: "vertical" },
  );
  const all = pl.lit(true);
  const byPosition = shareMeasures(positions, [
    { measure: "position_1_accuracy", hit: pl.col("__ok0"), of: all },
    { measure: "position_2_accuracy", hit: pl.col("__ok1"), of: all },
    { measure: "position_3_accuracy", hit: pl.col("__ok2"), of: all },
    { measure: "all_three_accuracy", hit: pl.col("correct"), of: all },
  ]);
  const byChain = shareMeasures(perPerson, [
    { measure: "last_person_accuracy", hit: pl.col("__ok"), of: pl.col("__is_last") },
    {
      measure: "earlier_person_accuracy",
      hit: pl.col("__ok"),
      of: pl.col("__known").and(pl.col("__is_last").not()),
    },
  ]);
  return pl.concat([byPosition, byChain], { how: "vertical" })
    .withColumns(pl.lit("cyclic").alias("group"));
}
