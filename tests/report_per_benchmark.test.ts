/**
 * The report, per benchmark, on real runs (issue 24, item 1): the BBH release's
 * code-davinci-002 chain-of-thought and direct outputs (two real runs of 6,511 examples), the
 * seeded BBEH demo runs (four models, generated from the data set), and three BBH runs written
 * here as CSV from the data set:
 * - `alpha` and `beta` (named as lm-eval names runs, {@link ALPHA} and {@link BETA}: the
 *   report calls them by short names) answer the first 40 examples of navigate and snarks in 3 epochs; alpha
 *   is right on example i except when i % 5 = 0, where only epoch 2 is right (its verdict flips
 *   on 16 examples), beta is right except when i % 3 = 0 (every epoch); alpha's rows are split
 *   over two files, with 5 bad rows planted (2 of an unknown task, 3 out of range);
 * - `gamma` answers all 6,511 examples, right on 4 (0.06%).
 * Every expected value comes from that construction, from the document's rows counted here, or
 * from a Wilson interval computed here — never from the code under test. The page is measured
 * in headless Chromium at 1,400 and 1,600 px.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadBbehDataset } from "@runlens/benchmarks/bbeh/dataset.ts";
import {
  generateSyntheticRuns,
  writeSyntheticLogs,
} from "@runlens/benchmarks/bbeh/synthetic/generate.ts";
import { paperDemoSpecs } from "@runlens/benchmarks/bbeh/synthetic/paper_demo.ts";
import { readBbhExamples } from "@runlens/benchmarks/bbh/examples.ts";
import { loadRuns } from "@runlens/pipeline/load.ts";
import { buildReport } from "@runlens/report/build.ts";
import type { ReportDocument } from "@runlens/report/html/document.ts";
import type { ReportFigure, ReportTable } from "@runlens/render/document.ts";
import { formatReportTable } from "@runlens/report/html/render.ts";
import { writeReport } from "@runlens/report/write.ts";
import { labelProblems } from "@runlens/render/figure/labels.ts";
import { ensureChromium } from "@runlens/setup/chromium.ts";
import { ensureLatex } from "@runlens/setup/latex.ts";
import type { Page } from "playwright-core";
import { launchChromium } from "@runlens/setup/chromium_browser.ts";
import { countText, open, optionValue, selectValue, waitForValue } from "./_browser.ts";
import { dataTest } from "./_data.ts";
import { compileTables } from "./_latex.ts";

const csv = (s: string) => `"${s.replaceAll('"', '""')}"`;
// BBH and BBEH share task names (boolean_expressions, …): the rows say which benchmark
const HEADER = "benchmark,run,model,task,example_index,epoch,response";

/** Run names as lm-eval writes them (60 characters). */
const ALPHA = "meta-llama__Llama-3.2-3B-Instruct_2026-01-08T17-20-31.984236";
const BETA = "Qwen__Qwen2.5-7B-Instruct_2026-01-09T09-02-11.120345";

/** alpha and beta (3 epochs, 2 tasks × 40), alpha over two files with 5 bad rows; gamma. */
function writeCsvRuns(dataDir: string, dir: string): void {
  const examples = readBbhExamples(dataDir);
  const line = (run: string, task: string, i: number, epoch: number, answer: string) =>
    ["bbh", run, `org/${run}`, task, i, epoch, csv(`Let's think. So the answer is ${answer}.`)]
      .join(",");
  const alpha: string[] = [], beta: string[] = [];
  for (const task of ["navigate", "snarks"]) {
    examples[task].slice(0, 40).forEach((e, i) => {
      for (const epoch of [1, 2, 3]) {
        const a = i % 5 !== 0 || epoch === 2, b = i % 3 !== 0;
        alpha.push(line(ALPHA, task, i, epoch, a ? e.target : "zzz"));
        beta.push(line(BETA, task, i, epoch, b ? e.target : "zzz"));
      }
    });
  }
  const bad = (task: string, i: number) =>
    ["bbh", ALPHA, `org/${ALPHA}`, task, i, 1, "x"].join(",");
  const half = alpha.length / 2;
  Deno.writeTextFileSync(
    join(dir, "alpha_1.csv"),
    [HEADER, ...alpha.slice(0, half), bad("not_a_task", 0), bad("not_a_task", 1)].join("\n") + "\n",
  );
  Deno.writeTextFileSync(
    join(dir, "alpha_2.csv"),
    [HEADER, ...alpha.slice(half), ...[9990, 9991, 9992].map((i) => bad("navigate", i))]
      .join("\n") + "\n",
  );
  Deno.writeTextFileSync(join(dir, "beta.csv"), [HEADER, ...beta].join("\n") + "\n");
  let right = 0;
  const gamma = Object.entries(examples).flatMap(([task, es]) =>
    es.map((e, i) => line("gamma", task, i, 1, right++ < 4 ? e.target : "zzz"))
  );
  Deno.writeTextFileSync(join(dir, "gamma.csv"), [HEADER, ...gamma].join("\n") + "\n");
}

