/**
 * Speed of reading responses back from pointers (`lib/pipeline/responses.ts`, issue 13 item
 * 2: "a notebook that filters 50 failures reads 50 responses"). Generates (or reuses) a
 * canonical JSONL log of `--mb` MB (`generate.ts`, under `.runlens/bench/`) and its gzip copy,
 * reads the log once through its source to draw `--n` records at random (seeded reservoir),
 * then times reading their responses back:
 * - `span`: positional reads of the plain file (cold: the file's pages dropped from the page
 *   cache first with `posix_fadvise`, when Python is there; warm: the best of 5);
 * - `responses(df)`: the same rows as a polars frame, the column filled;
 * - `gz-span`: one inflate pass over the gzip copy, stopped after the last pointer (rows over
 *   the whole file, and rows in its first 5 %);
 * - `none`: the file read again through its source, matched by line (what CSV and
 *   document rows cost), rows over the whole file and in its first 5 %.
 * Every text read is checked against the source's text. Prints a Markdown table. Not a test:
 * timings depend on the machine.
 *
 * @example
 * ```sh
 * deno run --allow-all lib/bench/responses_speed.ts --mb 1000 --n 50
 * ```
 * @module
 */
import { createReadStream, createWriteStream, existsSync, statSync } from "node:fs";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import pl from "nodejs-polars";
import { mulberry32 } from "../core/rng.ts";
import { DEFAULT_LIMITS } from "../logs/limits.ts";
import { type LogRecord, textOf } from "../logs/record.ts";
import { jsonlSource } from "../logs/sources/jsonl.ts";
import type { SourceFile } from "../logs/sources/types.ts";
import { readResponses, type ResponseRef, responses } from "../pipeline/responses.ts";
import { type Command, countOption, runCommand } from "../core/command.ts";
import {
  GENERATE_OPTIONS,
  generateLog,
  type GenerateOptions,
  generateOptionsOf,
} from "./generate.ts";

/** One drawn record: its pointer and the source's text. */
interface Drawn {
  ref: ResponseRef;
  text: string;
}

/** Read `file` through its source, keeping `n` records drawn uniformly (reservoir). */
function draw(file: SourceFile, n: number, seed: number): { drawn: Drawn[]; rows: number } {
  const rnd = mulberry32(seed);
  const drawn: Drawn[] = [];
  let rows = 0;
  const keep = (r: LogRecord): Drawn => ({
    ref: {
      file: file.path,
      format: file.format,
      gzip: false,
      kind: r.pointer!.kind,
      offset: r.pointer!.offset,
      length: r.pointer!.length,
      member: null,
      line: r.line,
      epoch: 1,
    },
    text: textOf(r.response)!,
  });
  const sink = {
    record: (r: LogRecord) => {
      rows++;
      if (drawn.length < n) drawn.push(keep(r));
      else {
        const j = Math.floor(rnd() * rows);
        if (j < n) drawn[j] = keep(r);
      }
    },
    bad: () => {},
  };
  jsonlSource.readRange(file, 0, file.size, sink, DEFAULT_LIMITS);
  return { drawn: drawn.sort((a, b) => a.ref.line - b.ref.line), rows };
}

/** Drop the file's pages from the page cache (Python's posix_fadvise); false if it cannot. */
function dropCache(path: string): boolean {
  const code = "import os,sys\nfd=os.open(sys.argv[1],os.O_RDONLY)\n" +
    "os.posix_fadvise(fd,0,0,os.POSIX_FADV_DONTNEED)";
  try {
    return new Deno.Command("python3", { args: ["-c", code, path] }).outputSync().success;
  } catch {
    return false;
  }
}

/** Milliseconds of `fn` (the best of `repeat` runs) and its result. */
function time<T>(fn: () => T, repeat = 1): { ms: number; value: T } {
  let best = Infinity;
  let value!: T;
  for (let k = 0; k < repeat; k++) {
    const t0 = performance.now();
    value = fn();
    best = Math.min(best, performance.now() - t0);
  }
  return { ms: best, value };
}

/** Throw unless `got` are the drawn texts. */
function check(what: string, got: (string | null)[], drawn: Drawn[]): void {
  const bad = drawn.findIndex((d, i) => got[i] !== d.text);
  if (bad >= 0) throw new Error(`${what}: response of line ${drawn[bad].ref.line} differs`);
}

/** The gzip copy of `path` (made once). */
async function gzipCopy(path: string): Promise<string> {
  const gz = `${path}.gz`;
  if (!existsSync(gz) || statSync(gz).mtimeMs < statSync(path).mtimeMs) {
    await pipeline(createReadStream(path), createGzip({ level: 6 }), createWriteStream(gz));
  }
  return gz;
}

/** The generator's options but `--format` (the log is canonical JSONL). */
const { format: _format, ...GENERATED } = GENERATE_OPTIONS;

