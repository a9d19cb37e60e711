/**
 * The options every command that loads run logs shares (`score`, `analyze`, `compare`,
 * `report`): how to read the logs (`--format`, `--map`, `--run-by`, `--benchmark`), which
 * scorer, run names (`--rename`), how many Workers, the readers' limits, `--strict`, the
 * cache, and how much the text lists (`--verbose`, which each command reads itself: it changes
 * no load). One declaration, one parser, so the commands cannot drift apart.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseOptions } from "../core/command.ts";
 * const parsed = parseOptions(["a.jsonl", "--run-by", "folder", "--max-depth", "50", "--strict"],
 *   LOAD_OPTIONS);
 * const opts = loadOptionsOf(parsed.values);
 * assert.deepEqual([opts.runBy, opts.limits, opts.strict], ["folder", { maxDepth: 50 }, true]);
 * assert.equal(opts.cache, true); // commands use the cache unless --no-cache
 * ```
 * @module
 */
import { benchmarks, logFormats, scoredBenchmarks, SCORERS } from "../benchmarks/registry.ts";
import { benchmarksLabel } from "../scorers/types.ts";
import { type Format, formatNames } from "../logs/discover.ts";
import { DEFAULT_LIMITS, LIMIT_FLAGS } from "../logs/limits.ts";
import { type MappableField, parseColumnMap } from "../logs/mapped.ts";
import type { SourceLimits } from "../logs/sources/types.ts";
import type { LoadOptions } from "../pipeline/load.ts";
import { checkScorerArgument } from "../pipeline/scorer_choice.ts";
import { loadableBenchmarks } from "../pipeline/load_plan.ts";
import { compilePattern } from "../scorers/pattern.ts";
import type { RunBy } from "../pipeline/plan.ts";
import { type OptionSpec, type ParsedArgs, UsageError } from "../core/command.ts";
import { count } from "../core/count.ts";
import { joinRenames, parseRenameFile, parseRenamePairs } from "../pipeline/rename_runs.ts";

const RUN_BY: readonly RunBy[] = ["auto", "field", "folder", "file"];

/** The formats `--format` accepts: the built-in ones and those the benchmarks contribute. */
const FORMATS = formatNames(logFormats());

/** The limit flags, each with its default. */
const LIMIT_OPTIONS: Record<string, OptionSpec> = Object.fromEntries(
  (Object.entries(LIMIT_FLAGS) as [keyof SourceLimits, string][]).map(([key, flag]) => [flag, {
    type: "string",
    value: "N",
    description: `reader limit (default ${count(DEFAULT_LIMITS[key])})`,
  }]),
);