interface Built {
  dir: string;
  doc: ReportDocument;
  html: string;
  md: string;
}

let built: Promise<Built> | null = null;

/** The report of every run above, built once for the tests of this file. */
function report(dataDir: string): Promise<Built> {
  return built ??= (async () => {
    const dir = Deno.makeTempDirSync({ prefix: "runlens_report_per_benchmark_" });
    const csvDir = join(dir, "csv"), bbehDir = join(dir, "bbeh");
    Deno.mkdirSync(csvDir);
    Deno.mkdirSync(bbehDir);
    writeCsvRuns(dataDir, csvDir);
    writeSyntheticLogs(generateSyntheticRuns(loadBbehDataset(dataDir), paperDemoSpecs()), bbehDir);
    const logs = [join(dataDir, "bbh", "code-davinci-002-outputs"), csvDir, bbehDir];
    const loaded = await loadRuns(logs, dataDir);
    const doc = await buildReport(loaded, { dataDir, command: "test", provenance: "source" });
    const out = join(dir, "report");
    writeReport(doc, out);
    return {
      dir,
      doc,
      html: Deno.readTextFileSync(join(out, "report.html")),
      md: Deno.readTextFileSync(join(out, "report.md")),
    };
  })();
}

/** Every figure of the document. */
function figures(doc: ReportDocument): ReportFigure[] {
  const items = [doc.leaderboard, ...doc.analyses].flatMap((s) => s?.items ?? []);
  return [...items, ...doc.comparisons?.figures ?? []]
    .filter((i): i is ReportFigure => i.kind === "figure");
}

/** Every table of the document's sections. */
function tables(doc: ReportDocument): ReportTable[] {
  return [doc.leaderboard, ...doc.analyses].flatMap((s) => s?.items ?? [])
    .filter((i): i is ReportTable => i.kind === "table");
}

/** The 95% Wilson interval of k of n, in percent (written out here, not the library's). */
function wilson(k: number, n: number): [number, number] {
  const z = 1.959963984540054, p = k / n, z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z * Math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return [100 * (centre - half), 100 * (centre + half)];
}

dataTest("report per benchmark: figures for BBH and BBEH, no label collides", async (data) => {
  const { doc } = await report(data);
  const ids = figures(doc).map((f) => f.id!);
  for (const b of ["bbh", "bbeh"]) {
    assert.ok(ids.includes(`per-task-${b}`), `${b}: no per-task figure in ${ids.join(", ")}`);
    const pairs = doc.comparisons!.pairs.filter((p) => p.benchmark === b).length;
    const forests = ids.filter((id) => id.startsWith("forest-") && id.endsWith(`-${b}`)).length;
    assert.equal(forests, Math.min(6, pairs), `${b}: forest plots`);
  }
  assert.ok(ids.includes("bbh-format-figure"), "BBH: no answer-format figure");
  // BBEH's own failure-mode figure, through its plug-in hook
  assert.ok(ids.includes("bbeh-no-answer-share"), ids.join(", "));
  // the format sensitivity is a figure, a per-run table and the full table, collapsed
  const format = doc.analyses.find((s) => s.id === "format-sensitivity")!;
  const full = format.items.find((i) => i.id === "bbh-format-sensitivity") as ReportTable;
  assert.equal(full.collapsed, true);
  const overall = format.items.find((i) => i.id === "bbh-format-overall") as ReportTable;
  assert.equal(overall.rows.length, 5 * 7, "5 BBH runs × 7 rules");
  const problems = figures(doc).flatMap((f) =>
    labelProblems(f.svg).map((p) => `${f.id}: ${p.message}`)
  );
  assert.deepEqual(problems, []);
});

