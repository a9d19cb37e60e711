/**
 * `runlens report` on folders of real logs (issue 16, "Done when"): the BBH release's
 * code-davinci-002 outputs (two real runs of 6,511 examples each) and the real inspect_ai /
 * openai/evals logs of the shared data (no BBEH/BBH rows: every record is quarantined). Each
 * writes report.html, report.md and booktabs tables; the page opens in headless Chromium with
 * no console error and no request but the file; its counts agree with `runlens score --json`
 * (an independent path) and with the release's known size.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ensureChromium } from "@runlens/setup/chromium.ts";
import { ensureLatex } from "@runlens/setup/latex.ts";
import type { BrowserContext } from "playwright-core";
import { launchChromium } from "@runlens/setup/chromium_browser.ts";
import { countText, open, optionValue, selectValue } from "./_browser.ts";
import { compileTables } from "./_latex.ts";
import { type CliResult, runCli } from "./_cli.ts";
import { dataTest } from "./_data.ts";
import { withTempDir } from "./_tmp.ts";

/** `runlens args… --no-cache`. */
function runlens(args: string[]): Promise<CliResult> {
  return runCli([...args, "--no-cache"]);
}

interface ScoreRun {
  run: string;
  rows_in: number;
  rows_scored: number;
  rows_quarantined: number;
  tasks: Record<string, { n: number; correct: number }>;
}

/**
 * Report and score the same logs; check the exit code (1 when a run had nothing scored), that
 * the three outputs exist and LaTeX is booktabs.
 */
async function reportAndScore(logs: string, out: string, data: string, code = 0) {
  const report = await runlens(["report", logs, "--out", out, "--data", data]);
  assert.equal(report.code, code, report.stderr);
  const score = JSON.parse((await runlens(["score", logs, "--json", "--data", data])).stdout) as {
    runs: ScoreRun[];
    quarantine: unknown[];
  };
  const tables = [...Deno.readDirSync(join(out, "tables"))].map((e) => e.name).sort();
  assert.ok(tables.includes("runs-summary.tex"), tables.join(", "));
  for (const t of tables) {
    const tex = Deno.readTextFileSync(join(out, "tables", t));
    assert.match(tex, /\\toprule[\s\S]*\\midrule[\s\S]*\\bottomrule/, t);
    assert.doesNotMatch(tex, /\\begin\{tabular\}\{\}/, `${t}: a table without columns`);
  }
  const md = Deno.readTextFileSync(join(out, "report.md"));
  for (const r of score.runs) assert.ok(md.includes(`| ${r.run} `), `${r.run} not in report.md`);
  return { score, md };
}

/** Open report.html: no error, no request but the file, no dialog; the example count. */
async function openClean(browser: BrowserContext, file: string) {
  const { page, log } = await open(browser, file);
  await page.waitForFunction(() => document.documentElement.dataset.texts === "ready");
  assert.deepEqual(log.errors(), []);
  assert.deepEqual(log.requests.map((r) => r.url), [new URL(`file://${file}`).href]);
  assert.deepEqual(log.dialogs, []);
  return { page, log };
}

dataTest("runlens report on the BBH release's real code-davinci-002 outputs", async (data) => {
  await ensureChromium();
  await withTempDir(async (dir) => {
    const logs = join(data, "bbh", "code-davinci-002-outputs");
    const out = join(dir, "report");
    const { score, md } = await reportAndScore(logs, out, data);
    // Two real runs over the whole release (6,511 examples each), nothing quarantined.
    assert.deepEqual(
      score.runs.map((r) => [r.run, r.rows_scored, r.rows_quarantined]),
      [["code-davinci-002-cot", 6511, 0], ["code-davinci-002-direct", 6511, 0]],
    );
    assert.ok(md.includes("## Paired comparisons"));
    // The pair's table is named by the runs' codes (R1, R2: the runs summary's order).
    const tables = [...Deno.readDirSync(join(out, "tables"))].map((e) => e.name).sort();
    assert.ok(tables.includes("pair-r1-vs-r2-bbh.tex"), tables.join(", "));
    // Every table, the 378-row format sensitivity included, compiles and fits a plain article.
    await ensureLatex();
    const problems = await compileTables(
      tables.map((name) => ({ name, tex: Deno.readTextFileSync(join(out, "tables", name)) })),
    );
    assert.deepEqual(problems, []);
    const total = 2 * 6511;
    const wrongWordSorting = score.runs.reduce(
      (n, r) => n + r.tasks.word_sorting.n - r.tasks.word_sorting.correct,
      0,
    );
    const browser = await launchChromium({ width: 1400, height: 1000 });
    try {
      const { page, log } = await openClean(browser, join(out, "report.html"));
      assert.equal(
        await countText(page),
        `${total.toLocaleString("en-US")} of ` +
          `${total.toLocaleString("en-US")} rows`,
      );
      await selectValue(page, "ex-task", await optionValue(page, "ex-task", "word_sorting"));
      await selectValue(page, "ex-verdict", "0");
      assert.equal(
        await countText(page),
        `${wrongWordSorting} of ${total.toLocaleString("en-US")} rows`,
      );
      // Every figure of the page renders with a non-empty box.
      const boxes = await page.evaluate(() =>
        [...document.querySelectorAll("figure.fig > .fig-box > svg")].map((s) => {
          const r = s.getBoundingClientRect();
          return r.width > 100 && r.height > 50;
        })
      );
      assert.ok(boxes.every(Boolean), JSON.stringify(boxes));
      assert.deepEqual(log.errors(), []);
    } finally {
      await browser.close();
    }
  });
});

dataTest("runlens report on real inspect_ai / openai/evals logs: all quarantined", async (data) => {
  await ensureChromium();
  await withTempDir(async (dir) => {
    const logs = join(data, "logs", "inspect");
    const out = join(dir, "report");
    // None of these logs is a BBEH/BBH run: every record is quarantined, and the report says so
    // (and exits 1: a run with nothing scored)
    const { score, md } = await reportAndScore(logs, out, data, 1);
    const rowsIn = score.runs.reduce((n, r) => n + r.rows_in, 0);
    assert.ok(rowsIn > 0);
    assert.equal(score.runs.reduce((n, r) => n + r.rows_scored, 0), 0);
    assert.equal(score.quarantine.length, rowsIn);
    assert.ok(
      md.includes(`0 rows scored, ${rowsIn} quarantined.`),
      md.split("\n").slice(0, 4).join("\n"),
    );
    const browser = await launchChromium();
    try {
      const { page } = await openClean(browser, join(out, "report.html"));
      assert.equal(await countText(page), "0 of 0 rows");
      const runsShown = await page.evaluate(() => document.body.textContent);
      for (const r of score.runs) assert.ok(runsShown!.includes(r.run), r.run);
    } finally {
      await browser.close();
    }
  });
});
