/**
 * Screenshots of a report page for the README, taken in headless Chromium: the top of the
 * page (title, the runs summary with headline numbers and intervals, the leaderboard) and the
 * example browser filtered to one task's wrong answers with the first row expanded (question,
 * response, extracted answer, target). A script, not part of `deno task main`: the PNGs are
 * committed as taken (`docs/report_summary.png`, `docs/report_examples.png`) and only retaken
 * by hand.
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

/** `lib/report/html/screenshot.ts`. */
export const screenshotCommand: Command<{ html: string; dir: string; task?: string }> = {
  name: "screenshot",
  invocation: "deno run --allow-all lib/report/html/screenshot.ts",
  summary: "Take the README's two screenshots of a report page in headless Chromium: its top, " +
    "and the example browser on one task's wrong answers with a row expanded.",
  usage: "[html] [dir] [--task TASK]",
  arguments: {
    html: "the report page (default: results/report/report.html)",
    dir: "where the PNGs go (default: docs)",
  },
  options: {
    task: {
      type: "string",
      value: "TASK",
      description: "the task whose wrong answers are shown",
      default: "causal_understanding",
    },
  },
  prints: "The paths of the two PNGs written (report_summary.png, report_examples.png).",
  examples: ["deno run --allow-all lib/report/html/screenshot.ts results/report/report.html docs"],
  failure: "the page cannot be opened, or it reports an error",
  parse: ({ values, positionals }) => {
    if (positionals.length > 2) return `unexpected argument ${positionals[2]}`;
    const [html = "results/report/report.html", dir = "docs"] = positionals;
    return { html, dir, task: values.task as string | undefined };
  },
  run: async ({ html, dir, task }) => {
    const files = await reportScreenshots(html, dir, { task });
    console.log(files.join("\n"));
    return 0;
  },
};

if (import.meta.main) Deno.exit(await runCommand(screenshotCommand, Deno.args));
