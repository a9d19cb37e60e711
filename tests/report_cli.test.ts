/**
 * `runlens report` end to end (issue 16, item 3): on real BBEH questions answered by two
 * constructed runs (one with a planted needle, one with hostile text), it writes report.html,
 * report.md and booktabs tables, deterministically; the page loads in headless Chromium with no
 * error and no request, its runs table agrees with `runlens score --json`, filtering by task
 * and verdict shows the counts the score report implies, and search finds the needle.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadBbehDataset } from "@runlens/benchmarks/bbeh/dataset.ts";
import { ensureChromium } from "@runlens/setup/chromium.ts";
import { launchChromium } from "@runlens/setup/chromium_browser.ts";
import { countText, open, optionValue, selectValue } from "./_browser.ts";
import { runCli } from "./_cli.ts";
import { dataTest } from "./_data.ts";
import { withTempDir } from "./_tmp.ts";

const NEEDLE = "zqxj needle 9182";
const HOSTILE = "<script>alert(1)</script></script><img src=x onerror=alert(2)>";

/** Two runs over the first 30 examples of three tasks: A right on even, B on every third. */
function writeRuns(dataDir: string, dir: string): void {
  const ds = loadBbehDataset(dataDir).toRecords() as {
    task: string;
    example_index: number;
    target: string;
  }[];
  const examples = ["nycc", "boardgame_qa", "zebra_puzzles"]
    .flatMap((t) => ds.filter((e) => e.task === t && e.example_index < 30));
  const line = (e: (typeof examples)[number], right: boolean, extra = "") =>
    JSON.stringify({
      task: e.task,
      example_index: e.example_index,
      response: `${extra}Thinking.\nThe answer is: ${right ? e.target : "no idea"}`,
    });
  Deno.writeTextFileSync(
    join(dir, "model_a.jsonl"),
    examples.map((e, i) => line(e, i % 2 === 0, i === 5 ? `${NEEDLE}\n` : "")).join("\n") + "\n",
  );
  Deno.writeTextFileSync(
    join(dir, "model_b.jsonl"),
    examples.map((e, i) => line(e, i % 3 === 0, i === 7 ? HOSTILE : "")).join("\n") + "\n",
  );
}

dataTest("runlens report: files, determinism, and the page in a real browser", async (data) => {
  await ensureChromium();
  await withTempDir(async (dir) => {
    const logs = join(dir, "logs");
    Deno.mkdirSync(logs);
    writeRuns(data, logs);
    const args = ["report", logs, "--out", join(dir, "r1"), "--data", data, "--date", "2026-01-01"];
    const first = await runCli(args);
    assert.equal(first.code, 0, first.stderr);
    Deno.renameSync(join(dir, "r1"), join(dir, "r2")); // the same command again: the same bytes
    const second = await runCli(args);
    assert.equal(second.code, 0, second.stderr);
    const files = (d: string) =>
      [...Deno.readDirSync(join(dir, d, "tables"))].map((e) => e.name).sort();
    assert.ok(
      files("r1").includes("runs-summary.tex") && files("r1").includes("per-task-accuracy.tex"),
    );
    for (const f of ["report.html", "report.md", ...files("r1").map((n) => `tables/${n}`)]) {
      assert.deepEqual(
        Deno.readFileSync(join(dir, "r1", f)),
        Deno.readFileSync(join(dir, "r2", f)),
        `${f} differs between two runs`,
      );
    }
    assert.match(Deno.readTextFileSync(join(dir, "r1", "tables", "runs-summary.tex")), /\\toprule/);

    // The counts the page should show, from the score report (an independent path).
    const score = JSON.parse((await runCli(["score", logs, "--json", "--data", data])).stdout);
    const total = score.runs.reduce(
      (n: number, r: { rows_scored: number }) => n + r.rows_scored,
      0,
    );
    const wrongZebra = score.runs.reduce(
      (n: number, r: { tasks: Record<string, { n: number; correct: number }> }) =>
        n + r.tasks.zebra_puzzles.n - r.tasks.zebra_puzzles.correct,
      0,
    );
    const html = Deno.readTextFileSync(join(dir, "r1", "report.html"));
    assert.ok(!html.includes(HOSTILE), "hostile text embedded raw");
    assert.ok(html.includes("2026-01-01"));

    const browser = await launchChromium({ width: 1400, height: 1000 });
    try {
      const file = join(dir, "r1", "report.html");
      const { page, log } = await open(browser, file);
      await page.waitForFunction(() => document.documentElement.dataset.texts === "ready");
      assert.deepEqual(log.errors(), []);
      assert.deepEqual(log.requests.map((r) => r.url), [new URL(`file://${file}`).href]);
      assert.equal(await countText(page), `${total} of ${total} rows`);
      await selectValue(page, "ex-task", await optionValue(page, "ex-task", "zebra_puzzles"));
      await selectValue(page, "ex-verdict", "0");
      assert.equal(await countText(page), `${wrongZebra} of ${total} rows`);
      await selectValue(page, "ex-task", "");
      await selectValue(page, "ex-verdict", "");
      await page.locator("#ex-search").pressSequentially(NEEDLE.toUpperCase());
      await page.keyboard.press("Enter");
      assert.equal(await countText(page), `1 of ${total} rows`);
      assert.deepEqual(log.dialogs, []);
      const png = await page.screenshot({ path: join(dir, "report.png") });
      assert.ok(png.length > 10_000);
    } finally {
      await browser.close();
    }
  });
});
