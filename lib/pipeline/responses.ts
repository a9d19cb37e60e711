/**
 * PLACEHOLDER until the pointer reader lands (helper branch eng-resp): reads `span` pointers
 * of plain files only.
 * @module
 */
import pl from "nodejs-polars";
import { closeSync, openSync, readSync } from "node:fs";
import type { SourceFile } from "../logs/sources/types.ts";

/** Fill `response` from the pointers (span pointers only, for now). */
export function fillResponses(df: pl.DataFrame, _files: readonly SourceFile[]): pl.DataFrame {
  const kinds = df.getColumn("ptr_kind").toArray() as (string | null)[];
  const offsets = df.getColumn("ptr_offset").toArray() as number[];
  const lengths = df.getColumn("ptr_length").toArray() as number[];
  const paths = df.getColumn("source_file").toArray() as string[];
  const dec = new TextDecoder();
  const out = kinds.map((k, i) => {
    if (k !== "span") return null;
    const fd = openSync(paths[i], "r");
    try {
      const buf = new Uint8Array(lengths[i]);
      readSync(fd, buf, 0, lengths[i], offsets[i]);
      return JSON.parse(dec.decode(buf)) as string;
    } finally {
      closeSync(fd);
    }
  });
  return df.withColumns(pl.Series("response", out, pl.Utf8));
}
