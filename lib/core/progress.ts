/**
 * A one-line progress display for long loads (files read, rows read, rows scored), drawn on
 * stderr only when stderr is a terminal: nothing reaches CI logs, pipes or files.
 *
 * Hand-written on purpose (issue 25, item 5): cli-progress 3.12.0, the npm progress bar, runs
 * under Deno but draws one `{bar} {value}/{total}` template on a Node stream; the loaders'
 * free-text phases ("scoring 12,345 rows") and the row count between files would need an
 * adapter about as long as this module's drawing code (40 lines, whose output the doc test
 * checks byte for byte), plus its dependency string-width.
 *
 * @example
 * ```ts
 * import { terminalProgress } from "@runlens/core/progress.ts";
 * const progress = terminalProgress(); // draws only when stderr is a terminal
 * progress.file(0, 3, "a.jsonl");
 * progress.rows(5000);
 * progress.done();
 * ```
 * @module
 */
import { count } from "./count.ts";

/** What a loader reports while it works. */
export interface Progress {
  /** Reading file `index` (0-based) of `total`. */
  file(index: number, total: number, name: string): void;
  /** `n` more rows read. */
  rows(n: number): void;
  /** A later phase, e.g. "scoring 12,345 rows". */
  phase(label: string): void;
  /** Erase the line. */
  done(): void;
}

/** A progress that shows nothing (tests, notebooks, non-terminals). */
export const NO_PROGRESS: Progress = {
  file: () => {},
  rows: () => {},
  phase: () => {},
  done: () => {},
};

/** Options of {@link terminalProgress}. */
export interface ProgressOptions {
  /** Force on or off; default: on iff stderr is a terminal. */
  enabled?: boolean;
  /** Where the line goes (default: stderr). */
  write?: (text: string) => void;
  /** Minimum milliseconds between redraws (default 100). */
  interval?: number;
}

const BAR = 20;

/**
 * The terminal progress line, or {@link NO_PROGRESS} when stderr is not a terminal.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const lines: string[] = [];
 * const p = terminalProgress({ enabled: true, write: (t) => lines.push(t), interval: 0 });
 * p.file(1, 4, "b.jsonl");
 * assert.equal(lines[0], "\r\x1b[Kreading [##########..........] 2/4 files, 0 rows  b.jsonl");
 * ```
 */
export function terminalProgress(options: ProgressOptions = {}): Progress {
  const enabled = options.enabled ?? isTerminal();
  if (!enabled) return NO_PROGRESS;
  const encoder = new TextEncoder();
  const write = options.write ?? ((t: string) => Deno.stderr.writeSync(encoder.encode(t)));
  const interval = options.interval ?? 100;
  let last = -Infinity;
  let shown = false;
  let files = { index: 0, total: 0, name: "" };
  let rows = 0;
  const draw = (line: string, force = false) => {
    const now = Date.now();
    if (!force && now - last < interval) return;
    last = now;
    shown = true;
    write(`\r\x1b[K${line}`);
  };
  const reading = () => {
    const filled = files.total === 0 ? 0 : Math.round(BAR * (files.index + 1) / files.total);
    return `reading [${"#".repeat(filled)}${".".repeat(BAR - filled)}] ` +
      `${files.index + 1}/${files.total} files, ${count(rows)} rows  ${files.name}`;
  };
  return {
    file(index, total, name) {
      files = { index, total, name };
      draw(reading(), true);
    },
    rows(n) {
      rows += n;
      draw(reading());
    },
    phase(label) {
      draw(label, true);
    },
    done() {
      if (shown) write("\r\x1b[K");
      shown = false;
    },
  };
}

function isTerminal(): boolean {
  try {
    return Deno.stderr.isTerminal();
  } catch {
    return false;
  }
}
