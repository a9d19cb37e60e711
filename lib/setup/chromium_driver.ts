/// <reference lib="dom" />
/**
 * A small headless-Chromium driver speaking the Chrome DevTools Protocol (CDP) over a WebSocket,
 * straight from Deno: no npm dependency, no browser download. It starts Debian's
 * `/usr/bin/chromium` (see `chromium.ts`) with the flags that work on our machines
 * (`--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
 * --disable-background-networking --disable-component-update --disable-sync`, a fresh
 * `--user-data-dir`, `--remote-debugging-port=0`), reads the DevTools port from the profile's
 * `DevToolsActivePort` file, opens one page per {@link ChromiumBrowser.newPage} (a flat CDP
 * session on a new target) and records, from before the first navigation:
 * - every network request the page makes (`Network.requestWillBeSent`, data: URLs included),
 * - console messages (`Runtime.consoleAPICalled`) and browser log entries (`Log.entryAdded`:
 *   CSP violations, failed loads, …),
 * - uncaught exceptions (`Runtime.exceptionThrown`),
 * - JavaScript dialogs (`alert`, `confirm`: recorded and dismissed).
 *
 * Pages are driven with real input events (`Input.dispatchMouseEvent` at an element's centre,
 * `Input.dispatchKeyEvent` per character), evaluated with `Runtime.evaluate`, and captured with
 * `Page.captureScreenshot`.
 *
 * @example
 * ```ts
 * import { ChromiumBrowser } from "@runlens/setup/chromium_driver.ts";
 * const dir = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${dir}/p.html`, "<title>T</title><button onclick='this.textContent=1'>x</button>");
 * const browser = await ChromiumBrowser.launch();
 * try {
 *   const page = await browser.newPage();
 *   await page.goto(`file://${dir}/p.html`);
 *   await page.click("button");
 *   console.log(await page.evaluate(() => document.title), page.requests, page.errors());
 *   await page.screenshot(`${dir}/p.png`);
 * } finally {
 *   await browser.close();
 * }
 * ```
 * @module
 */
import { join } from "node:path";
import { CHROMIUM_PATH } from "./chromium.ts";

/** Flags Chromium is started with (plus the profile dir, port and window size). */
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

/** Options of {@link ChromiumBrowser.launch}. */
export interface LaunchOptions {
  /** The browser executable (default `/usr/bin/chromium`). */
  executable?: string;
  /** Window (and initial viewport) size in CSS px (default 1280 × 900). */
  width?: number;
  /** See `width`. */
  height?: number;
  /** How long to wait for the browser and for each page operation, ms (default 30,000). */
  timeoutMs?: number;
  /** More command-line flags. */
  args?: string[];
}

/** A console message or browser log entry. */
export interface ConsoleEntry {
  /** `log`, `warning`, `error`, … (console) or the log entry's level. */
  level: string;
  /** `console` (the page called console.*) or `log` (the browser: CSP, network, …). */
  source: "console" | "log";
  /** The message text. */
  text: string;
}

/** A request the page made. */
export interface RequestEntry {
  /** The URL requested. */
  url: string;
  /** CDP resource type (`Document`, `Script`, `Image`, `Fetch`, …) when known. */
  type: string | null;
}

interface Pending {
  resolve: (v: Record<string, unknown>) => void;
  reject: (e: Error) => void;
  method: string;
}

type Listener = (params: Record<string, unknown>, sessionId: string | undefined) => void;

class CdpConnection {
  #ws: WebSocket;
  #nextId = 1;
  #pending = new Map<number, Pending>();
  #listeners = new Map<string, Set<Listener>>();
  #closed: Error | null = null;

  private constructor(ws: WebSocket) {
    this.#ws = ws;
    ws.onmessage = (ev) => this.#onMessage(String(ev.data));
    ws.onclose = () => this.#fail(new Error("DevTools connection closed"));
  }

