/**
 * The SYNTHETIC run generator: the official scorer's accuracy on the generated logs equals the
 * planted accuracy exactly, and every failure-mode analysis recovers its planted count exactly.
 *
 * @module
 */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { dataTest } from "./_data.ts";
import { loadBbehDataset } from "@runlens/benchmarks/bbeh/dataset.ts";
import { loadRuns } from "@runlens/pipeline/load.ts";
import { bbehToBbmMap } from "@runlens/benchmarks/bbeh/bbm_link.ts";
import { loadBbmDataset } from "@runlens/benchmarks/bbm/dataset.ts";
import { BBEH_TASKS } from "@runlens/benchmarks/bbeh/tasks.ts";
import {
  generateSyntheticRuns,
  planFrame,
  writeSyntheticLogs,
} from "@runlens/benchmarks/bbeh/synthetic/generate.ts";
import type { SyntheticModelSpec } from "@runlens/benchmarks/bbeh/synthetic/spec.ts";
import { pickExactly, rng } from "@runlens/benchmarks/bbeh/synthetic/rng.ts";
import { failureAnalyses, failureSummary } from "@runlens/benchmarks/bbeh/failure/summary.ts";
import { shareOf } from "@runlens/benchmarks/bbeh/failure/shares.ts";
import { hyperbatonOptions } from "@runlens/benchmarks/bbeh/failure/hyperbaton.ts";
import { subsetsOfRows } from "@runlens/benchmarks/bbeh/failure/subset_accuracy.ts";

Deno.test("pickExactly picks exactly k, deterministically", () => {
  const a = pickExactly(rng(5), [...Array(100).keys()], 37);
  assert.equal(a.length, 37);
  assert.equal(new Set(a).size, 37);
  assert.deepEqual(a, pickExactly(rng(5), [...Array(100).keys()], 37));
  assert.throws(() => pickExactly(rng(5), [1, 2], 3));
});

const CORRECT = Object.fromEntries(BBEH_TASKS.map((t, i) => [t.name, 20 + 3 * i]));

const PLANTED: SyntheticModelSpec = {
  model: "planted-a",
  correct: { ...CORRECT, zebra_puzzles: 60, causal_understanding: 70 },
  noAnswer: { boardgame_qa: 10, shuffled_objects: 30, nycc: 12 },
  degenerate: { shuffled_objects: 20 },
  boardgame: { unknownPredictions: 120 },
  objectCounting: { over: 60, under: 40 },
  objectProperties: { undetermined: 70 },
  mistakeFinding: {
    dyck_languages: { early: 20, late: 60 },
    word_sorting: { early: 5, late: 10 },
  },
  wordSorting: { englishSort: 20 },
  hyperbaton: { englishPicks: 30 },
  webOfLies: { flipLast: 50 },
  temporal: { longestOnly: 40 },
  strata: {
    zebra_puzzles: { by: "subset:size", correct: { "5x5": 30, "6x6": 10, "7x7": 15, "8x8": 5 } },
    causal_understanding: {
      by: "causal",
      correct: {
        "causal_judgement/Yes": 40,
        "causal_judgement/No": 10,
        "causal_judgement/Ambiguous": 2,
        necessary: 12,
        sufficient: 6,
      },
    },
  },
  verbosity: 1.5,
};

const SECOND: SyntheticModelSpec = {
  model: "planted-b synthetic",
  correct: Object.fromEntries(BBEH_TASKS.map((t) => [t.name, Math.floor(t.size / 2)])),
  boardgame: { unknownPredictions: 40 },
  objectCounting: { over: 10, under: 80 },
};

