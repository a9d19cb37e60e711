/**
 * A polars frame as a report table: its columns in order, numbers with `digits` decimals,
 * booleans as text.
 *
 * @example
 * ```ts
 * import pl from "nodejs-polars";
 * const t = tableOf(pl.DataFrame({ task: ["nycc"], accuracy: [51.25] }), { title: "Accuracy", digits: 1 });
 * t.rows; // [["nycc", 51.25]]
 * ```
 * @module
 */
import type pl from "nodejs-polars";
import type { Cell, ReportTable } from "./document.ts";

/** A frame as a report table (numbers with `digits` decimals). */
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
      ...(t.digits !== undefined ? { digits: t.digits } : {}),
    })),
    rows: records.map((r) => df.columns.map((c) => cell(r[c]))),
    ...(t.note ? { note: t.note } : {}),
  };
}