  static open(url: string, timeoutMs: number): Promise<CdpConnection> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      const timer = setTimeout(
        () => reject(new Error(`no DevTools connection to ${url}`)),
        timeoutMs,
      );
      ws.onopen = () => {
        clearTimeout(timer);
        resolve(new CdpConnection(ws));
      };
      ws.onerror = (e) => {
        clearTimeout(timer);
        reject(new Error(`DevTools WebSocket error: ${(e as ErrorEvent).message ?? e.type}`));
      };
    });
  }

  #onMessage(data: string): void {
    const msg = JSON.parse(data) as {
      id?: number;
      method?: string;
      params?: Record<string, unknown>;
      result?: Record<string, unknown>;
      error?: { message: string; data?: string };
      sessionId?: string;
    };
    if (msg.id !== undefined) {
      const p = this.#pending.get(msg.id);
      if (!p) return;
      this.#pending.delete(msg.id);
      if (msg.error) {
        p.reject(
          new Error(
            `${p.method}: ${msg.error.message}${msg.error.data ? ` (${msg.error.data})` : ""}`,
          ),
        );
      } else p.resolve(msg.result ?? {});
      return;
    }
    if (msg.method) {
      for (const l of this.#listeners.get(msg.method) ?? []) l(msg.params ?? {}, msg.sessionId);
    }
  }

  #fail(e: Error): void {
    if (this.#closed) return;
    this.#closed = e;
    for (const p of this.#pending.values()) p.reject(e);
    this.#pending.clear();
  }

  send(
    method: string,
    params: Record<string, unknown> = {},
    sessionId?: string,
  ): Promise<Record<string, unknown>> {
    if (this.#closed) return Promise.reject(this.#closed);
    const id = this.#nextId++;
    const msg: Record<string, unknown> = { id, method, params };
    if (sessionId) msg.sessionId = sessionId;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject, method });
      this.#ws.send(JSON.stringify(msg));
    });
  }

  on(method: string, l: Listener): () => void {
    let set = this.#listeners.get(method);
    if (!set) this.#listeners.set(method, set = new Set());
    set.add(l);
    return () => set!.delete(l);
  }

  close(): void {
    this.#fail(new Error("DevTools connection closed"));
    try {
      this.#ws.close();
    } catch { /* already closed */ }
  }
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

/** A running headless Chromium. Always {@link ChromiumBrowser.close} it (try/finally). */
export class ChromiumBrowser {
  #proc: Deno.ChildProcess;
  #conn: CdpConnection;
  #profile: string;
  #timeoutMs: number;
  #width: number;
  #height: number;
  #stderr: string[];

  private constructor(
    proc: Deno.ChildProcess,
    conn: CdpConnection,
    profile: string,
    opts: { timeoutMs: number; width: number; height: number; stderr: string[] },
  ) {
    this.#proc = proc;
    this.#conn = conn;
    this.#profile = profile;
    this.#timeoutMs = opts.timeoutMs;
    this.#width = opts.width;
    this.#height = opts.height;
    this.#stderr = opts.stderr;
  }

