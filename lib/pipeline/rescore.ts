/**
 * Score loaded runs again with another rule — your own (`defineScorer`, `scorers/define.ts`)
 * or a registered one — in one call, {@link rescore}: every scored row gets the rule's
 * `extracted`, `correct` and `scorer` (and whether it found an answer, where the rows say so),
 * and the summaries are computed again from them exactly as a load computes them. The result
 * is a {@link LoadedRuns} like any other: `runsText`, `compareRuns`, `buildReport` and the
 * notebooks' tables show the rule's numbers under its name.
 *
 * The responses are read back from the logs when the rows do not hold them (a load with
 * `responses: false`), a part at a time, and the examples' texts joined when the rows lack
 * them; the rows come back as they were but for the verdicts. A row the rule gives no verdict
 * (a whole `score` that returns `correct: null`) is quarantined, as a load quarantines it. Rows
 * quarantined by the load stay quarantined: to score rows the first rule could not, load with
 * the rule (`loadRuns(paths, dataDir, { scorer: "./my_rule.ts" })`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * import { defineScorer } from "@runlens/scorers/define.ts";
 * const loaded = await loadRuns(["tests/fixtures/logs/bbh/canonical.jsonl"], resolveDataDir());
 * // "… So the answer is (B)." → "(B)", matched by the target's type
 * const mine = defineScorer({ name: "after-is", extract: (r) => r.split(" is ").at(-1) ?? null });
 * const again = rescore(loaded, mine);
 * assert.deepEqual(again.runs.map((r) => r.scorer), ["after-is"]);
 * assert.deepEqual(again.rows.getColumn("scorer").toArray().slice(0, 1), ["after-is"]);
 * assert.equal(again.runs[0].rows_in, loaded.runs[0].rows_in); // every row still counted
 * assert.equal(loaded.runs[0].scorer, "bbh-release-cot"); // the load itself is unchanged
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { SCORERS } from "../benchmarks/registry.ts";
import type { DataSetsView } from "../benchmarks/types.ts";
import { distinctValues } from "../core/frames.ts";
import { sortQuarantine } from "../logs/quarantine.ts";
import { defineScorer, type ScorerDefinition } from "../scorers/define.ts";
import { scoreFrame } from "../scorers/frame.ts";
import { appliesTo, type Scorer } from "../scorers/types.ts";
import { adviseRuns } from "./advice.ts";
import type { LoadedRuns } from "./load.ts";
import { responses as readBack } from "./responses.ts";
import { withExamples } from "./rows_frame.ts";
import { noVerdict } from "./score_unit.ts";
import { checkUserRule, ScorerChoiceError } from "./scorer_choice.ts";
import { checkScorerFits } from "./load_plan.ts";
import { type CountedQuarantine, summariseRuns } from "./summarise.ts";

/** Rows read back and scored at a time (their response texts are dropped after each part). */
export const RESCORE_PART_ROWS = 50_000;

/** The columns a rule sets, in row-schema order (`answer_found` where the rows have it). */
const VERDICT_COLUMNS = ["extracted", "correct", "answer_found", "scorer"];

/**
 * `loaded` scored again with `scorer` (a scorer, or a definition for `defineScorer`). Throws
 * {@link ScorerChoiceError} when the rule is not one, takes a built-in scorer's name, or does
 * not apply to a benchmark of the rows, and when `loaded` did not come from `loadRuns`.
 */
export function rescore(loaded: LoadedRuns, scorer: Scorer | ScorerDefinition): LoadedRuns {
  const rule = checkedRule(scorer);
  const basis = loaded.basis;
  if (!basis) throw new ScorerChoiceError("rescore: these runs did not come from loadRuns");
  const tied = new Set([
    ...distinctValues(loaded.rows, "benchmark") as string[],
    ...basis.summary.quarantined.flatMap((q) => q.benchmark === null ? [] : [q.benchmark]),
  ]);
  checkScorerFits(rule, tied);
  const data = loaded.dataSets ?? basis.dataDir;
  const scored = verdicts(loaded, rule, data);
  const none = scored.getColumn("correct").isNull();
  const dropped = scored.filter(none);
  const rows = none.any() ? scored.filter(none.not()) : scored;
  const added = quarantined(dropped, rule.name);
  const previous = new Map(loaded.runs.map((r) => [r.benchmark, r.scorer]));
  const quarantine = [...basis.summary.quarantined, ...added];
  const runs = summariseRuns({
    ...basis.summary,
    quarantined: quarantine,
    scored: rows,
    scorerOf: (b) => appliesTo(rule, b) ? rule.name : previous.get(b) ?? "",
  });
  return {
    ...loaded,
    rows,
    runs,
    // the advice of the load was about its rule: it is weighed again for this one
    advice: adviseRuns({
      runs,
      rows,
      sources: loaded.sources,
      dataDir: basis.dataDir,
      dataSets: loaded.dataSets,
    }),
    quarantine: sortQuarantine([
      ...loaded.quarantine,
      ...added.map(({ file, line, reason }) => ({ file, line, reason })),
    ]),
    basis: { ...basis, summary: { ...basis.summary, quarantined: quarantine } },
  };
}

/** A registered scorer as it is; anything else through `defineScorer`, checked as a user's. */
function checkedRule(scorer: Scorer | ScorerDefinition): Scorer {
  if ((SCORERS as readonly unknown[]).includes(scorer)) return scorer as Scorer;
  let rule: Scorer;
  try {
    rule = defineScorer(scorer as ScorerDefinition);
  } catch (e) {
    throw new ScorerChoiceError(`rescore: ${(e as Error).message}`);
  }
  checkUserRule(rule, `scorer ${rule.name}`);
  return rule;
}

/** The rows with the rule's verdicts, scored a part at a time. */
function verdicts(loaded: LoadedRuns, rule: Scorer, data: string | DataSetsView): pl.DataFrame {
  const rows = loaded.rows;
  const set = VERDICT_COLUMNS.filter((c) => rows.columns.includes(c));
  const parts: pl.DataFrame[] = [];
  for (let at = 0; at < rows.height || at === 0; at += RESCORE_PART_ROWS) {
    const part = rows.slice(at, RESCORE_PART_ROWS);
    const scored = scoreFrame(withTexts(part, loaded, data), rule);
    parts.push(scored.select(...set.filter((c) => scored.columns.includes(c))));
  }
  const verdict = parts.length === 1 ? parts[0] : pl.concat(parts, { how: "vertical" });
  return rows.withColumns(...verdict.getColumns());
}

/** A part of the rows with its responses and its examples' texts (read when missing). */
function withTexts(
  part: pl.DataFrame,
  loaded: LoadedRuns,
  data: string | DataSetsView,
): pl.DataFrame {
  if (part.height === 0) return part;
  let out = part;
  if (out.getColumn("response").nullCount() > 0) out = readBack(out, loaded.sources);
  if (out.getColumn("target").nullCount() > 0) out = withExamples(out, data);
  return out;
}

/** The rows the rule gave no verdict, as quarantine entries. */
function quarantined(rows: pl.DataFrame, scorer: string): CountedQuarantine[] {
  if (rows.height === 0) return [];
  const records = rows.select(
    "source_file",
    "source_line",
    "run",
    "benchmark",
    "task",
    "example_index",
  )
    .toRecords() as {
      source_file: string;
      source_line: number;
      run: string;
      benchmark: string;
      task: string;
      example_index: number;
    }[];
  return records.map((r) => ({
    file: r.source_file,
    line: r.source_line,
    reason: noVerdict(scorer, r.task, r.example_index),
    run: r.run,
    benchmark: r.benchmark,
  }));
}