/** The command line of {@link responsesSpeedCommand}. */
interface ResponsesSpeedArgs {
  n: number;
  given: string | null;
  gen: GenerateOptions;
}

/** `lib/bench/responses_speed.ts`. */
export const responsesSpeedCommand: Command<ResponsesSpeedArgs> = {
  name: "responses-speed",
  invocation: "deno run --allow-all lib/bench/responses_speed.ts",
  summary: "Time reading N responses back from their pointers (plain file, gzip copy, source " +
    "re-read) in a generated canonical JSONL log.",
  usage: "[--mb N] [--n K] [--seed S] [--data DIR] [--file PATH]",
  options: {
    ...GENERATED,
    n: { type: "string", value: "K", description: "responses to read back", default: "50" },
    file: {
      type: "string",
      value: "PATH",
      description: "a canonical JSONL log to use instead of the generated one",
      default: "the generated log",
    },
  },
  prints: "Each read's time on stderr as it is measured, then the log's size and a Markdown " +
    "table of the reads. Not a test: timings depend on the machine.",
  examples: ["deno run --allow-all lib/bench/responses_speed.ts --mb 1000 --n 50"],
  failure: "a response read back differs from the source's text, or a file cannot be read",
  parse: ({ values, positionals }) => {
    if (positionals.length > 0) return `unexpected argument ${positionals[0]}`;
    return {
      n: countOption(values, "n", 50),
      given: (values.file as string | undefined) ?? null,
      gen: generateOptionsOf({ ...values, format: "canonical" }),
    };
  },
  run: async ({ n, given, gen }) => {
    const path = given ?? gen.out;
    if (!existsSync(path)) {
      console.error(`generating ${gen.mb} MB → ${path}`);
      await generateLog(gen);
    }
    const gz = await gzipCopy(path);
    const size = statSync(path).size;
    const file: SourceFile = {
      id: 0,
      path,
      name: path,
      format: "canonical-jsonl",
      gzip: false,
      defaultRun: "bench",
      size,
    };
    const read = time(() => draw(file, n, gen.seed));
    const { drawn, rows } = read.value;
    const refs = drawn.map((d) => d.ref);
    const early = draw({ ...file, size: Math.floor(size / 20) }, n, gen.seed + 1).drawn;
    const files = { [path]: file, [gz]: { ...file, path: gz, gzip: true } };
    const gzRefs = (ds: Drawn[]) =>
      ds.map((d) => ({ ...d.ref, file: gz, gzip: true, kind: "gz-span" }));
    const none = (ds: Drawn[]) => ds.map((d) => ({ ...d.ref, kind: "none" }));
    const results: [string, number][] = [];
    const measure = (label: string, ds: Drawn[], fn: () => (string | null)[], repeat = 1) => {
      const t = time(fn, repeat);
      check(label, t.value, ds);
      results.push([label, t.ms]);
      console.error(`${label}: ${t.ms.toFixed(1)} ms`);
    };
    const cold = dropCache(path);
    measure(`span, ${cold ? "cold page cache" : "first read"}`, drawn, () => readResponses(refs));
    measure("span, warm (best of 5)", drawn, () => readResponses(refs), 5);
    const df = pl.DataFrame({
      source_file: refs.map((r) => r.file),
      source_line: refs.map((r) => r.line),
      ptr_kind: refs.map((r) => r.kind),
      ptr_offset: refs.map((r) => r.offset),
      ptr_length: refs.map((r) => r.length),
    });
    measure(
      "responses(df), warm (best of 5)",
      drawn,
      () => responses(df, files).getColumn("response").toArray() as string[],
      5,
    );
    measure("gz-span, rows over the whole file", drawn, () => readResponses(gzRefs(drawn)));
    measure("gz-span, rows in the first 5 %", early, () => readResponses(gzRefs(early)));
    measure(
      "none (source re-read), rows in the first 5 %",
      early,
      () => readResponses(none(early), { files }),
    );
    measure(
      "none (source re-read), rows over the whole file",
      drawn,
      () => readResponses(none(drawn), { files }),
    );
    const mb = (x: number) => (x / 1e6).toFixed(0);
    console.log(
      `\n${n} responses of ${rows.toLocaleString("en-US")} rows, ${mb(size)} MB JSONL ` +
        `(${mb(statSync(gz).size)} MB gzip); reading the whole log through its source: ` +
        `${(read.ms / 1000).toFixed(2)} s\n`,
    );
    console.log("| read | ms |\n| --- | ---: |");
    for (const [label, ms] of results) console.log(`| ${label} | ${ms.toFixed(1)} |`);
    return 0;
  },
};

if (import.meta.main) Deno.exit(await runCommand(responsesSpeedCommand, Deno.args));
