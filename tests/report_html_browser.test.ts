/**
 * report.html in a real browser: Debian's Chromium, headless, driven by playwright-core
 * (lib/setup/chromium_browser.ts; installed by lib/setup/chromium.ts when missing). The document
 * is SYNTHETIC (3 runs × 300 real BBEH questions from the data directory, seeded responses) with
 * a known needle and hostile strings planted; every expected count is computed from the
 * document, not from the page.
 *
 * Screenshots are always taken and checked (PNG, size, not blank); they are kept in
 * `$RUNLENS_REPORT_SCREENSHOTS` when that is set (so a person can look at them), else removed
 * with the test's temp directory.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { ReportDocument } from "@runlens/report/html/document.ts";
import { renderReportHtml } from "@runlens/report/html/render.ts";
import { syntheticReportDocument } from "@runlens/bench/synthetic_report.ts";
import { bbehSourceQuestions } from "@runlens/bench/report_page.ts";
import { ensureChromium } from "@runlens/setup/chromium.ts";
import { launchChromium } from "@runlens/setup/chromium_browser.ts";
import { countText, open, optionValue, selectValue, waitForValue } from "./_browser.ts";
import { dataTest } from "./_data.ts";
import { withTempDir } from "./_tmp.ts";

const NEEDLE = "zqxj needle 4711: the monotone invariant";
const HOSTILE = `before <script>alert(1)</script> mid </script><img src=x onerror=alert(2)>` +
  ` <!-- <svg onload=alert(3)> \u2028 & &amp; "quoted" 'single'\n  indented line\n\ttab`;

function makeDoc(dataDir: string): ReportDocument {
  const doc = syntheticReportDocument({
    runs: 3,
    examplesPerRun: 300,
    questions: bbehSourceQuestions(dataDir),
    seed: 11,
  });
  const rows = doc.examples.rows;
  rows[7].response = `Let's think.\n${NEEDLE}\nThe answer is: ${rows[7].extracted ?? "x"}`;
  rows[12].response = HOSTILE;
  rows[12].extracted = `<b onmouseover=alert(4)>bold</b>`;
  return doc;
}

function screenshotDir(tmp: string): string {
  const dir = Deno.env.get("RUNLENS_REPORT_SCREENSHOTS") ?? join(tmp, "screenshots");
  Deno.mkdirSync(dir, { recursive: true });
  return dir;
}

function pngSize(png: Uint8Array): { w: number; h: number } {
  assert.deepEqual([...png.slice(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10]);
  const v = new DataView(png.buffer, png.byteOffset);
  return { w: v.getUint32(16), h: v.getUint32(20) };
}

dataTest(
  "report.html in headless Chromium: clean load, figures, filters, search, rows, XSS",
  async (dataDir) => {
    await ensureChromium();
    const doc = makeDoc(dataDir);
    const rows = doc.examples.rows;
    await withTempDir(async (dir) => {
      const file = join(dir, "report.html");
      Deno.writeTextFileSync(file, renderReportHtml(doc));
      const browser = await launchChromium({ width: 1400, height: 1000 });
      try {
        const { page, log } = await open(browser, file);
        await page.waitForFunction(() => document.documentElement.dataset.texts === "ready");

        // Clean load: no errors, no request but the file itself (the inline data: images of
        // Plot's colour legend are no requests), no dialogs.
        assert.deepEqual(log.errors(), []);
        assert.deepEqual(log.requests, [{ url: new URL(`file://${file}`).href, type: "document" }]);
        assert.deepEqual(log.dialogs, []);
        const ready = await page.evaluate(() =>
          performance.getEntriesByName("report-ready").length
        );
        assert.equal(ready, 1);

        // Every figure renders with a non-empty box.
        const figures = [doc.leaderboard!, ...doc.analyses].flatMap((s) => s.items)
          .filter((i) => i.kind === "figure").length;
        const boxes = await page.evaluate(() =>
          [...document.querySelectorAll("figure.fig > .fig-box > svg")].map((s) => {
            const r = s.getBoundingClientRect();
            return { w: r.width, h: r.height, children: s.querySelectorAll("*").length };
          })
        );
        assert.equal(boxes.length, figures);
        for (const b of boxes) {
          assert.ok(b.w > 100 && b.h > 50 && b.children > 10, JSON.stringify(b));
        }

        // Per-pair task tables enter the DOM only when their pair is opened.
        const pairs = doc.comparisons!.pairs;
        assert.ok(pairs.length >= 2);
        assert.equal(
          await page.evaluate(() => document.querySelectorAll("details.pair").length),
          pairs.length,
        );
        assert.equal(
          await page.evaluate(() => document.querySelectorAll("details.pair tr").length),
          0,
        );
        await page.click("details.pair:nth-of-type(2) > summary");
        const pairShown = await waitForValue(page, () => {
          const d = document.querySelectorAll("details.pair")[1];
          const rows = d.querySelectorAll("tbody tr");
          return rows.length > 0
            ? {
              rows: rows.length,
              last: rows[rows.length - 1].querySelector("td, th")!.textContent,
            }
            : null;
        });
        assert.deepEqual(pairShown, { rows: pairs[1].tasks.length + 1, last: "overall" });
        assert.equal(
          await page.evaluate(() => document.querySelectorAll("details.pair tr").length),
          pairs[1].tasks.length + 2,
        );

        // The count and a paged list: never more rows in the DOM than a page.
        assert.equal(await countText(page), `${rows.length} of ${rows.length} rows`);
        assert.equal(
          await page.evaluate(() => document.querySelectorAll("#ex-list > li").length),
          50,
        );

        // Filter by task, then also by verdict: counts computed from the document.
        const task = "zebra_puzzles";
        const byTask = rows.filter((r) => r.task === task).length;
        const byTaskWrong = rows.filter((r) => r.task === task && r.verdict === "wrong").length;
        assert.ok(byTask > 0 && byTaskWrong > 0 && byTaskWrong < byTask);
        await selectValue(page, "ex-task", await optionValue(page, "ex-task", task));
        assert.equal(await countText(page), `${byTask} of ${rows.length} rows`);
        await selectValue(page, "ex-verdict", "0");
        assert.equal(await countText(page), `${byTaskWrong} of ${rows.length} rows`);
        const shown = await page.evaluate(() =>
          [...document.querySelectorAll("#ex-list details")].map((d) => ({
            task: d.querySelector(".ex-task")!.textContent,
            verdict: d.querySelector(".tag")!.textContent,
          }))
        );
        assert.equal(shown.length, Math.min(50, byTaskWrong));
        for (const s of shown) {
          assert.match(s.task!, /^zebra_puzzles #\d+$/);
          assert.equal(s.verdict, "wrong");
        }
        // Run, failure class and disagreement filters.
        await selectValue(page, "ex-task", "");
        await selectValue(page, "ex-verdict", "");
        const run = rows[0].run;
        await selectValue(page, "ex-run", await optionValue(page, "ex-run", run));
        const failure = rows.find((r) => r.run === run && r.failure !== null)!.failure!;
        await selectValue(page, "ex-failure", await optionValue(page, "ex-failure", failure));
        assert.equal(
          await countText(page),
          `${
            rows.filter((r) => r.run === run && r.failure === failure).length
          } of ${rows.length} rows`,
        );
        await selectValue(page, "ex-run", "");
        await selectValue(page, "ex-failure", "");
        await selectValue(page, "ex-disagree", "1");
        assert.equal(
          await countText(page),
          `${rows.filter((r) => r.disagreement === true).length} of ${rows.length} rows`,
        );
        await selectValue(page, "ex-disagree", "");
        const subset = rows.find((r) => r.subset !== null)!.subset!;
        await selectValue(page, "ex-subset", await optionValue(page, "ex-subset", subset));
        assert.equal(
          await countText(page),
          `${rows.filter((r) => r.subset === subset).length} of ${rows.length} rows`,
        );
        await selectValue(page, "ex-subset", "");

        // Search (typed with key events, case-insensitive) finds the one response with the needle.
        const needleRows = rows.filter((r) =>
          r.response.toLowerCase().includes("needle 4711") ||
          doc.examples.questions.some((q) =>
            q.task === r.task && q.example_index === r.example_index &&
            q.text.toLowerCase().includes("needle 4711")
          )
        );
        assert.equal(needleRows.length, 1);
        await page.locator("#ex-search").pressSequentially("NEEDLE 4711");
        await page.keyboard.press("Enter");
        assert.equal(await countText(page), `1 of ${rows.length} rows`);
        // Expanding the row (keyboard: focus the summary, Enter) shows the full response exactly.
        await page.focus("#ex-list details summary");
        await page.keyboard.press("Enter");
        const opened = await waitForValue(page, () => {
          const d = document.querySelector("#ex-list details") as HTMLDetailsElement;
          const r = d.querySelector("pre.ex-response");
          return d.open && r
            ? { text: r.textContent, marks: r.querySelectorAll("mark").length }
            : null;
        });
        assert.equal(opened.text, rows[7].response);
        assert.equal(opened.marks, 1);
        const parts = await page.evaluate(() => ({
          q: document.querySelector("#ex-list pre.ex-question")!.textContent,
          x: document.querySelector("#ex-list pre.ex-extracted")!.textContent,
          t: document.querySelector("#ex-list pre.ex-target")!.textContent,
        }));
        const q = doc.examples.questions.find((q) =>
          q.task === rows[7].task && q.example_index === rows[7].example_index
        )!;
        assert.equal(parts.q, q.text);
        assert.equal(parts.x, rows[7].extracted ?? "(none: the scorer found no answer)");
        assert.equal(parts.t, rows[7].target);
        await page.screenshot({ path: join(screenshotDir(dir), "report_row_expanded.png") });

        // Hostile text renders as text: the exact characters, no element made of it, no alert,
        // no request.
        await page.evaluate(() => {
          const s = document.getElementById("ex-search") as HTMLInputElement;
          s.value = "";
        });
        await page.locator("#ex-search").pressSequentially("onerror=alert(2)");
        await page.keyboard.press("Enter");
        assert.equal(await countText(page), `1 of ${rows.length} rows`);
        await page.click("#ex-list details summary");
        const hostile = await waitForValue(page, () => {
          const pre = document.querySelector("#ex-list pre.ex-response");
          return pre
            ? {
              text: pre.textContent,
              extracted: document.querySelector("#ex-list pre.ex-extracted")!.textContent,
              summary: document.querySelector("#ex-list summary .ex-answer code")!.textContent,
              elements:
                document.querySelectorAll("#ex-list img, #ex-list script, #ex-list b, #ex-list svg")
                  .length,
              alerts: (window as unknown as { __alerts: string[] }).__alerts.length,
            }
            : null;
        });
        assert.equal(hostile.text, HOSTILE);
        assert.equal(hostile.extracted, rows[12].extracted);
        assert.equal(hostile.summary, rows[12].extracted);
        assert.equal(hostile.elements, 0);
        assert.equal(hostile.alerts, 0);
        assert.deepEqual(log.dialogs, []);
        assert.deepEqual(log.requests.map((r) => r.url), [new URL(`file://${file}`).href]);

        // Escape (in the search box) clears the search; "/" focuses it from anywhere.
        await page.focus("#ex-search");
        await page.keyboard.press("Escape");
        assert.equal(await countText(page), `${rows.length} of ${rows.length} rows`);
        await page.evaluate(() => (document.activeElement as HTMLElement).blur());
        await page.keyboard.press("Space");
        await page.keyboard.type("/");
        assert.equal(await page.evaluate(() => document.activeElement?.id), "ex-search");

        // Paging: the next page shows rows 51–100.
        await page.click(".ex-pager .ex-next");
        const pageInfo = await page.evaluate(() => ({
          search: (document.getElementById("ex-search") as HTMLInputElement).value,
          active: document.activeElement?.className,
          label: document.querySelector(".ex-pager .ex-page")!.textContent,
          first: document.querySelector("#ex-list .num")!.textContent,
          items: document.querySelectorAll("#ex-list > li").length,
        }));
        assert.deepEqual(pageInfo, {
          search: "",
          active: "ex-next",
          label: `Page 2 of ${Math.ceil(rows.length / 50)}`,
          first: "51.",
          items: 50,
        });
        assert.deepEqual(log.errors(), []);

        // Screenshots: the top of the page and the example browser.
        const shots = screenshotDir(dir);
        await page.evaluate(() => scrollTo(0, 0));
        const top = await page.screenshot({ path: join(shots, "report_top.png") });
        assert.deepEqual(pngSize(top), { w: 1400, h: 1000 });
        assert.ok(top.length > 30_000, `screenshot of ${top.length} bytes looks empty`);
        await page.evaluate(() => document.getElementById("examples")!.scrollIntoView());
        await page.screenshot({ path: join(shots, "report_examples.png") });
        const full = await page.screenshot({
          path: join(shots, "report_full.png"),
          fullPage: true,
        });
        assert.ok(pngSize(full).h > 3000);
        if (Deno.env.get("RUNLENS_REPORT_SCREENSHOTS")) console.log(`screenshots in ${shots}`);
      } finally {
        await browser.close();
      }
    });
  },
);

dataTest("report.html in Chromium: gzip-embedded texts and a sampled page", async (dataDir) => {
  await ensureChromium();
  const doc = makeDoc(dataDir);
  const rows = doc.examples.rows;
  const total = rows.reduce((s, r) => s + r.response.length, 0);
  await withTempDir(async (dir) => {
    const gz = join(dir, "gz.html"), sampled = join(dir, "sampled.html");
    Deno.writeTextFileSync(gz, renderReportHtml(doc, { encoding: "gzip-base64" }));
    Deno.writeTextFileSync(sampled, renderReportHtml(doc, { budgetChars: Math.floor(total / 5) }));
    const browser = await launchChromium();
    try {
      const { page, log } = await open(browser, gz);
      assert.equal(
        await page.evaluate(() => document.getElementById("report-texts")!.dataset.encoding),
        "gzip-base64",
      );
      // Expanding before the texts are read waits for them rather than failing.
      await page.click("#ex-list details summary");
      const text = await waitForValue(
        page,
        () => document.querySelector("#ex-list pre.ex-response")?.textContent,
      );
      assert.equal(text, rows[0].response);
      await page.locator("#ex-search").pressSequentially("needle 4711");
      await page.keyboard.press("Enter");
      await page.waitForFunction(() =>
        document.getElementById("ex-count")!.textContent!.startsWith("1 of")
      );
      assert.deepEqual(log.errors(), []);

      const { page: s, log: sLog } = await open(browser, sampled);
      const note = await s.evaluate(() =>
        document.getElementById("ex-sample-note")?.textContent ?? null
      );
      assert.ok(note !== null && note.startsWith("Sampled:"), String(note));
      const kept = Number(/holds ([\d,]+) of/.exec(note)![1].replaceAll(",", ""));
      assert.ok(kept > 0 && kept < rows.length && kept % 3 === 0, String(kept)); // whole examples × 3 runs
      assert.equal(
        await countText(s),
        `${kept.toLocaleString("en-US")} of ${kept.toLocaleString("en-US")} rows`,
      );
      assert.deepEqual(sLog.errors(), []);
    } finally {
      await browser.close();
    }
  });
});
