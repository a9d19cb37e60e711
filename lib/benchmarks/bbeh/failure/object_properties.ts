/**
 * Object Properties: how often does the model say the count cannot be determined? (BBEH paper,
 * Appendix A.13: every item has a "lost one of the … items" trick update after which the count
 * is still determined; the question tells models to answer "unknown" when it is not.)
 *
 * A response counts as "cannot be determined" when its extracted answer is `unknown` or says
 * the number cannot be determined / computed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * import {
 *   objectPropertiesUndetermined,
 * } from "@runlens/benchmarks/bbeh/failure/object_properties.ts";
 * // a run log: object_properties items 0 ("either" variant) and 1 ("neither")
 * const log = Deno.makeTempFileSync({ suffix: ".csv" });
 * Deno.writeTextFileSync(
 *   log,
 *   `run,model,task,example_index,response
 * r1,m,object_properties,0,The answer is: unknown
 * r1,m,object_properties,1,The answer is: 15
 * `,
 * );
 * const { rows } = await loadRuns([log], resolveDataDir());
 * Deno.removeSync(log);
 * const table = objectPropertiesUndetermined(rows); // undetermined_share per either/neither/all
 * assert.deepEqual(table.select("group", "count", "n").rows(), [
 *   ["all", 1, 2],
 *   ["either", 1, 1],
 *   ["neither", 0, 1],
 * ]);
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { withSubsetLabel } from "./labels.ts";
import { requireColumns, shareMeasures } from "./shares.ts";

/** What an extracted answer looks like when the model gave up on the count. */
export const UNDETERMINED_PATTERN =
  "^unknown$|^undetermined$|cannot be (?:determined|computed)|can't be (?:determined|computed)|" +
  "not (?:possible|enough information) to (?:determine|compute)|^indeterminate$";

/**
 * Share table for object_properties: `undetermined_share` (out of all rows) per subset
 * (`either`, `neither`) and pooled.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * // a run log: object_properties items 0 ("either" variant) and 1 ("neither")
 * const log = Deno.makeTempFileSync({ suffix: ".csv" });
 * Deno.writeTextFileSync(
 *   log,
 *   `run,model,task,example_index,response
 * r1,m,object_properties,0,The answer is: unknown
 * r1,m,object_properties,1,The answer is: 15
 * `,
 * );
 * const { rows } = await loadRuns([log], resolveDataDir());
 * Deno.removeSync(log);
 * const table = objectPropertiesUndetermined(rows);
 * assert.deepEqual(table.getColumn("share").toArray(), [50, 100, 0]); // all, either, neither
 * ```
 */
export function objectPropertiesUndetermined(rows: pl.DataFrame): pl.DataFrame {
  requireColumns(
    rows,
    ["run", "model", "task", "example_index", "input", "target", "extracted"],
    "objectPropertiesUndetermined",
  );
  const df = withSubsetLabel(rows, "object_properties", "variant");
  return shareMeasures(df, [{
    measure: "undetermined_share",
    hit: pl.col("extracted").str.contains(UNDETERMINED_PATTERN),
    of: pl.lit(true),
  }], { group: "subset" });
}
