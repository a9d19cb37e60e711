/**
 * Screenshots of a report page for the README, taken in headless Chromium: the first screen
 * (title, the runs with their headline numbers and intervals) and the example browser showing
 * two runs side by side — runs A and B (the first two, or `a`, `b`), filtered to the examples
 * one gets right and the other wrong (of `task`, when given), the first one opened: the
 * question, the target and both responses with their verdicts. A script, not part of
 * `deno task main`: the PNGs are committed as taken (`docs/report_summary.png`,
 * `docs/report_examples.png`) and only retaken by hand.
 *
 * Its command line: `deno run --allow-all lib/report/html/screenshot.ts --help`.
 *
 * @example
 * ```ts ignore
 * import { reportScreenshots } from "@runlens/report/html/screenshot.ts";
 * await reportScreenshots("results/report/report.html", "docs"); // [summary.png, examples.png]
 * ```
 * @module
 */
import { type Command, runCommand } from "../../core/command.ts";
import { join, resolve } from "node:path";
import { ensureChromium } from "../../setup/chromium.ts";
import { launchChromium, PageLog } from "../../setup/chromium_browser.ts";

/** Take the two screenshots of `html` into `dir`; returns their paths. Throws on a page error. */
export async function reportScreenshots(
  html: string,
  dir: string,
  opts: { task?: string; a?: string; b?: string; width?: number; height?: number } = {},
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
    await page.waitForFunction(() => document.querySelector("#ex-list .ex-sides") !== null);
    await page.evaluate(() => document.getElementById("ex-modes")!.scrollIntoView());
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

/** The options of {@link screenshotCommand}. */
interface ScreenshotArgs {
  html: string;
  dir: string;
  task?: string;
  a?: string;
  b?: string;
}

/** `lib/report/html/screenshot.ts`. */
export const screenshotCommand: Command<ScreenshotArgs> = {
  name: "screenshot",
  invocation: "deno run --allow-all lib/report/html/screenshot.ts",
  summary: "Take the README's two screenshots of a report page in headless Chromium: its top, " +
    "and the example browser with two runs side by side on the examples one gets right and " +
    "the other wrong, the first one opened.",
  usage: "[html] [dir] [--task TASK] [--a RUN] [--b RUN]",
  arguments: {
    html: "the report page (default: results/report/report.html)",
    dir: "where the PNGs go (default: docs)",
  },
  options: {
    task: {
      type: "string",
      value: "TASK",
      description: "only this task's examples",
      default: "every task",
    },
    a: { type: "string", value: "RUN", description: "run A", default: "the first run" },
    b: { type: "string", value: "RUN", description: "run B", default: "the second run" },
  },
  prints: "The paths of the two PNGs written (report_summary.png, report_examples.png).",
  examples: [
    "deno run --allow-all lib/report/html/screenshot.ts results/report/report.html docs " +
    "--task causal_understanding",
  ],
  failure: "the page cannot be opened, or it reports an error",
  parse: ({ values, positionals }) => {
    if (positionals.length > 2) return `unexpected argument ${positionals[2]}`;
    const [html = "results/report/report.html", dir = "docs"] = positionals;
    const text = (k: string) => values[k] as string | undefined;
    return { html, dir, task: text("task"), a: text("a"), b: text("b") };
  },
  run: async ({ html, dir, ...opts }) => {
    const files = await reportScreenshots(html, dir, opts);
    console.log(files.join("\n"));
    return 0;
  },
};

if (import.meta.main) Deno.exit(await runCommand(screenshotCommand, Deno.args));
