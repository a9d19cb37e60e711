/**
 * Expand the paths a user names (files and directories) into the list of run-log files.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findLogFiles } from "@runlens/logs/files.ts";
 * assert.deepEqual(findLogFiles(["tests/fixtures/logs/tree/"]), [
 *   "tests/fixtures/logs/tree/a.jsonl",
 *   "tests/fixtures/logs/tree/sub/b.csv",
 * ]); // sorted; notes.txt is not a run log
 * ```
 * @module
 */
import { join, resolve } from "node:path";
import { cannotRead, CANONICAL_EXTENSIONS } from "./paths.ts";
import { detectFormat } from "./detect.ts";
import type { ReadOptions } from "./read_log.ts";

const BBH_METRICS = /_eval_metrics\.jsonl(\.gz)?$/;

/** Extensions a directory search looks at when `--format` forces a format. */
const FORCED_EXTENSIONS = [".jsonl", ".csv", ".json", ".eval", ".log"];

/**
 * `.jsonl`/`.csv` always (but a BBH release `_eval_metrics.jsonl` beside its outputs); other files (`.json`, `.eval`, `.log`, gzip data) when
 * {@link detectFormat} recognises them, or — with a forced format — when their extension
 * (without `.gz`) is one a log can have.
 */
function isLogFile(name: string, path: string, options: ReadOptions): boolean {
  const lower = name.toLowerCase();
  // the BBH release's published accuracy beside its outputs file is not a log
  if (BBH_METRICS.test(lower)) return detectFormat(path).format !== null;
  if (CANONICAL_EXTENSIONS.some((ext) => lower.endsWith(ext))) return true;
  const inner = lower.replace(/\.gz$/, "");
  if (options.format && options.format !== "auto") {
    return FORCED_EXTENSIONS.some((ext) => inner.endsWith(ext));
  }
  if (!/\.(json|eval|log|gz)$/.test(lower)) return false;
  const found = detectFormat(path);
  if (found.format !== null) return true;
  // a gzip-compressed .jsonl/.csv is a log even when its content is not recognised
  return found.gzip && CANONICAL_EXTENSIONS.some((ext) => inner.endsWith(ext));
}

/**
 * Files named directly are kept as given (the reader rejects other formats); directories
 * are searched recursively for `.jsonl` and `.csv` files and for `.json`/`.eval`/`.log` files
 * and gzip data that are logs of a known format (see `detect.ts`; with `options.format`
 * forced, every file with a log extension), sorted by path. A file reached twice is listed
 * once. Throws `<path>: no such file or directory` for a missing path.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const found = findLogFiles(["tests/fixtures/logs/mixed.csv", "tests/fixtures/logs/bbh/"]);
 * const lmEval = "tests/fixtures/logs/bbh/lm_eval/org__tiny-model";
 * assert.deepEqual(found, [
 *   "tests/fixtures/logs/mixed.csv",
 *   "tests/fixtures/logs/bbh/canonical.jsonl",
 *   `${lmEval}/samples_bbh_cot_fewshot_snarks_2025-01-25T04-48-43.622918.jsonl`,
 * ]); // the lm-eval results_*.json beside the samples file is not a log
 * assert.throws(() => findLogFiles(["no/such/dir"]), /no\/such\/dir: no such file or directory/);
 * ```
 */
export function findLogFiles(paths: readonly string[], options: ReadOptions = {}): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (p: string) => {
    const key = resolve(p);
    if (!seen.has(key)) {
      seen.add(key);
      out.push(p);
    }
  };
  for (const path of paths) {
    let info: Deno.FileInfo;
    try {
      info = Deno.statSync(path);
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) throw new Error(`${path}: no such file or directory`);
      throw cannotRead(path, e);
    }
    if (info.isDirectory) walk(path, options).sort().forEach(add);
    else add(path);
  }
  return out;
}

function walk(dir: string, options: ReadOptions): string[] {
  const found: string[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch (e) {
    throw new Error(`${dir}: cannot read directory (${(e as Error).message})`);
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) found.push(...walk(path, options));
    else if (isLogFile(entry.name, path, options)) found.push(path);
  }
  return found;
}
