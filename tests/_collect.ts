/**
 * Test helper: run a document source on one file and collect what it hands its sink, and
 * compare two sources' outputs (e.g. a gzip file and its plain copy).
 *
 * @example
 * ```ts ignore
 * const path = "tests/fixtures/logs/formats/mcpbr/bbh-sonnet/results.json";
 * const read = collect("mcpbr", path);
 * sameOutput(read, collect("mcpbr", path)); // [] when identical
 * ```
 * @module
 */
import { DEFAULT_LIMITS } from "@runlens/logs/limits.ts";
import { defaultRunName } from "@runlens/logs/paths.ts";
import type { BadRecord, LogRecord } from "@runlens/logs/record.ts";
import { sourceFor } from "@runlens/logs/sources/all.ts";
import { logFormats } from "@runlens/benchmarks/registry.ts";
import type { SourceFile, SourceLimits } from "@runlens/logs/sources/types.ts";

/** What a source handed its sink. */
export interface Collected {
  file: SourceFile;
  records: LogRecord[];
  bad: BadRecord[];
  /** Records and bad records in the order the sink got them (line numbers, bad negated). */
  order: number[];
}

/** The {@link SourceFile} of `path` read as `format` (`name` defaults to the path without `.gz`). */
export function sourceFile(
  path: string,
  format: string,
  opts: { gzip?: boolean; name?: string } = {},
): SourceFile {
  const name = opts.name ?? path.replace(/\.gz$/i, "");
  return {
    id: 0,
    path,
    name,
    format,
    gzip: opts.gzip ?? false,
    defaultRun: defaultRunName(name),
    size: Deno.statSync(path).size,
  };
}

/** Run the document source of `format` (built in or contributed by a benchmark) on `path`. */
export function collect(
  format: string,
  path: string,
  opts: { gzip?: boolean; name?: string; limits?: SourceLimits } = {},
): Collected {
  const file = sourceFile(path, format, opts);
  const out: Collected = { file, records: [], bad: [], order: [] };
  const source = sourceFor({ format, gzip: false }, logFormats());
  if (source?.kind !== "document") throw new Error(`${format} is not a document format`);
  source.read(file, {
    record: (r) => {
      out.records.push(r);
      out.order.push(r.line);
    },
    bad: (b) => {
      out.bad.push(b);
      out.order.push(-b.line);
    },
  }, opts.limits ?? DEFAULT_LIMITS);
  return out;
}

/**
 * The differences between two sources' outputs (e.g. a gzip file and its plain copy):
 * records (all fields but the pointer) and bad records, in order.
 */
export function sameOutput(a: Collected, b: Collected): string[] {
  const strip = (r: LogRecord) => {
    const { pointer: _p, ...rest } = r;
    return rest;
  };
  const out: string[] = [];
  const ra = JSON.stringify(a.records.map(strip));
  const rb = JSON.stringify(b.records.map(strip));
  if (ra !== rb) out.push(`records differ:\n${ra.slice(0, 400)}\n${rb.slice(0, 400)}`);
  if (JSON.stringify(a.bad) !== JSON.stringify(b.bad)) {
    out.push(`bad records differ: ${JSON.stringify(a.bad)} ≠ ${JSON.stringify(b.bad)}`);
  }
  return out;
}