  /**
   * Start Chromium headless with a fresh profile and connect to it.
   *
   * @example
   * ```ts
   * const browser = await ChromiumBrowser.launch({ width: 1400, height: 1000 });
   * await browser.close();
   * ```
   */
  static async launch(opts: LaunchOptions = {}): Promise<ChromiumBrowser> {
    const width = opts.width ?? 1280, height = opts.height ?? 900;
    const timeoutMs = opts.timeoutMs ?? 30_000;
    const profile = Deno.makeTempDirSync({ prefix: "runlens_chromium_" });
    const args = [
      ...CHROMIUM_FLAGS,
      `--user-data-dir=${profile}`,
      "--remote-debugging-port=0",
      `--window-size=${width},${height}`,
      ...(opts.args ?? []),
      "about:blank",
    ];
    const proc = new Deno.Command(opts.executable ?? CHROMIUM_PATH, {
      args,
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    // Drain stderr (so the browser never blocks on a full pipe); keep the tail for errors.
    const stderr: string[] = [];
    (async () => {
      const dec = new TextDecoder();
      for await (const chunk of proc.stderr) {
        stderr.push(dec.decode(chunk));
        if (stderr.length > 50) stderr.shift();
      }
    })().catch(() => {});
    const portFile = join(profile, "DevToolsActivePort");
    const deadline = Date.now() + timeoutMs;
    let wsUrl: string | null = null;
    let exited = false;
    proc.status.then(() => exited = true);
    while (Date.now() < deadline && !exited) {
      try {
        const [port, path] = Deno.readTextFileSync(portFile).trim().split("\n");
        if (port && path) {
          wsUrl = `ws://127.0.0.1:${port}${path}`;
          break;
        }
      } catch { /* not written yet */ }
      await new Promise((r) => setTimeout(r, 25));
    }
    if (!wsUrl) {
      try {
        proc.kill("SIGKILL");
      } catch { /* gone */ }
      await proc.status;
      Deno.removeSync(profile, { recursive: true });
      throw new Error(
        `Chromium did not open its DevTools port (${exited ? "it exited" : "timeout"}); ` +
          `stderr:\n${stderr.join("").slice(-2000)}`,
      );
    }
    const conn = await CdpConnection.open(wsUrl, timeoutMs);
    return new ChromiumBrowser(proc, conn, profile, { timeoutMs, width, height, stderr });
  }

  /** The last lines Chromium wrote to stderr (for diagnostics). */
  get stderr(): string {
    return this.#stderr.join("");
  }

  /**
   * A new tab with a viewport of the launch size; its network, console and exception
   * recorders are on before anything loads.
   *
   * @example
   * ```ts ignore
   * const page = await browser.newPage();
   * await page.goto("file:///tmp/report.html");
   * ```
   */
  async newPage(): Promise<ChromiumPage> {
    const { targetId } = await this.#conn.send("Target.createTarget", { url: "about:blank" }) as {
      targetId: string;
    };
    const { sessionId } = await this.#conn.send("Target.attachToTarget", {
      targetId,
      flatten: true,
    }) as { sessionId: string };
    const page = new ChromiumPage(this.#conn, sessionId, targetId, this.#timeoutMs);
    await page.init(this.#width, this.#height);
    return page;
  }

  /** Close the browser, wait for it to exit and remove its profile. */
  async close(): Promise<void> {
    try {
      await withTimeout(this.#conn.send("Browser.close"), 5000, "Browser.close");
    } catch { /* fall through to kill */ }
    this.#conn.close();
    const exited = await withTimeout(this.#proc.status, 5000, "browser exit").then(() => true)
      .catch(() => false);
    if (!exited) {
      try {
        this.#proc.kill("SIGKILL");
      } catch { /* gone */ }
      await this.#proc.status;
    }
    try {
      Deno.removeSync(this.#profile, { recursive: true });
    } catch { /* a late child may still hold a file; leave it */ }
  }
}

/** Key definitions for {@link ChromiumPage.press}. */
const KEYS: Record<string, { code: string; keyCode: number; text?: string }> = {
  Enter: { code: "Enter", keyCode: 13, text: "\r" },
  Tab: { code: "Tab", keyCode: 9 },
  Escape: { code: "Escape", keyCode: 27 },
  Backspace: { code: "Backspace", keyCode: 8 },
  " ": { code: "Space", keyCode: 32, text: " " },
  ArrowDown: { code: "ArrowDown", keyCode: 40 },
  ArrowUp: { code: "ArrowUp", keyCode: 38 },
  ArrowLeft: { code: "ArrowLeft", keyCode: 37 },
  ArrowRight: { code: "ArrowRight", keyCode: 39 },
  Home: { code: "Home", keyCode: 36 },
  End: { code: "End", keyCode: 35 },
};

/** One tab of a {@link ChromiumBrowser}. */
export class ChromiumPage {
  #conn: CdpConnection;
  #session: string;
  #timeoutMs: number;
  /** The target id of the tab. */
  readonly targetId: string;
  /** Every request the page made, in order (the page's own document included). */
  readonly requests: RequestEntry[] = [];
  /** Console messages and browser log entries, in order. */
  readonly console: ConsoleEntry[] = [];
  /** Uncaught exceptions (description and location). */
  readonly exceptions: string[] = [];
  /** JavaScript dialogs that opened (`alert: 1`), each dismissed. */
  readonly dialogs: string[] = [];

  /** @internal use {@link ChromiumBrowser.newPage}. */
  constructor(conn: CdpConnection, sessionId: string, targetId: string, timeoutMs: number) {
    this.#conn = conn;
    this.#session = sessionId;
    this.targetId = targetId;
    this.#timeoutMs = timeoutMs;
  }

  #send(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    return withTimeout(this.#conn.send(method, params, this.#session), this.#timeoutMs, method);
  }

  #on(method: string, l: (p: Record<string, unknown>) => void): () => void {
    return this.#conn.on(method, (p, s) => {
      if (s === this.#session) l(p);
    });
  }

  /** @internal */
  async init(width: number, height: number): Promise<void> {
    this.#on("Network.requestWillBeSent", (p) => {
      const req = p.request as { url: string };
      this.requests.push({ url: req.url, type: (p.type as string | undefined) ?? null });
    });
    this.#on("Runtime.consoleAPICalled", (p) => {
      const args = (p.args as { value?: unknown; description?: string; type: string }[]) ?? [];
      const text = args.map((a) =>
        a.value !== undefined ? String(a.value) : a.description ?? a.type
      )
        .join(" ");
      this.console.push({ level: p.type as string, source: "console", text });
    });
    this.#on("Log.entryAdded", (p) => {
      const e = p.entry as { level: string; text: string; url?: string };
      this.console.push({
        level: e.level,
        source: "log",
        text: e.url ? `${e.text} (${e.url})` : e.text,
      });
    });
    this.#on("Runtime.exceptionThrown", (p) => {
      const d = p.exceptionDetails as {
        text: string;
        exception?: { description?: string };
        lineNumber?: number;
        columnNumber?: number;
      };
      this.exceptions.push(
        `${d.exception?.description ?? d.text} (line ${d.lineNumber}, column ${d.columnNumber})`,
      );
    });
    this.#on("Page.javascriptDialogOpening", (p) => {
      this.dialogs.push(`${p.type}: ${p.message}`);
      this.#send("Page.handleJavaScriptDialog", { accept: false }).catch(() => {});
    });
    await this.#send("Page.enable");
    await this.#send("Runtime.enable");
    await this.#send("Network.enable");
    await this.#send("Log.enable");
    await this.setViewport(width, height);
  }

  /**
   * Console errors, browser log errors and uncaught exceptions, as text (empty: a clean page).
   *
   * @example
   * ```ts ignore
   * assert.deepEqual(page.errors(), []);
   * ```
   */
  errors(): string[] {
    return [
      ...this.console.filter((c) => c.level === "error").map((c) => `${c.source}: ${c.text}`),
      ...this.exceptions.map((e) => `exception: ${e}`),
    ];
  }

  /**
   * Set the viewport (CSS px, device scale 1).
   *
   * @example
   * ```ts ignore
   * await page.setViewport(800, 600);
   * ```
   */
  async setViewport(width: number, height: number): Promise<void> {
    await this.#send("Emulation.setDeviceMetricsOverride", {
      width,
      height,
      deviceScaleFactor: 1,
      mobile: false,
    });
  }

  /**
   * Run `source` in every new document of this tab before its own scripts (e.g. to record
   * `alert` calls).
   *
   * @example
   * ```ts ignore
   * await page.addInitScript("window.__alerts = []; window.alert = (m) => __alerts.push(m);");
   * ```
   */
  async addInitScript(source: string): Promise<void> {
    await this.#send("Page.addScriptToEvaluateOnNewDocument", { source });
  }

  /**
   * Navigate and wait for the load event. Returns the ms from the call to the load event.
   *
   * @example
   * ```ts ignore
   * await page.goto(new URL("file:///tmp/report.html").href);
   * ```
   */
  async goto(url: string): Promise<number> {
    const t0 = performance.now();
    let off = () => {};
    const loaded = new Promise<void>((resolve) => {
      off = this.#on("Page.loadEventFired", () => resolve());
    });
    try {
      const nav = await this.#send("Page.navigate", { url }) as { errorText?: string };
      if (nav.errorText) throw new Error(`navigation to ${url} failed: ${nav.errorText}`);
      await withTimeout(loaded, this.#timeoutMs, `load of ${url}`);
    } finally {
      off();
    }
    return performance.now() - t0;
  }

  /**
   * Evaluate a function (serialised with its arguments, which must be JSON) or an expression
   * in the page, awaiting a returned promise; returns the JSON value. Page exceptions throw.
   *
   * @example
   * ```ts ignore
   * const n = await page.evaluate((sel: string) => document.querySelectorAll(sel).length, "svg");
   * ```
   */
  async evaluate<T, A extends unknown[] = []>(
    fn: string | ((...args: A) => T | Promise<T>),
    ...args: A
  ): Promise<T> {
    const expression = typeof fn === "string"
      ? fn
      : `(${fn.toString()})(...${JSON.stringify(args)})`;
    const r = await this.#send("Runtime.evaluate", {
      expression,
      awaitPromise: true,
      returnByValue: true,
      userGesture: true,
    }) as {
      result: { value?: T };
      exceptionDetails?: { text: string; exception?: { description?: string } };
    };
    if (r.exceptionDetails) {
      const d = r.exceptionDetails;
      throw new Error(`page evaluation failed: ${d.exception?.description ?? d.text}`);
    }
    return r.result.value as T;
  }

  /**
   * Poll `fn` (as in {@link evaluate}) until it returns a truthy value; returns that value.
   *
   * @example
   * ```ts ignore
   * await page.waitFor(() => document.body.dataset.ready === "true");
   * ```
   */
  async waitFor<T, A extends unknown[] = []>(
    fn: string | ((...args: A) => T | Promise<T>),
    opts: { timeoutMs?: number; intervalMs?: number; args?: A } = {},
  ): Promise<NonNullable<T>> {
    const deadline = Date.now() + (opts.timeoutMs ?? this.#timeoutMs);
    let last: T;
    do {
      last = await this.evaluate(fn, ...(opts.args ?? ([] as unknown as A)));
      if (last) return last as NonNullable<T>;
      await new Promise((r) => setTimeout(r, opts.intervalMs ?? 25));
    } while (Date.now() < deadline);
    throw new Error(`waitFor timed out: ${typeof fn === "string" ? fn : fn.toString()}`);
  }

  /**
   * Scroll the first element matching `selector` into view and click its centre with real
   * mouse events. Throws when nothing matches or the element has no box.
   *
   * @example
   * ```ts ignore
   * await page.click("#examples details summary");
   * ```
   */
  async click(selector: string): Promise<void> {
    // Scroll it into view, then wait until its box stays put for two frames (a smooth scroll
    // or a layout change may still be moving it) and check that it is what the point hits.
    const box = await this.evaluate(async (sel: string) => {
      const el = document.querySelector(sel);
      if (!el) return null;
      el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
      const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      let r = el.getBoundingClientRect();
      for (let k = 0; k < 50; k++) {
        await frame();
        const n = el.getBoundingClientRect();
        const same = n.left === r.left && n.top === r.top && n.width === r.width &&
          n.height === r.height;
        r = n;
        if (same) break;
      }
      const x = r.left + r.width / 2, y = r.top + r.height / 2;
      const hit = document.elementFromPoint(x, y);
      return {
        x,
        y,
        w: r.width,
        h: r.height,
        hit: hit === null || el.contains(hit) ? null : hit.outerHTML.slice(0, 80),
      };
    }, selector);
    if (!box) throw new Error(`click: nothing matches ${selector}`);
    if (box.w === 0 || box.h === 0) throw new Error(`click: ${selector} has an empty box`);
    if (box.hit) throw new Error(`click: ${selector} is covered by ${box.hit}`);
    const base = { x: box.x, y: box.y, button: "left", clickCount: 1 };
    await this.#send("Input.dispatchMouseEvent", { ...base, type: "mouseMoved", button: "none" });
    await this.#send("Input.dispatchMouseEvent", { ...base, type: "mousePressed" });
    await this.#send("Input.dispatchMouseEvent", { ...base, type: "mouseReleased" });
  }

  /**
   * Focus the element matching `selector` (when given) and type `text` with one key event per
   * character.
   *
   * @example
   * ```ts ignore
   * await page.type("#ex-search", "answer is");
   * ```
   */
  async type(selector: string | null, text: string): Promise<void> {
    if (selector !== null) await this.focus(selector);
    for (const ch of text) {
      await this.#send("Input.dispatchKeyEvent", { type: "keyDown", text: ch, key: ch });
      await this.#send("Input.dispatchKeyEvent", { type: "keyUp", key: ch });
    }
  }

  /**
   * Press a named key (`Enter`, `Tab`, `Escape`, `Backspace`, `" "`, arrows, `Home`, `End`)
   * on the focused element.
   *
   * @example
   * ```ts ignore
   * await page.press("Enter");
   * ```
   */
  async press(key: string): Promise<void> {
    const k = KEYS[key];
    if (!k) throw new Error(`press: unknown key ${key}`);
    const common = {
      key,
      code: k.code,
      windowsVirtualKeyCode: k.keyCode,
      nativeVirtualKeyCode: k.keyCode,
    };
    await this.#send("Input.dispatchKeyEvent", {
      ...common,
      type: k.text ? "keyDown" : "rawKeyDown",
      ...(k.text ? { text: k.text, unmodifiedText: k.text } : {}),
    });
    await this.#send("Input.dispatchKeyEvent", { ...common, type: "keyUp" });
  }

  /**
   * Focus the first element matching `selector` (throws when nothing matches).
   *
   * @example
   * ```ts ignore
   * await page.focus("#ex-task");
   * ```
   */
  async focus(selector: string): Promise<void> {
    const ok = await this.evaluate((sel: string) => {
      const el = document.querySelector(sel) as HTMLElement | null;
      el?.focus();
      return el !== null && document.activeElement === el;
    }, selector);
    if (!ok) throw new Error(`focus: cannot focus ${selector}`);
  }

  /**
   * Write a PNG screenshot of the viewport, or of the whole page (`fullPage`, up to
   * `maxHeight` px, default 16,000), to `path`; returns the PNG's bytes.
   *
   * @example
   * ```ts ignore
   * await page.screenshot("/tmp/report.png", { fullPage: true });
   * ```
   */
  async screenshot(
    path: string | null,
    opts: { fullPage?: boolean; maxHeight?: number } = {},
  ): Promise<Uint8Array> {
    const params: Record<string, unknown> = { format: "png" };
    if (opts.fullPage) {
      const size = await this.evaluate(() => ({
        w: document.documentElement.scrollWidth,
        h: document.documentElement.scrollHeight,
      }));
      params.captureBeyondViewport = true;
      params.clip = {
        x: 0,
        y: 0,
        width: size.w,
        height: Math.min(size.h, opts.maxHeight ?? 16000),
        scale: 1,
      };
    }
    const { data } = await this.#send("Page.captureScreenshot", params) as { data: string };
    const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
    if (path) Deno.writeFileSync(path, bytes);
    return bytes;
  }
}
