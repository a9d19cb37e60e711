/**
 * Differential testing of the streaming path's document sources against today's readers:
 * run both on one file and list every difference in records (line, canonical fields as text,
 * stored verdict, tool extraction) and bad records (line, reason, run).
 *
 * @example
 * ```ts ignore
 * import { DOCUMENT_SOURCES } from "@runlens/logs/sources/documents.ts";
 * import { readMcpbrLog } from "@runlens/logs/mcpbr.ts";
 * const path = "tests/fixtures/logs/formats/mcpbr/bbh-sonnet/results.json";
 * const d = differences(readMcpbrLog(path), collect("mcpbr", path)); // [] when identical
 * ```
 * @module
 */
import { basename } from "node:path";
import { DEFAULT_LIMITS } from "@runlens/logs/limits.ts";
import { defaultRunName } from "@runlens/logs/paths.ts";
import { CANONICAL_FIELDS, type RawLog } from "@runlens/logs/raw.ts";
import { type BadRecord, type LogRecord, textOf } from "@runlens/logs/record.ts";
import { DOCUMENT_SOURCES } from "@runlens/logs/sources/documents.ts";
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

/** Run the document source of `format` on `path`. */
export function collect(
  format: string,
  path: string,
  opts: { gzip?: boolean; name?: string; limits?: SourceLimits } = {},
): Collected {
  const file = sourceFile(path, format, opts);
  const out: Collected = { file, records: [], bad: [], order: [] };
  DOCUMENT_SOURCES[format].read(file, {
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
 * The differences between today's reader output `raw` and a source's `mine` (empty when they
 * agree): records in order, with `run` defaulting to the file's default run on both sides.
 */
export function differences(raw: RawLog, mine: Collected): string[] {
  const out: string[] = [];
  const defaultRun = mine.file.defaultRun;
  const rows = raw.frame.toRecords() as Record<string, unknown>[];
  if (rows.length !== mine.records.length) {
    out.push(`records: today ${rows.length}, source ${mine.records.length}`);
  }
  const where = basename(mine.file.path);
  for (let i = 0; i < Math.min(rows.length, mine.records.length); i++) {
    const t = rows[i];
    const r = mine.records[i];
    if (t.source_line !== r.line) {
      out.push(`${where} record ${i}: line ${t.source_line} ≠ ${r.line}`);
    }
    for (const f of CANONICAL_FIELDS) {
      let today = (t[f] ?? null) as string | null;
      let ours = textOf(r[f]);
      if (f === "run") {
        today ??= defaultRun;
        ours ??= defaultRun;
      }
      if (today !== ours) {
        out.push(`${where} record ${i} (line ${r.line}) ${f}: ${show(today)} ≠ ${show(ours)}`);
      }
    }
    const extra = t.extra ? JSON.parse(t.extra as string) as Record<string, unknown> : {};
    const stored = extra.stored_correct ?? null;
    if (stored !== (r.stored_correct ?? null)) {
      out.push(`${where} record ${i} stored_correct: ${stored} ≠ ${r.stored_correct}`);
    }
    const tool = extra.tool_extracted ?? null;
    if (tool !== (r.tool_extracted ?? null)) {
      out.push(`${where} record ${i} tool_extracted: ${show(tool)} ≠ ${show(r.tool_extracted)}`);
    }
  }
  if (raw.bad.length !== mine.bad.length) {
    out.push(`bad records: today ${raw.bad.length}, source ${mine.bad.length}`);
  }
  for (let i = 0; i < Math.min(raw.bad.length, mine.bad.length); i++) {
    const t = raw.bad[i];
    const b = mine.bad[i];
    if (
      t.line !== b.line || t.reason !== b.reason || (t.run ?? defaultRun) !== (b.run ?? defaultRun)
    ) {
      out.push(`${where} bad ${i}: ${JSON.stringify(t)} ≠ ${JSON.stringify(b)}`);
    }
  }
  if (raw.rowsIn !== mine.records.length + mine.bad.length) {
    out.push(`rowsIn: today ${raw.rowsIn}, source ${mine.records.length + mine.bad.length}`);
  }
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

function show(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 80 ? `${s.slice(0, 77)}…` : s;
}