/** The shared options, by key. */
export const LOAD_OPTIONS: Record<string, OptionSpec> = {
  format: {
    type: "string",
    value: "F",
    description: `auto (default: detect per file) or one of ${FORMATS.join(", ")}`,
  },
  map: {
    type: "string",
    multiple: true,
    value: "M",
    description: "fields of generic JSONL/CSV logs, over the detected ones: field=<n> " +
      "(0-based column; positions only = CSV without header), field=<name> (column or key; " +
      "JSONL: dotted path), field==<text> (literal), e.g. input=0,response=1,target=2,task==nycc; " +
      "field: a canonical field or a benchmark's record field (repeatable)",
    default: "the fields detected in each file",
  },
  scorer: {
    type: "string",
    multiple: true,
    value: "NAME|FILE",
    description:
      `the scoring rule for every row (default: ${
        scoredBenchmarks().map((b) => `${b.name} ${b.defaultScorer}`).join(", ")
      }):\n` + SCORERS.map((s) => `- ${s.name} (${benchmarksLabel(s)}): ${gist(s)}`).join("\n") +
      "\nor your own rule: the path of a module exporting it (./my_rule.ts; README: " +
      '"Your own scoring rule"); rows and reports carry the name it gives itself; ' +
      "BENCHMARK=NAME: a scorer for that benchmark's rows only (repeatable)",
  },
  "answer-pattern": {
    type: "string",
    value: "REGEX",
    description: "your own rule: the LAST match of REGEX in a response is its answer (the " +
      "first group, else the whole match), matched by the target's type (option letter or " +
      "text, numbers as numbers, words without case); named pattern:REGEX",
    default: "none: the scorer's rule",
  },
  "lm-eval-filter": {
    type: "string",
    value: "NAME",
    description: "lm-eval logs with several filters per response (one line each): the " +
      "filter whose lines are kept and whose stored verdicts are compared (default: the " +
      "scorer's own filter, e.g. lm-eval-strict → strict-match, else each file's first); the " +
      "other filters' lines are quarantined as repeats of the response",
  },
  benchmark: {
    type: "string",
    multiple: true,
    value: "NAME",
    description: `only rows of this benchmark (repeatable; ${
      loadableBenchmarks().map((b) => b.name).join(", ")
    })`,
    default: "every benchmark",
  },
  "run-by": {
    type: "string",
    value: "HOW",
    description: "runs: auto (default: a record's run field, else its model field in " +
      "JSONL/CSV logs, else the folder when it holds one file per task, else the file), " +
      "folder or file (the run field, else the folder or file; model ignored), or field " +
      "(run, else model, in every format)",
  },
  rename: {
    type: "string",
    multiple: true,
    value: "OLD=NEW",
    description: "call run OLD NEW in every output (text, --json, --rows, report, compare's " +
      "pairs), e.g. --rename meta-llama__Llama-3.2-3B-Instruct_2026-01-08T17-20-31.984236=llama-3b; " +
      "repeatable, or pairs separated by commas; never merges runs (a NEW that is another " +
      "run's name is refused)",
    default: "the names the logs give",
  },
  "rename-file": {
    type: "string",
    value: "FILE",
    description: 'renames as a file: a JSON object {"old": "new", …}, or lines old=new or ' +
      "old<TAB>new (for names holding , or =); with --rename too, each run renamed once",
    default: "none",
  },
  verbose: {
    type: "boolean",
    description: "list every file of a run, every file's fields and every quarantined row in " +
      "the text (by default lists longer than 3 are summarised, e.g. 27 files in logs/run/); " +
      "warnings and advice are shown in full either way, and --json is always complete",
  },
  workers: {
    type: "string",
    value: "N",
    description: "scoring Workers (default: one per core; small loads use none)",
  },
  strict: {
    type: "boolean",
    description: "stop at the first file that cannot be read, and exit 1 when most " +
      "answers (> 50%) of a run were not found by the scorer, or when another applicable " +
      "scorer scores clearly more of a task's answers right (rules disagree)",
  },
  cache: {
    type: "string",
    value: "DIR",
    description: "the columnar cache of scored rows (default $RUNLENS_CACHE, else .runlens/cache)",
  },
  "no-cache": { type: "boolean", description: "neither read nor write the cache" },
  ...LIMIT_OPTIONS,
};

/**
 * What a scorer does, in a few words: its description up to the first `: `, `; ` or `. `.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getScorer } from "../benchmarks/registry.ts";
 * assert.equal(gist(getScorer("bbh-release-cot")), "BBH release, chain-of-thought");
 * ```
 */
export function gist(scorer: { description: string }): string {
  return scorer.description.split(/[:;.] /)[0];
}

/** The load options given on the command line; throws {@link UsageError}. */
export function loadOptionsOf(values: ParsedArgs["values"]): LoadOptions {
  const text = (key: string) => values[key] as string | undefined;
  const out: LoadOptions = {};
  const format = text("format");
  if (format !== undefined) {
    if (format !== "auto" && !FORMATS.includes(format)) {
      throw new UsageError(`unknown --format ${format} (auto, ${FORMATS.join(", ")})`);
    }
    out.format = format as Format | "auto";
  }
  const map = values.map as string[] | undefined;
  if (map !== undefined) out.map = usage(() => parseColumnMap(map.join(","), mappableFields()));
  if (out.format?.startsWith("mapped-") && !out.map) {
    throw new UsageError(`--format ${out.format} needs --map`);
  }
  const { scorer, scorers } = scorerOptions(values.scorer as string[] | undefined);
  const pattern = text("answer-pattern");
  if (scorer !== undefined && pattern !== undefined) {
    throw new UsageError(
      "--scorer and --answer-pattern: give one (a pattern is a rule of its own)",
    );
  }
  if (scorer !== undefined) out.scorer = usage(() => (checkScorerArgument(scorer), scorer));
  if (scorers !== undefined) out.scorers = scorers;
  if (pattern !== undefined) {
    out.answerPattern = usage(() => (compilePattern(pattern, "--answer-pattern"), pattern));
  }
  if (text("lm-eval-filter") !== undefined) out.lmEvalFilter = text("lm-eval-filter");
  const benchmarks = values.benchmark as string[] | undefined;
  if (benchmarks) out.benchmarks = benchmarks.map(checkBenchmark);
  const runBy = text("run-by");
  if (runBy !== undefined) {
    if (!(RUN_BY as readonly string[]).includes(runBy)) {
      throw new UsageError(`--run-by ${runBy}: one of ${RUN_BY.join(", ")}`);
    }
    out.runBy = runBy as RunBy;
  }
  const rename = renamesOf(values);
  if (rename.size > 0) out.rename = rename;
  const workers = text("workers");
  if (workers !== undefined) out.workers = positiveInt("--workers", workers);
  if (values.strict === true) out.strict = true;
  if (values["no-cache"] === true && text("cache") !== undefined) {
    throw new UsageError("--cache and --no-cache contradict each other");
  }
  out.cache = values["no-cache"] === true ? false : text("cache") ?? true;
  const limits = limitsOf(values);
  if (Object.keys(limits).length > 0) out.limits = limits;
  return out;
}

