/**
 * Test helpers for report pages in headless Chromium (lib/setup/chromium_driver.ts): open a
 * file and wait for the first render, read the example browser's count, set a filter.
 *
 * @example In a test (not run as a doc test: it starts a browser)
 * ```ts ignore
 * const page = await open(browser, "/tmp/report.html");
 * await selectValue(page, "ex-task", await optionValue(page, "ex-task", "nycc"));
 * await countText(page); // "12 of 90 rows"
 * ```
 * @module
 */
import type { ChromiumBrowser, ChromiumPage } from "@runlens/setup/chromium_driver.ts";

/** Open `file` in a fresh page (alerts recorded) and wait for the first render. */
export async function open(browser: ChromiumBrowser, file: string): Promise<ChromiumPage> {
  const page = await browser.newPage();
  await page.addInitScript(
    "window.__alerts = []; window.alert = (m) => window.__alerts.push(String(m));",
  );
  await page.goto(new URL(`file://${file}`).href);
  await page.waitFor(() => document.documentElement.dataset.ready === "true");
  return page;
}

export const countText = (page: ChromiumPage) =>
  page.evaluate(() => document.getElementById("ex-count")!.textContent);

export async function selectValue(page: ChromiumPage, id: string, value: string): Promise<void> {
  await page.evaluate(
    (id: string, value: string) => {
      const s = document.getElementById(id) as HTMLSelectElement;
      s.value = value;
      s.dispatchEvent(new Event("change", { bubbles: true }));
    },
    id,
    value,
  );
}

/** The value of the option whose label starts with `label (`. */
export function optionValue(page: ChromiumPage, id: string, label: string): Promise<string> {
  return page.evaluate(
    (id: string, label: string) => {
      const s = document.getElementById(id) as HTMLSelectElement;
      const o = [...s.options].find((o) => o.textContent!.startsWith(`${label} (`));
      if (!o) throw new Error(`no option ${label} in #${id}`);
      return o.value;
    },
    id,
    label,
  );
}
