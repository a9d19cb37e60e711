/**
 * Screenshots of a report page for the README, taken in headless Chromium: the first screen
 * (title, the runs with their headline numbers and intervals) and the example browser showing
 * two runs side by side — runs A and B (the first two, or `a`, `b`), filtered to the examples
 * one gets right and the other wrong (of `task`, when given), the first one opened: the
 * question, the target and both responses with their verdicts. A script, not part of
 * `deno task main`: the PNGs are committed as taken (`docs/report_summary.png`,
 * `docs/report_examples.png`) and only retaken by hand.
 *
 * ```sh
 * deno run --allow-all lib/report/html/screenshot.ts [results/report/report.html] [docs]
 *   [--task causal_understanding] [--a RUN] [--b RUN]
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
import { ChromiumBrowser } from "../../setup/chromium_driver.ts";

/** Take the two screenshots of `html` into `dir`; returns their paths. Throws on a page error. */
export async function reportScreenshots(
  html: string,
  dir: string,
  opts: { task?: string; a?: string; b?: string; width?: number; height?: number } = {},
): Promise<string[]> {
  await ensureChromium();
  Deno.mkdirSync(dir, { recursive: true });
  const browser = await ChromiumBrowser.launch({
    width: opts.width ?? 1600,
    height: opts.height ?? 1000,
  });
  try {
    const page = await browser.newPage();
    await page.goto(new URL(`file://${resolve(html)}`).href);
    await page.waitFor(() => document.documentElement.dataset.texts === "ready");
    const summary = join(dir, "report_summary.png");
    await page.screenshot(summary);

    await page.click("#ex-mode-pairs");
    await page.evaluate((want: { task: string | null; a: string | null; b: string | null }) => {
      const set = (id: string, match: (o: HTMLOptionElement) => boolean) => {
        const s = document.getElementById(id) as HTMLSelectElement;
        const o = [...s.options].find(match);
        if (!o) throw new Error(`no option for ${id}`);
        s.value = o.value;
        s.dispatchEvent(new Event("change", { bubbles: true }));
      };
      // an option reads "label (count)", a task of several benchmarks "benchmark · task (count)"
      const named = (name: string) => (o: HTMLOptionElement) => {
        const label = o.textContent!.replace(/ \([\d,]+\)$/, "");
        return label === name || label.endsWith(` · ${name}`);
      };
      if (want.a) set("ex-run-a", named(want.a));
      if (want.b) set("ex-run-b", named(want.b));
      if (want.task) set("ex-task", named(want.task));
      set("ex-pair", (o) => o.value === "d");
    }, { task: opts.task ?? null, a: opts.a ?? null, b: opts.b ?? null });
    await page.click("#ex-list details summary");
    await page.waitFor(() => document.querySelector("#ex-list .ex-sides") !== null);
    await page.evaluate(() => document.getElementById("ex-modes")!.scrollIntoView());
    const examples = join(dir, "report_examples.png");
    await page.screenshot(examples);
    const errors = page.errors();
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
    options: { task: { type: "string" }, a: { type: "string" }, b: { type: "string" } },
  });
  const [html = "results/report/report.html", dir = "docs"] = positionals;
  const files = await reportScreenshots(html, dir, { task: values.task, a: values.a, b: values.b });
  console.log(files.join("\n"));
}
