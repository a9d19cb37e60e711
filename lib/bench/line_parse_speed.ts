/**
 * Issue 26, design (c), "JSON.parse for short lines": the cost per line of the engine's
 * validating byte scanner (`codecs/json_scan.ts`, {@link scanLine}: it validates and records
 * the spans of the values, decoding nothing) against decoding the line and `JSON.parse` (which
 * builds every value), on the first lines of a JSON-lines log, on one thread. The best of
 * `--repeat` passes after one warm-up is reported, in microseconds a line. Measured on the
 * canonical bench log (776 bytes a line): the scanner 0.80 µs, decoding alone 0.58 µs, decoding
 * and `JSON.parse` 1.67 µs — so `JSON.parse` would cost more than the scan it replaces, before
 * the lengths and tails the scanner gives for free (docs/speed.md).
 *
 * @example
 * ```sh
 * deno run --allow-all lib/bench/line_parse_speed.ts .runlens/bench/bench_1000000rows_c330-930_s20250301.jsonl
 * ```
 * @module
 */
import { type Command, countOption, runCommand } from "../core/command.ts";
import { scanLine, Tape } from "../codecs/json_scan.ts";

/** The command line of {@link lineParseSpeedCommand}. */
interface LineParseSpeedArgs {
  path: string;
  lines: number;
  repeat: number;
}

/** `lib/bench/line_parse_speed.ts`. */
export const lineParseSpeedCommand: Command<LineParseSpeedArgs> = {
  name: "line-parse-speed",
  invocation: "deno run --allow-all lib/bench/line_parse_speed.ts",
  summary: "Time the validating byte scanner against TextDecoder + JSON.parse on the first " +
    "lines of a JSON-lines log (issue 26, design (c)).",
  usage: "<file.jsonl> [--lines N] [--repeat K]",
  arguments: { "file.jsonl": "a JSON-lines log" },
  options: {
    lines: { type: "string", value: "N", description: "lines to read", default: "20000" },
    repeat: {
      type: "string",
      value: "K",
      description: "passes after one warm-up (the best is reported)",
      default: "5",
    },
  },
  prints: "One line per way of reading a line: microseconds a line (best pass). Not a test: " +
    "timings depend on the machine.",
  examples: [
    "deno run --allow-all lib/bench/line_parse_speed.ts " +
    ".runlens/bench/bench_1000000rows_c330-930_s20250301.jsonl",
  ],
  failure: "the file cannot be read",
  parse: ({ values, positionals }) => {
    if (positionals.length !== 1) return "give one FILE";
    return {
      path: positionals[0],
      lines: countOption(values, "lines", 20_000),
      repeat: countOption(values, "repeat", 5),
    };
  },
  run: ({ path, lines, repeat }) => {
    const { bytes, ends } = firstLines(path, lines);
    const decoder = new TextDecoder();
    const tape = new Tape();
    const ways: [string, (start: number, end: number) => unknown][] = [
      ["validating byte scanner (scanLine)", (s, e) => scanLine(bytes, s, e, tape)],
      ["TextDecoder + JSON.parse", (s, e) => JSON.parse(decoder.decode(bytes.subarray(s, e)))],
      ["TextDecoder alone", (s, e) => decoder.decode(bytes.subarray(s, e))],
    ];
    console.log(`${ends.length} lines, ${(bytes.length / ends.length).toFixed(0)} bytes a line`);
    for (const [name, read] of ways) {
      console.log(`${name}: ${bestMicros(ends, read, repeat).toFixed(2)} µs a line`);
    }
    return 0;
  },
};

/** The bytes of the first `n` lines of `path` (without the line feeds' positions). */
function firstLines(path: string, n: number): { bytes: Uint8Array; ends: number[] } {
  const file = Deno.openSync(path);
  try {
    const chunks: Uint8Array[] = [];
    let total = 0, count = 0;
    const buf = new Uint8Array(1 << 20);
    for (let got = file.readSync(buf); got !== null && count < n; got = file.readSync(buf)) {
      const chunk = buf.slice(0, got);
      for (const b of chunk) if (b === 10) count++;
      chunks.push(chunk);
      total += got;
    }
    const bytes = new Uint8Array(total);
    chunks.reduce((at, c) => (bytes.set(c, at), at + c.length), 0);
    const ends: number[] = [];
    for (let i = 0; i < bytes.length && ends.length < n; i++) if (bytes[i] === 10) ends.push(i);
    return { bytes, ends };
  } finally {
    file.close();
  }
}

/** The best time of `repeat` passes over every line (after one warm-up), in µs a line. */
function bestMicros(
  ends: readonly number[],
  read: (start: number, end: number) => unknown,
  repeat: number,
): number {
  let best = Infinity;
  for (let pass = 0; pass <= repeat; pass++) {
    const t0 = performance.now();
    for (let i = 0, start = 0; i < ends.length; start = ends[i] + 1, i++) read(start, ends[i]);
    if (pass > 0) best = Math.min(best, (performance.now() - t0) * 1000 / ends.length);
  }
  return best;
}

if (import.meta.main) Deno.exit(await runCommand(lineParseSpeedCommand, Deno.args));
