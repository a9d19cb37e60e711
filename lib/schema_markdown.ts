/**
 * The row schema as a Markdown table (column, polars dtype, meaning), as printed in README.md;
 * a test keeps the README's copy equal to this.
 *
 * @example
 * ```ts
 * import { schemaMarkdown } from "@runlens/schema_markdown.ts";
 * console.log(schemaMarkdown());
 * ```
 * @module
 */
import { ROW_COLUMNS, ROW_DOCS, ROW_SCHEMA } from "./core/schema.ts";

/** `| column | dtype | meaning |` rows for every schema column, in order. */
export function schemaMarkdown(): string {
  const rows = ROW_COLUMNS.map((c) =>
    `| \`${c}\` | ${String(ROW_SCHEMA[c]).replace(/^DataType\((.*)\)$/, "$1")} | ${
      ROW_DOCS[c].replaceAll("|", "\\|")
    } |`
  );
  return ["| column | polars dtype | meaning |", "| --- | --- | --- |", ...rows].join("\n");
}

if (import.meta.main) console.log(schemaMarkdown());