dataTest(
  "report per benchmark: integer counts, intervals that say something, reasons per run",
  async (data) => {
    const { doc, html, md } = await report(data);
    // counts print as integers in every table of the sections (n, correct, no_answer, …)
    const countColumns = /^(n|correct|no_answer|count|examples|repeated|unstable|epochs)$/;
    for (const t of tables(doc)) {
      const f = formatReportTable(t);
      f.columns.forEach((c, j) => {
        if (!countColumns.test(c)) return;
        for (const r of f.rows) {
          assert.ok(r[j] === null || /^\d+$/.test(r[j]!), `${t.id}: ${c} prints ${r[j]}`);
        }
      });
    }
    // the release's own metrics file says 96.4% on navigate: 241 of 250, printed as counts
    assert.match(
      md,
      /\| code-davinci-002-cot +\| bbh +\| navigate +\| 250 \| +241 \| +0 \| +96\.4 \|/,
    );
    // gamma: 4 of 6,511 right; its Wilson interval prints at 2 decimals, not [0.0, 0.2]
    const gamma = doc.runs.find((r) => r.run === "gamma")!;
    assert.equal(gamma.headline?.value.toFixed(4), (400 / 6511).toFixed(4));
    const [lo, hi] = wilson(4, 6511);
    const text = `0.06% [${lo.toFixed(2)}, ${hi.toFixed(2)}]`;
    assert.equal(text, "0.06% [0.02, 0.16]");
    assert.ok(html.includes(`<span class="main">${text}</span>`), "gamma's headline in the page");
    assert.match(md, /\| 0\.06% +\| \[0\.02, 0\.16\] +\|/, "gamma's headline in report.md");
    // alpha spans two files: its 5 planted bad rows, by reason, in the runs table
    const alpha = doc.runs.find((r) => r.run === ALPHA)!;
    // the runs table, the figures and the browser call it by its short name, with a legend
    assert.equal(alpha.label, "Llama-3.2-3B-Instruct");
    assert.ok(
      new RegExp(`<td>Llama-3.2-3B-Instruct</td><td[^>]*>${ALPHA}</td>`).test(html),
      "no legend row",
    );
    assert.equal(alpha.rows_quarantined, 5);
    assert.deepEqual(Object.values(alpha.quarantine).sort(), [2, 3]);
    assert.match(
      html,
      /<span class="main">5<\/span><span class="sub">example_index N out of range for navigate \(N–N\) 3; unknown task/,
    );
  },
);

dataTest(
  "report per benchmark: every LaTeX table, the new ones too, compiles and fits",
  async (data) => {
    const { dir } = await report(data);
    const tablesDir = join(dir, "report", "tables");
    const names = [...Deno.readDirSync(tablesDir)].map((e) => e.name).sort();
    for (const t of ["bbh-format-overall.tex", "epoch-stability.tex", "per-task-accuracy.tex"]) {
      assert.ok(names.includes(t), `${t} not in ${names.join(", ")}`);
    }
    await ensureLatex();
    const files = names.map((name) => ({
      name,
      tex: Deno.readTextFileSync(join(tablesDir, name)),
    }));
    assert.deepEqual(await compileTables(files), []);
  },
);

/** Whether the page fits at `width`: no horizontal scroll, every table within its box. */
async function layout(page: Page) {
  return await page.evaluate(() => {
    const de = document.documentElement;
    const main = document.querySelector("main")!.getBoundingClientRect();
    const wraps = [...document.querySelectorAll(".table-wrap")].filter((w) =>
      (w as HTMLElement).offsetParent !== null
    );
    return {
      page: [de.scrollWidth, de.clientWidth],
      scrolling: wraps.filter((w) => w.scrollWidth > w.clientWidth + 1)
        .map((w) => `${w.parentElement!.id}: ${w.scrollWidth} > ${w.clientWidth}`),
      outside: wraps.filter((w) => w.getBoundingClientRect().right > main.right + 1)
        .map((w) => w.parentElement!.id),
      tables: wraps.length,
    };
  });
}

