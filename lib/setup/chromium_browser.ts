/// <reference lib="dom" />
/**
 * Debian's headless Chromium driven by playwright-core, for the report's real-browser tests, its
 * screenshots and its benchmark. playwright-core downloads no browser: {@link launchChromium}
 * points it at `/usr/bin/chromium` (installed by `chromium.ts`) with the flags that work on our
 * machines ({@link CHROMIUM_FLAGS}); Playwright gives it a fresh profile
 * (`--user-data-dir` in a temporary directory, removed on close) and talks to it over a pipe.
 *
 * {@link PageLog} records what a page did from before its first navigation: the requests it
 * made (Playwright reports no request for a `data:` URL: it never leaves the page), console
 * messages and browser log entries (CSP violations, failed loads), uncaught exceptions, and
 * JavaScript dialogs (recorded and dismissed).
 *
 * @example
 * ```ts
 * import { launchChromium, PageLog } from "@runlens/setup/chromium_browser.ts";
 * const dir = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${dir}/p.html`, "<title>T</title><button onclick='this.textContent=1'>x</button>");
 * const browser = await launchChromium();
 * try {
 *   const page = await browser.newPage();
 *   const log = new PageLog(page);
 *   await page.goto(`file://${dir}/p.html`);
 *   await page.click("button");
 *   console.log(await page.title(), log.requests, log.errors()); // "T", [the file], []
 *   await page.screenshot({ path: `${dir}/p.png` });
 * } finally {
 *   await browser.close();
 * }
 * ```
 * Importing this module brings in the DOM types, for the functions run in pages.
 *
 * @module
 */
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { CHROMIUM_PATH } from "./chromium.ts";

/**
 * Flags Chromium is started with, besides Playwright's own (`--headless`, `--no-sandbox`,
 * `--disable-background-networking`, `--disable-component-update`, `--no-first-run`, … are
 * among those too; they are repeated so the list stands on its own).
 */
export const CHROMIUM_FLAGS: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
  "--hide-scrollbars",
  "--force-device-scale-factor=1",
  "--mute-audio",
  "--disable-smooth-scrolling",
];

/** Options of {@link launchChromium}. */
export interface LaunchOptions {
  /** The browser executable (default `/usr/bin/chromium`). */
  executable?: string;
  /** Viewport of every page, CSS px at device scale 1 (default 1280 × 900). */
  width?: number;
  /** See `width`. */
  height?: number;
  /** Timeout of the launch and of each page action and wait, ms (default 30,000). */
  timeoutMs?: number;
  /** More command-line flags. */
  args?: string[];
}

/**
 * Start Chromium headless with a fresh profile. The result is one Playwright browser context:
 * `newPage()` opens a tab with the viewport and timeout asked for; `close()` ends the browser
 * and removes its profile (always close it: try/finally).
 *
 * @example
 * ```ts
 * import { launchChromium } from "@runlens/setup/chromium_browser.ts";
 * const browser = await launchChromium({ width: 1400, height: 1000 });
 * await browser.close();
 * ```
 */
export async function launchChromium(opts: LaunchOptions = {}): Promise<BrowserContext> {
  const timeout = opts.timeoutMs ?? 30_000;
  // A persistent context on "" is Playwright's fresh temporary profile, removed on close; and
  // closing this context ends the browser (closing a context of `launch()` would not).
  const context = await chromium.launchPersistentContext("", {
    executablePath: opts.executable ?? CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_FLAGS, ...(opts.args ?? [])],
    timeout,
    viewport: { width: opts.width ?? 1280, height: opts.height ?? 900 },
    deviceScaleFactor: 1,
  });
  context.setDefaultTimeout(timeout);
  return context;
}

/** A console message or browser log entry. */
export interface ConsoleEntry {
  /** `log`, `warning`, `error`, … (Playwright's message type). */
  level: string;
  /** The message text, with the URL it is about when there is one. */
  text: string;
}

/** A request the page made. */
export interface RequestEntry {
  /** The URL requested. */
  url: string;
  /** Playwright's resource type (`document`, `script`, `image`, `fetch`, …). */
  type: string;
}

/** What a page did since the log was attached (attach it before the first `goto`). */
export class PageLog {
  /** Every request the page made, in order (the page's own document first). */
  readonly requests: RequestEntry[] = [];
  /** Console messages and browser log entries, in order. */
  readonly console: ConsoleEntry[] = [];
  /** Uncaught exceptions (their stack, or message). */
  readonly exceptions: string[] = [];
  /** JavaScript dialogs that opened (`alert: 1`), each dismissed. */
  readonly dialogs: string[] = [];

  /** Start recording `page`. */
  constructor(page: Page) {
    page.on("request", (r) => this.requests.push({ url: r.url(), type: r.resourceType() }));
    page.on("console", (m) => {
      const url = m.location().url;
      this.console.push({ level: m.type(), text: url ? `${m.text()} (${url})` : m.text() });
    });
    page.on("pageerror", (e) => this.exceptions.push(e.stack ?? String(e)));
    page.on("dialog", (d) => {
      this.dialogs.push(`${d.type()}: ${d.message()}`);
      d.dismiss().catch(() => {});
    });
  }

  /**
   * Console errors, browser log errors and uncaught exceptions, as text (empty: a clean page).
   *
   * @example
   * ```ts ignore
   * assert.deepEqual(log.errors(), []);
   * ```
   */
  errors(): string[] {
    return [
      ...this.console.filter((c) => c.level === "error").map((c) => `console: ${c.text}`),
      ...this.exceptions.map((e) => `exception: ${e}`),
    ];
  }
}
