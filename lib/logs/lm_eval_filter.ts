/**
 * lm-evaluation-harness writes one line per (doc, filter): a task with two filters (e.g.
 * `bbh_cot_zeroshot`: `strict-match` and `flexible-extract`) holds every response twice, each
 * line with that filter's extraction and verdict. runlens scores each response once, so per
 * (file, doc, epoch) it keeps the line of ONE filter — the one asked for (`--lm-eval-filter`,
 * else the filter the chosen scorer reproduces, e.g. `lm-eval-flexible` → `flexible-extract`),
 * else the file's first — and quarantines the other filters' lines with a reason naming the
 * line that was scored. The kept line's stored verdict is the one compared with the re-score,
 * so `lm-eval-flexible` is checked against the tool's `flexible-extract` verdicts.
 *
 * @example
 * ```ts
 * import { pickLmEvalFilter } from "@runlens/logs/lm_eval_filter.ts";
 * const { log, filter } = pickLmEvalFilter(readRunLog(file), "flexible-extract");
 * ```
 * @module
 */
import pl from "nodejs-polars";
import type { CanonicalLog } from "./canonical.ts";

const FILTER = pl.col("extra").str.jsonPathMatch("$.filter");

/**
 * Keep one filter's lines of an lm-eval log (see the module doc). `filter` is the filter kept
 * (null when the log holds at most one filter per response, and nothing changed).
 *
 * @example
 * ```ts
 * pickLmEvalFilter(log, null).filter; // e.g. "strict-match": the file's first filter
 * ```
 */
export function pickLmEvalFilter(
  log: CanonicalLog,
  preferred: string | null,
): { log: CanonicalLog; filter: string | null } {
  if (log.rows.height === 0 || !log.rows.columns.includes("extra")) return { log, filter: null };
  const rows = log.rows.withRowIndex("__pos").withColumns(FILTER.alias("__filter"));
  const filters = rows.select(pl.col("__filter").unique()).getColumn("__filter").toArray()
    .filter((f) => f !== null) as string[];
  if (filters.length < 2) return { log, filter: null };
  const first = rows.filter(pl.col("__filter").isNotNull()).sort("source_line").row(0);
  const chosen = preferred !== null && filters.includes(preferred)
    ? preferred
    : first[rows.columns.indexOf("__filter")] as string;
  const key = ["run", "example_index", "epoch"];
  const ranked = rows.withColumns(
    pl.when(pl.col("__filter").eq(pl.lit(chosen))).then(pl.lit(0)).otherwise(pl.lit(1))
      .alias("__rank"),
  );
  // per response: the line scored (chosen filter first, then the earliest line)
  const kept = ranked.filter(pl.col("example_index").isNotNull())
    .sort(["__rank", "source_line"])
    .groupBy(key).agg(
      pl.col("__filter").first().alias("__kept_filter"),
      pl.col("source_line").first().alias("__kept_line"),
    );
  const marked = ranked.join(kept, { on: key, how: "left" }).sort("__pos");
  const other = pl.col("__kept_line").isNotNull()
    .and(pl.col("__filter").neq(pl.col("__kept_filter")).fillNull(false));
  const dropped = marked.filter(other)
    .select("run", "source_line", "__filter", "__kept_filter", "__kept_line")
    .toRecords() as {
      run: string;
      source_line: number;
      __filter: string;
      __kept_filter: string;
      __kept_line: number;
    }[];
  return {
    filter: chosen,
    log: {
      ...log,
      rows: marked.filter(other.not()).select(...log.rows.columns),
      quarantine: [
        ...log.quarantine,
        ...dropped.map((d) => ({
          run: d.run,
          entry: {
            file: log.file,
            line: d.source_line,
            reason: `lm-eval filter "${d.__filter}": the same response is scored once, from ` +
              `line ${d.__kept_line} (filter "${d.__kept_filter}")`,
          },
        })),
      ],
    },
  };
}
