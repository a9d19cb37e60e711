/**
 * Screenshots of a report page for the README, taken in headless Chromium: the top of the
 * page (title, the runs summary with headline numbers and intervals, the leaderboard) and the
 * example browser filtered to one task's wrong answers with the first row expanded (question,
 * response, extracted answer, target). A script, not part of `deno task main`: the PNGs are
 * committed as taken (`docs/report_summary.png`, `docs/report_examples.png`) and only retaken
 * by hand.
 *
 * ```sh
 * deno run --allow-all lib/report/html/screenshot.ts [results/report/report.html] [docs]
 *   [--task causal_understanding]
 * ```
 *
 * @example
 * ```ts ignore
 * import { reportScreenshots } from "@runlens/report/html/screenshot.ts";
 * await reportScreenshots("results/report/report.html", "docs"); // [summary.png, examples.png]
 * ```
 * @module
 */
import { parseArgs } from "node:util";
import { join, resolve } from "node:path";
import { ensureChromium } from "../../setup/chromium.ts";
import { launchChromium, PageLog } from "../../setup/chromium_browser.ts";

/** Take the two screenshots of `html` into `dir`; returns their paths. Throws on a page error. */
export async function reportScreenshots(
  html: string,
  dir: string,
  opts: { task?: string; width?: number; height?: number } = {},
): Promise<string[]> {
  await ensureChromium();
  Deno.mkdirSync(dir, { recursive: true });
  const browser = await launchChromium({
    width: opts.width ?? 1600,
    height: opts.height ?? 1000,
  });
  try {
    const page = await browser.newPage();
    const log = new PageLog(page);
    await page.goto(new URL(`file://${resolve(html)}`).href);
    await page.waitForFunction(() => document.documentElement.dataset.texts === "ready");
    const summary = join(dir, "report_summary.png");
    await page.screenshot({ path: summary });

    const task = opts.task ?? "causal_understanding";
    await page.evaluate((task) => {
      const set = (id: string, match: (o: HTMLOptionElement) => boolean) => {
        const s = document.getElementById(id) as HTMLSelectElement;
        const o = [...s.options].find(match);
        if (!o) throw new Error(`no option for ${id}`);
        s.value = o.value;
        s.dispatchEvent(new Event("change", { bubbles: true }));
      };
      set("ex-task", (o) => o.textContent!.startsWith(`${task} (`));
      set("ex-verdict", (o) => o.value === "0");
      document.getElementById("examples")!.scrollIntoView();
    }, task);
    await page.click("#ex-list details summary");
    await page.waitForFunction(() => document.querySelector("#ex-list pre.ex-response") !== null);
    await page.evaluate(() => document.getElementById("examples")!.scrollIntoView());
    await page.mouse.move(0, 0); // no hover highlight on the row just clicked
    const examples = join(dir, "report_examples.png");
    await page.screenshot({ path: examples });
    const errors = log.errors();
    if (errors.length > 0) throw new Error(`page errors: ${errors.join("; ")}`);
    return [summary, examples];
  } finally {
    await browser.close();
  }
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({
    args: Deno.args,
    allowPositionals: true,
    options: { task: { type: "string" } },
  });
  const [html = "results/report/report.html", dir = "docs"] = positionals;
  const files = await reportScreenshots(html, dir, { task: values.task });
  console.log(files.join("\n"));
}
