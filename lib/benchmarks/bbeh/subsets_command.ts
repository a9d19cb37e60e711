/**
 * `runlens subsets`: how many BBEH examples fall in each subset inside each task.
 *
 * `deno task runlens subsets [--data DIR] [--mini] [--json]` prints one line per
 * task/kind/label with the full-set count and the BBEH Mini count; `--json` prints the
 * envelope of `command.ts` with `subsets: {task: {kind: {label: n}}}` (full set, or Mini with
 * `--mini`).
 *
 * @example
 * ```sh
 * deno task runlens subsets --data ../shared/data
 * deno task runlens subsets --json --mini
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { DATA_OPTION, resolveDataDir } from "../../core/data_dir.ts";
import { loadBbehDataset } from "./dataset.ts";
import { bbehSubsets, ruleLabels, SUBSET_RULES } from "./subsets.ts";
import { jsonEnvelope, UsageError } from "../../core/command.ts";
import type { BenchmarkCommand } from "../types.ts";

/** Counts per task → kind → label, labels in their documented order. */
export type SubsetCounts = Record<string, Record<string, Record<string, number>>>;

/**
 * Count the labels of a subsets frame (from `bbehSubsets`), keeping every documented label
 * (0 when absent) in rule order.
 *
 * @example
 * ```ts
 * import { loadBbehDataset } from "@runlens/benchmarks/bbeh/dataset.ts";
 * import { bbehSubsets } from "@runlens/benchmarks/bbeh/subsets.ts";
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const ds = loadBbehDataset(resolveDataDir());
 * const counts = countSubsets(bbehSubsets(ds));
 * assert.deepEqual(counts.web_of_lies.variant, { livebench: 40, cyclic: 160 });
 * ```
 */
export function countSubsets(subsets: pl.DataFrame): SubsetCounts {
  const grouped = subsets.groupBy(["task", "subset_kind", "subset"]).agg(pl.len().alias("n"));
  const n = new Map<string, number>();
  for (const r of grouped.toRecords()) {
    n.set(`${r.task}\u0000${r.subset_kind}\u0000${r.subset}`, Number(r.n));
  }
  const tasks = new Set(subsets.getColumn("task").toArray() as string[]);
  const out: SubsetCounts = {};
  for (const rule of SUBSET_RULES) {
    if (!tasks.has(rule.task)) continue;
    const byLabel: Record<string, number> = {};
    for (const label of ruleLabels(rule)) {
      byLabel[label] = n.get(`${rule.task}\u0000${rule.kind}\u0000${label}`) ?? 0;
    }
    (out[rule.task] ??= {})[rule.kind] = byLabel;
  }
  return out;
}

function table(full: SubsetCounts, mini: SubsetCounts): string {
  const lines = [["task", "kind", "subset", "full", "mini"]];
  for (const [task, kinds] of Object.entries(full)) {
    for (const [kind, labels] of Object.entries(kinds)) {
      for (const [label, count] of Object.entries(labels)) {
        lines.push([task, kind, label, String(count), String(mini[task]?.[kind]?.[label] ?? 0)]);
      }
    }
  }
  const widths = lines[0].map((_, i) => Math.max(...lines.map((l) => l[i].length)));
  return lines
    .map((l) => l.map((cell, i) => (i >= 3 ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))))
    .map((l) => l.join("  ").trimEnd())
    .join("\n");
}

/** Parsed `subsets` arguments. */
interface SubsetsArgs {
  data: string | null;
  json: boolean;
  mini: boolean;
}

/** `runlens subsets`, a command of BBEH (`Benchmark.commands`). */
export const command: BenchmarkCommand<SubsetsArgs> = {
  name: "subsets",
  logs: "none",
  summary: "Count the inferred BBEH subset labels per task, in the full set and in BBEH Mini.",
  usage: "[--data DIR] [--mini] [--json]",
  options: {
    data: DATA_OPTION,
    json: { type: "boolean", description: "print the JSON report instead of the table" },
    mini: { type: "boolean", description: "with --json: the BBEH Mini counts, not the full set's" },
  },
  prints: "One line per task, kind and subset label with its count in the full set and in " +
    "BBEH Mini.\n" +
    "With --json: the envelope (command, runs, quarantine and errors empty) with subsets: " +
    "{task: {kind: {label: n}}}.",
  examples: [
    "deno task runlens subsets --data ../shared/data",
    "deno task runlens subsets --json --mini",
  ],
  failure: "the BBEH data set is missing or cannot be read",
  parse: ({ values, positionals }) => {
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
    return {
      data: (values.data as string | undefined) ?? null,
      json: values.json === true,
      mini: values.mini === true,
    };
  },
  run: runSubsets,
};

function runSubsets(args: SubsetsArgs): number {
  const dataset = loadBbehDataset(resolveDataDir(args.data));
  const subsets = bbehSubsets(dataset);
  const inMini = subsets.join(
    dataset.filter(pl.col("in_mini")).select(
      pl.col("task"),
      pl.col("example_index").cast(pl.Int32),
    ),
    { on: ["task", "example_index"], how: "inner" },
  );
  const full = countSubsets(subsets);
  const mini = countSubsets(inMini);
  if (args.json) {
    const counts = args.mini ? mini : full;
    console.log(
      JSON.stringify(jsonEnvelope("subsets", { runs: [] }, { subsets: counts }), null, 2),
    );
  } else console.log(table(full, mini));
  return 0;
}