dataTest(
  "report per benchmark in Chromium: no clipped table, two runs side by side, stability",
  async (data) => {
    await ensureChromium();
    const { dir, doc } = await report(data);
    const file = join(dir, "report", "report.html");
    for (const width of [1400, 1600]) {
      const browser = await launchChromium({ width, height: 1000 });
      try {
        const { page } = await open(browser, file);
        const l = await layout(page);
        assert.ok(l.tables >= 8, `${l.tables} tables`);
        assert.ok(l.page[0] <= l.page[1], `page ${l.page[0]} px wide in ${l.page[1]} at ${width}`);
        assert.deepEqual(l.scrolling, [], `tables that scroll at ${width} px`);
        assert.deepEqual(l.outside, [], `tables past the column at ${width} px`);
      } finally {
        await browser.close();
      }
    }
    const browser = await launchChromium({ width: 1400, height: 1000 });
    try {
      const { page, log } = await open(browser, file);
      await page.waitForFunction(() => document.documentElement.dataset.texts === "ready");
      // the release's runs, side by side: discordant examples counted from the document's rows
      const [cot, direct] = ["code-davinci-002-cot", "code-davinci-002-direct"];
      const verdict = (run: string) =>
        new Map(
          doc.examples.rows.filter((r) => r.run === run)
            .map((r) => [`${r.task}#${r.example_index}`, r.verdict === "correct"]),
        );
      const [a, b] = [verdict(cot), verdict(direct)];
      const aOnly = [...a].filter(([k, v]) => v && b.get(k) === false).length;
      const bOnly = [...a].filter(([k, v]) => !v && b.get(k) === true).length;
      assert.ok(aOnly > 100 && bOnly > 100, `${aOnly}, ${bOnly}`);
      const pair = doc.comparisons!.pairs.find((p) => p.run_a === cot && p.run_b === direct)!;
      assert.deepEqual([pair.overall.a_only, pair.overall.b_only], [aOnly, bOnly]);
      await page.click("#ex-mode-pairs");
      await selectValue(page, "ex-run-a", await optionValue(page, "ex-run-a", cot));
      await selectValue(page, "ex-run-b", await optionValue(page, "ex-run-b", direct));
      assert.equal(await countText(page), "6,511 of 6,511 examples");
      await selectValue(page, "ex-pair", "a");
      assert.equal(await countText(page), `${aOnly.toLocaleString("en-US")} of 6,511 examples`);
      await selectValue(page, "ex-pair", "d");
      assert.equal(
        await countText(page),
        `${(aOnly + bOnly).toLocaleString("en-US")} of 6,511 examples`,
      );
      await selectValue(page, "ex-pair", "b");
      await selectValue(page, "ex-task", await optionValue(page, "ex-task", "bbh · navigate"));
      const navigate = [...a].filter(([k, v]) => k.startsWith("navigate#") && !v && b.get(k))
        .length;
      assert.equal(await countText(page), `${navigate} of 6,511 examples`);
      // opening one shows both responses next to each other, A wrong and B right
      await page.click("#ex-list details summary");
      const sides = await waitForValue(page, () => {
        const s = document.querySelectorAll("#ex-list .ex-sides > .ex-side");
        return s.length === 2
          ? [...s].map((x) => ({
            who: x.querySelector(".ex-side-run")!.textContent,
            tag: x.querySelector(".tag")!.textContent,
            top: Math.round(x.getBoundingClientRect().top),
          }))
          : null;
      });
      assert.deepEqual(sides.map((s) => [s.who, s.tag === "right"]), [
        [`A: ${cot}`, false],
        [`B: ${direct}`, true],
      ]);
      assert.equal(sides[0].top, sides[1].top, "side by side");
      // alpha vs beta: epochs; alpha flips on 16 examples (48 rows), beta never
      await selectValue(page, "ex-task", "");
      await selectValue(page, "ex-pair", "");
      await selectValue(
        page,
        "ex-run-a",
        await optionValue(page, "ex-run-a", "Llama-3.2-3B-Instruct"),
      );
      await selectValue(
        page,
        "ex-run-b",
        await optionValue(page, "ex-run-b", "Qwen2.5-7B-Instruct"),
      );
      assert.equal(await countText(page), "80 of 80 examples");
      // alpha is better where beta is wrong (i % 3 = 0: 14 per task); beta where alpha flips
      // and beta is right (i % 5 = 0, i % 3 ≠ 0: 5 per task)
      await selectValue(page, "ex-pair", "a");
      assert.equal(await countText(page), "28 of 80 examples");
      await selectValue(page, "ex-pair", "b");
      assert.equal(await countText(page), "10 of 80 examples");
      await selectValue(page, "ex-pair", "");
      await selectValue(page, "ex-stability", "1");
      assert.equal(await countText(page), "16 of 80 examples");
      assert.equal(
        await page.evaluate(() =>
          document.querySelector("#ex-list summary .tag.flag")?.textContent ?? null
        ),
        "A: right in 1 of 3 epochs",
      );
      await page.click('input[name="ex-mode"][value="rows"]');
      assert.equal(
        await countText(page),
        `48 of ${doc.examples.rows.length.toLocaleString("en-US")} rows`,
      );
      // the stability table agrees: 16 of alpha's 80 examples
      const stability = doc.analyses.find((s) => s.id === "stability")!.items[0] as ReportTable;
      assert.deepEqual(stability.rows.map((r) => r.slice(0, 6)), [
        [BETA, "bbh", 80, 80, 3, 0],
        [ALPHA, "bbh", 80, 80, 3, 16],
      ]);
      assert.deepEqual(log.errors(), []);
    } finally {
      await browser.close();
      Deno.removeSync(dir, { recursive: true });
    }
  },
);