/**
 * The `--scorer` values: at most one for every benchmark (a name or a module path), and
 * `BENCHMARK=NAME` items for one benchmark each (a registered benchmark's name before the `=`;
 * `load_plan.ts` checks the rest). Throws {@link UsageError}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(scorerOptions(["stored", "bbh=lm-eval-strict"]),
 *   { scorer: "stored", scorers: { bbh: "lm-eval-strict" } });
 * assert.throws(() => scorerOptions(["stored", "lenient"]), /one --scorer for every benchmark/);
 * ```
 */
export function scorerOptions(
  items: readonly string[] | undefined,
): { scorer?: string; scorers?: Record<string, string> } {
  let scorer: string | undefined;
  let scorers: Record<string, string> | undefined;
  for (const item of items ?? []) {
    const eq = item.indexOf("=");
    const name = eq > 0 ? item.slice(0, eq).trim().toLowerCase() : "";
    if (eq > 0 && benchmarks().some((b) => b.name === name)) {
      if (scorers?.[name] !== undefined) throw new UsageError(`--scorer gives ${name} twice`);
      (scorers ??= {})[name] = item.slice(eq + 1).trim();
    } else if (scorer !== undefined) {
      throw new UsageError(
        `--scorer ${scorer} and --scorer ${item}: one --scorer for every benchmark ` +
          "(BENCHMARK=NAME chooses one benchmark's)",
      );
    } else scorer = item;
  }
  return { ...scorer !== undefined ? { scorer } : {}, ...scorers ? { scorers } : {} };
}

/**
 * The renames of `--rename-file` and `--rename` (`rename_runs.ts`); throws {@link UsageError}
 * (a malformed pair, a file that cannot be read, a run renamed twice).
 */
function renamesOf(values: ParsedArgs["values"]): Map<string, string> {
  const file = values["rename-file"] as string | undefined;
  let fromFile = new Map<string, string>();
  if (file !== undefined) {
    let text: string;
    try {
      text = Deno.readTextFileSync(file);
    } catch (e) {
      throw new UsageError(`--rename-file ${file}: cannot be read (${(e as Error).message})`);
    }
    fromFile = parseRenameFile(text, file);
  }
  return joinRenames(fromFile, parseRenamePairs((values.rename as string[] | undefined) ?? []));
}

/** Every registered benchmark's record fields, which `--map` accepts besides the canonical ones. */
function mappableFields(): MappableField[] {
  return benchmarks().flatMap((b) => b.recordFields ?? []);
}

/** A registered benchmark runlens loads; else a usage error naming them. */
function checkBenchmark(name: string): string {
  const names = loadableBenchmarks().map((b) => b.name);
  if (!names.includes(name)) {
    throw new UsageError(`--benchmark ${name}: one of ${names.join(", ")}`);
  }
  return name;
}

/** The limit flags given. */
function limitsOf(values: ParsedArgs["values"]): Partial<SourceLimits> {
  const out: Partial<SourceLimits> = {};
  for (const [key, flag] of Object.entries(LIMIT_FLAGS) as [keyof SourceLimits, string][]) {
    const v = values[flag] as string | undefined;
    if (v !== undefined) out[key] = positiveInt(`--${flag}`, v);
  }
  return out;
}

function positiveInt(flag: string, text: string): number {
  const n = Number(text.replaceAll("_", ""));
  if (!Number.isSafeInteger(n) || n <= 0) {
    throw new UsageError(`${flag} ${text}: a positive whole number`);
  }
  return n;
}

/** Run `f`; its error becomes a {@link UsageError} with the same message. */
function usage<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}
