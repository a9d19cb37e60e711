/**
 * Test helpers for report pages in headless Chromium (playwright-core, launched by
 * lib/setup/chromium_browser.ts): open a file and wait for the first render, wait for a value,
 * read the example browser's count, set a filter.
 *
 * @example In a test (not run as a doc test: it starts a browser)
 * ```ts ignore
 * const { page, log } = await open(browser, "/tmp/report.html");
 * await selectValue(page, "ex-task", await optionValue(page, "ex-task", "nycc"));
 * await countText(page); // "12 of 90 rows"
 * log.errors(); // []
 * ```
 * @module
 */
import type { BrowserContext, Page } from "playwright-core";
import { PageLog } from "@runlens/setup/chromium_browser.ts";

/** Open `file` in a fresh page (logged; alerts recorded) and wait for the first render. */
export async function open(
  browser: BrowserContext,
  file: string,
): Promise<{ page: Page; log: PageLog }> {
  const page = await browser.newPage();
  const log = new PageLog(page);
  await page.addInitScript(
    "window.__alerts = []; window.alert = (m) => window.__alerts.push(String(m));",
  );
  await page.goto(new URL(`file://${file}`).href);
  await page.waitForFunction(() => document.documentElement.dataset.ready === "true");
  return { page, log };
}

/** Wait until `fn` (run in the page) returns a truthy value; that value, as JSON. */
export async function waitForValue<T>(page: Page, fn: () => T): Promise<NonNullable<T>> {
  const handle = await page.waitForFunction(fn);
  return await handle.jsonValue() as NonNullable<T>;
}

export const countText = (page: Page) =>
  page.evaluate(() => document.getElementById("ex-count")!.textContent);

export async function selectValue(page: Page, id: string, value: string): Promise<void> {
  await page.evaluate(([id, value]) => {
    const s = document.getElementById(id) as HTMLSelectElement;
    s.value = value;
    s.dispatchEvent(new Event("change", { bubbles: true }));
  }, [id, value]);
}

/** The value of the option whose label starts with `label (`. */
export function optionValue(page: Page, id: string, label: string): Promise<string> {
  return page.evaluate(([id, label]) => {
    const s = document.getElementById(id) as HTMLSelectElement;
    const o = [...s.options].find((o) => o.textContent!.startsWith(`${label} (`));
    if (!o) throw new Error(`no option ${label} in #${id}`);
    return o.value;
  }, [id, label]);
}
