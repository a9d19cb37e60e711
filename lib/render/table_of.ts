/**
 * A polars frame as a report table: its columns in order, numbers of float columns with
 * `digits` decimals (counts, in integer columns, print as integers), booleans as text.
 *
 * @example
 * ```ts
 * import pl from "nodejs-polars";
 * const df = pl.DataFrame({ task: ["nycc"], n: [200], accuracy: [51.25] }, {
 *   schema: { task: pl.Utf8, n: pl.UInt32, accuracy: pl.Float64 },
 * });
 * const t = tableOf(df, { title: "Accuracy", digits: 1 });
 * t.rows; // [["nycc", 200, 51.25]]
 * t.columns; // [{ label: "task", digits: 1 }, { label: "n" }, { label: "accuracy", digits: 1 }]
 * ```
 * @module
 */
import type pl from "nodejs-polars";
import type { Cell, ReportTable } from "./document.ts";

/** A frame as a report table (numbers of float columns with `digits` decimals). */
export function tableOf(
  df: pl.DataFrame,
  t: { id?: string; title: string; caption?: string; note?: string; digits?: number },
): ReportTable {
  const records = df.toRecords() as Record<string, unknown>[];
  const cell = (v: unknown): Cell =>
    v === null || v === undefined ? null : typeof v === "number" ? v : String(v);
  return {
    kind: "table",
    ...(t.id ? { id: t.id } : {}),
    title: t.title,
    ...(t.caption ? { caption: t.caption } : {}),
    columns: df.columns.map((label) => ({
      label,
      ...(t.digits !== undefined && !isInteger(df.getColumn(label)) ? { digits: t.digits } : {}),
    })),
    rows: records.map((r) => df.columns.map((c) => cell(r[c]))),
    ...(t.note ? { note: t.note } : {}),
  };
}

/** Whether a column holds integers (a polars integer dtype). */
function isInteger(column: pl.Series): boolean {
  return /^U?Int\d+$/.test(String(column.dtype).replace(/^DataType\((.*)\)$/, "$1"));
}