dataTest(
  "synthetic logs: official accuracy and every planted rate are recovered exactly",
  async (dir) => {
    const dataset = loadBbehDataset(dir);
    const runs = generateSyntheticRuns(dataset, [PLANTED, SECOND], 11);
    assert.deepEqual(runs.map((r) => r.model), ["planted-a (synthetic)", "planted-b synthetic"]);
    const again = generateSyntheticRuns(dataset, [PLANTED], 11);
    assert.equal(again[0].records[17].response, runs[0].records[17].response, "deterministic");
    const tmp = await Deno.makeTempDir();
    try {
      writeSyntheticLogs(runs, tmp);
      const loaded = await loadRuns([tmp], dir);
      assert.equal(loaded.quarantine.length, 0);
      assert.equal(loaded.rows.height, 2 * 4520);
      // The official scorer's accuracy equals the planted accuracy, task by task.
      const a = loaded.runs.find((r) => r.run === "planted-a (synthetic)")!;
      for (const t of BBEH_TASKS) {
        assert.equal(
          a.tasks[t.name].correct,
          PLANTED.correct[t.name],
          t.name,
        );
      }
      const b = loaded.runs.find((r) => r.run === "planted-b synthetic")!;
      for (const t of BBEH_TASKS) assert.equal(b.tasks[t.name].correct, SECOND.correct[t.name]);

      const plan = planFrame(runs);
      const kinds = (task: string, kind: string, run = "planted-a (synthetic)") =>
        plan.filter(
          pl.col("run").eq(pl.lit(run)).and(pl.col("task").eq(pl.lit(task)))
            .and(pl.col("kind").eq(pl.lit(kind))),
        );
      const rows = loaded.rows;
      const an = failureAnalyses(rows, { map: bbehToBbmMap(dir), traces: loadBbmDataset(dir) });
      const s = (
        table: pl.DataFrame,
        measure: string,
        opts: { group?: string; task?: string } = {},
      ) => shareOf(table, { run: "planted-a (synthetic)", measure, ...opts })!;

      const unknown = s(an.boardgame, "unknown_share");
      assert.deepEqual([unknown.count, unknown.n], [120, 190]);
      const unknownB = shareOf(an.boardgame, {
        run: "planted-b synthetic",
        measure: "unknown_share",
      })!;
      assert.deepEqual([unknownB.count, unknownB.n], [40, 200]);

      assert.equal(s(an.objectCounting, "over_count_of_all").count, 60);
      assert.equal(s(an.objectCounting, "under_count_of_all").count, 40);
      const over = s(an.objectCounting, "over_count_share");
      assert.deepEqual([over.count, over.n], [60, 100]);
      // Per subset: planned over/under rows of the sum subset.
      const sumIdx = subsetsOfRows(rows).filter(
        pl.col("task").eq(pl.lit("object_counting")).and(pl.col("subset").eq(pl.lit("sum"))),
      ).getColumn("example_index").toArray() as number[];
      const inSum = (df: pl.DataFrame) => df.filter(pl.col("example_index").isIn(sumIdx)).height;
      const sumOver = s(an.objectCounting, "over_count_share", { group: "sum" });
      assert.equal(sumOver.count, inSum(kinds("object_counting", "over")));
      assert.equal(
        sumOver.n,
        inSum(kinds("object_counting", "over")) + inSum(kinds("object_counting", "under")),
      );
      const overB = shareOf(an.objectCounting, {
        run: "planted-b synthetic",
        measure: "over_count_share",
      })!;
      assert.deepEqual([overB.count, overB.n], [10, 90]);

      assert.equal(s(an.objectProperties, "undetermined_share").count, 70);

      const early = s(an.mistakeFinding, "early_flag_share", { task: "dyck_languages" });
      assert.deepEqual([early.count, early.n], [20, 80]);
      assert.equal(
        s(an.mistakeFinding, "missed_first_share", { task: "dyck_languages" }).count,
        60,
      );
      assert.equal(
        s(an.mistakeFinding, "said_no_mistake_share", { task: "dyck_languages" }).count,
        kinds("dyck_languages", "said_no_mistake").height,
      );
      const wsEarly = s(an.mistakeFinding, "early_flag_share", { task: "word_sorting" });
      assert.deepEqual([wsEarly.count, wsEarly.n], [5, 15]);

      assert.equal(s(an.wordSorting, "english_sort_share").count, 20);

      // Hyperbaton: English-ordered pairs of the added distractors, from the plan.
      const inputs = new Map(
        (dataset.filter(pl.col("task").eq(pl.lit("hyperbaton"))).select("example_index", "input")
          .toRecords() as { example_index: number; input: string }[]).map((r) => [
            r.example_index,
            r.input,
          ]),
      );
      let pairs = 0, english = 0;
      const targets = new Map(
        (dataset.filter(pl.col("task").eq(pl.lit("hyperbaton"))).select("example_index", "target")
          .toRecords() as { example_index: number; target: string }[]).map((r) => [
            r.example_index,
            r.target,
          ]),
      );
      for (
        const p of plan.filter(pl.col("run").eq(pl.lit("planted-a (synthetic)")))
          .filter(pl.col("task").eq(pl.lit("hyperbaton"))).toRecords()
      ) {
        const opts = hyperbatonOptions(inputs.get(Number(p.example_index))!);
        const gold = targets.get(Number(p.example_index))!;
        for (const letter of String(p.answer)) {
          if (gold.includes(letter) || !opts[letter]) continue;
          pairs += opts[letter].length;
          english += opts[letter].filter((x) => x).length;
        }
      }
      assert.equal(kinds("hyperbaton", "english_pick").height, 30);
      const hyp = s(an.hyperbaton, "english_pairs_in_wrong_picks");
      assert.deepEqual([hyp.count, hyp.n], [english, pairs]);

      const last = shareOf(an.webOfLies, {
        run: "planted-a (synthetic)",
        group: "cyclic",
        measure: "last_person_accuracy",
      })!;
      assert.equal(last.n - last.count, 50);

      const temporal = s(an.temporal, "longest_only_accuracy");
      assert.equal(temporal.count, PLANTED.correct.temporal_sequence + 40);

      assert.equal(s(an.shuffled, "no_final_answer_share").count, 30);
      assert.equal(s(an.shuffled, "degenerate_share").count, 20);
      assert.equal(
        shareOf(an.noAnswer, {
          run: "planted-a (synthetic)",
          task: "nycc",
          measure: "no_answer_share",
        })
          ?.count,
        12,
      );

      const summary = failureSummary(an)["planted-a (synthetic)"];
      assert.deepEqual(
        Object.fromEntries(
          Object.entries(summary.subsets.zebra_puzzles).map(([k, v]) => [k, v.correct]),
        ),
        PLANTED.strata!.zebra_puzzles.correct,
      );
      assert.equal(
        summary.failure_modes["causal_understanding.causal_judgement/No.error_share"].count,
        39,
      );
      assert.equal(summary.failure_modes["causal_understanding.necessary.error_share"].count, 18);
    } finally {
      await Deno.remove(tmp, { recursive: true });
    }
  },
);

dataTest("synthetic generator rejects infeasible plans", (dir) => {
  const dataset = loadBbehDataset(dir);
  assert.throws(
    () =>
      generateSyntheticRuns(dataset, [{
        model: "bad",
        correct: { object_counting: 150 },
        objectCounting: { over: 40, under: 40 },
      }]),
    /eligible wrong rows/,
  );
  assert.throws(
    () =>
      generateSyntheticRuns(dataset, [{
        model: "bad",
        correct: { zebra_puzzles: 10 },
        strata: { zebra_puzzles: { by: "subset:size", correct: { "5x5": 5 } } },
      }]),
    /strata correct counts sum/,
  );
});
