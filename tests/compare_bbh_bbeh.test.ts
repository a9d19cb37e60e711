/**
 * BBH beside BBEH (lib/benchmarks/bbh/compare): the Table 1 pairing, Table 10 for runs with both benchmarks,
 * Figure 4 output lengths, the BBH release's CoT vs direct comparison, and the figures. Checked
 * on constructed runs with known answers (tests/fixtures/compare/constructed_runs.json) and on
 * the real BBH release outputs.
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import pl from "nodejs-polars";
import { BBEH_TABLE10 } from "@runlens/benchmarks/bbeh/published.ts";
import { readBbhPublishedAccuracies } from "@runlens/benchmarks/bbh/release_metrics.ts";
import { loadBbhReleaseOutputs } from "@runlens/benchmarks/bbh/release_outputs.ts";
import { cotVsDirect, cotVsDirectSummary } from "@runlens/benchmarks/bbh/compare/cot_vs_direct.ts";
import {
  cotVsDirectFigure,
  outputLengthFigure,
  table10Figure,
} from "@runlens/benchmarks/bbh/compare/figures.ts";
import {
  outputLengthComparison,
  outputLengthMacro,
  PAPER_OUTPUT_RATIO,
} from "@runlens/benchmarks/bbh/compare/output_lengths.ts";
import { modelsWithBoth, onPairs, taskPairs } from "@runlens/benchmarks/bbh/compare/pairs.ts";
import {
  publishedTable10,
  table10,
  table10Means,
} from "@runlens/benchmarks/bbh/compare/table10.ts";
import { saveFigure } from "@runlens/render/figure.ts";
import { pyLen } from "@runlens/core/python.ts";
import { dataTest } from "./_data.ts";
import { constructedRuns } from "./_compare_fixture.ts";

const constructed = constructedRuns;

Deno.test("pairs: 27 BBH tasks onto 23 BBEH tasks (paper Table 1), variants pooled", () => {
  const p = taskPairs();
  assert.equal(p.height, 27);
  assert.equal(new Set(p.getColumn("task").toArray()).size, 23);
  assert.equal(p.filter(pl.col("task").eq(pl.lit("shuffled_objects"))).height, 3);
  const rows = constructed();
  assert.deepEqual(modelsWithBoth(rows), ["m1"]);
  const bbh = onPairs(rows, "bbh");
  assert.equal(bbh.filter(pl.col("task").eq(pl.lit("boardgame_qa"))).height, 4);
  assert.equal(bbh.filter(pl.col("task").eq(pl.lit("spatial_reasoning"))).height, 4);
});

Deno.test("publishedTable10: the paper's Gemini 2.0 Flash columns, 23 tasks", () => {
  const t = publishedTable10();
  assert.equal(t.height, 23);
  for (const r of t.toRecords() as { task: string; paper_bbh: number; paper_bbeh: number }[]) {
    assert.equal(r.paper_bbh, BBEH_TABLE10.bbh[r.task]);
    assert.equal(r.paper_bbeh, BBEH_TABLE10.bbeh[r.task]);
  }
  const hyper = t.filter(pl.col("task").eq(pl.lit("hyperbaton"))).toRecords()[0];
  assert.deepEqual([hyper.paper_bbh, hyper.paper_bbeh], [94.8, 4.5]);
});

Deno.test("table10: known accuracies of the constructed runs, pooled BBH variants", () => {
  const t = table10(constructed());
  assert.equal(t.height, 23, "one row per BBEH task for the one model with both benchmarks");
  assert.deepEqual([...new Set(t.getColumn("model").toArray())], ["m1"]);
  const get = (task: string) =>
    t.filter(pl.col("task").eq(pl.lit(task))).toRecords()[0] as Record<string, unknown>;
  // boardgame_qa ← logical_deduction three (1/2) + five (2/2) = 3/4; BBEH 1/4
  assert.deepEqual(
    [get("boardgame_qa").bbh_n, get("boardgame_qa").bbh, get("boardgame_qa").bbeh],
    [4, 75, 25],
  );
  assert.equal(get("boardgame_qa").drop, 50);
  assert.equal(get("boardgame_qa").paper_bbh, 88.0);
  // spatial_reasoning ← navigate: the null verdict is not counted (2/2), BBEH 1/1
  assert.deepEqual([get("spatial_reasoning").bbh_n, get("spatial_reasoning").bbh], [2, 100]);
  assert.equal(get("spatial_reasoning").bbeh, 100);
  assert.equal(get("hyperbaton").bbh, null, "no rows: null, paper reference kept");
  assert.equal(get("hyperbaton").paper_bbeh, 4.5);
  const means = table10Means(t).toRecords()[0];
  assert.deepEqual([means.tasks, means.bbh, means.bbeh], [2, 87.5, 62.5]);
  assert.equal(means.paper_bbh, (88.0 + 97.6) / 2);
  assert.equal(table10(constructed().filter(pl.col("model").eq(pl.lit("m2")))).height, 0);
});

Deno.test("outputLengthComparison: mean response chars per pair and the macro ratio", () => {
  const rows = constructed();
  const cmp = outputLengthComparison(rows);
  assert.deepEqual(cmp.getColumn("task").toArray(), ["boardgame_qa", "spatial_reasoning"]);
  const len = (s: string) => pyLen(s);
  const r = cmp.toRecords() as { bbh: number; bbeh: number; ratio: number; bbh_n: number }[];
  const bbhBoard = [
    "Amy is first. So the answer is (A).",
    "Hmm.\n**Answer: (B)**",
    "So the answer is (C).",
    "So the answer is (C).",
  ].map(len);
  assert.equal(r[0].bbh, bbhBoard.reduce((a, b) => a + b) / 4);
  assert.equal(r[0].ratio, r[0].bbeh / r[0].bbh);
  assert.equal(r[1].bbh_n, 3, "lengths count every response, scored or not");
  const macro = outputLengthMacro(cmp).toRecords()[0];
  assert.equal(macro.tasks, 2);
  assert.equal(macro.ratio, ((r[0].bbeh + r[1].bbeh) / 2) / ((r[0].bbh + r[1].bbh) / 2));
  assert.equal(PAPER_OUTPUT_RATIO.ratio, 7);
});

Deno.test("cotVsDirect: constructed runs", () => {
  const rows = pl.DataFrame({
    run: ["c", "c", "d", "d", "d"],
    task: ["navigate", "navigate", "navigate", "navigate", "snarks"],
    correct: [true, true, true, false, true],
  });
  const t = cotVsDirect(rows, { cot: "c", direct: "d" });
  assert.deepEqual(t.toRecords(), [
    { task: "navigate", n: 2, direct: 50, cot: 100, gain: 50 },
    { task: "snarks", n: 1, direct: 100, cot: null, gain: null },
  ]);
  assert.deepEqual(cotVsDirectSummary(t), {
    tasks: 1,
    direct: 50,
    cot: 100,
    gain: 50,
    cotBetter: 1,
  });
});

dataTest("cotVsDirect: the release's 54 published accuracies, per task", (dir) => {
  const { rows } = loadBbhReleaseOutputs(dir);
  const t = cotVsDirect(rows);
  assert.equal(t.height, 27);
  const published = new Map(
    readBbhPublishedAccuracies(dir).map((p) => [`${p.run}/${p.task}`, p.accuracy]),
  );
  for (const r of t.toRecords() as { task: string; cot: number; direct: number }[]) {
    const cot = published.get(`code-davinci-002-cot/${r.task}`)!;
    const direct = published.get(`code-davinci-002-direct/${r.task}`)!;
    assert.ok(Math.abs(r.cot - cot) < 1e-9, `${r.task} cot ${r.cot} vs ${cot}`);
    assert.ok(Math.abs(r.direct - direct) < 1e-9, `${r.task} direct ${r.direct} vs ${direct}`);
  }
  const s = cotVsDirectSummary(t);
  console.log(
    `code-davinci-002 macro: direct ${s.direct.toFixed(2)}, CoT ${s.cot.toFixed(2)}, ` +
      `CoT better on ${s.cotBetter}/27`,
  );
  assert.ok(s.cot > s.direct);
  // no BBEH run of code-davinci-002: nothing to pair
  assert.equal(table10(rows).height, 0);
  assert.equal(outputLengthComparison(rows).height, 0);
});

Deno.test("figures: every compare figure renders to SVG + PNG", () => {
  const dir = Deno.makeTempDirSync();
  const rows = constructed();
  const figs: [string, Element][] = [
    ["t10", table10Figure(table10(rows), { model: "m1" })],
    ["t10paper", table10Figure(publishedTable10(), { paper: true })],
    ["fig4", outputLengthFigure(outputLengthComparison(rows), { model: "m1" })],
    [
      "cot",
      cotVsDirectFigure(
        cotVsDirect(
          pl.DataFrame({ run: ["c", "d"], task: ["navigate", "navigate"], correct: [true, false] }),
          { cot: "c", direct: "d" },
        ),
      ),
    ],
  ];
  for (const [name, el] of figs) {
    saveFigure(el, dir, name);
    const svg = Deno.readTextFileSync(join(dir, `${name}.svg`));
    assert.ok(svg.startsWith("<svg"), name);
    assert.ok(Deno.statSync(join(dir, `${name}.png`)).size > 1000, name);
  }
  Deno.removeSync(dir, { recursive: true });
});
