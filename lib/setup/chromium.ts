/**
 * Make sure Debian's `chromium` is installed, for the report's real-browser tests and the
 * report benchmark. Idempotent: when `/usr/bin/chromium --version` answers nothing is
 * installed. Otherwise, as root (or with password-less `sudo`), `apt-get update` then
 * `apt-get install -y --no-install-recommends chromium fonts-dejavu-core` — the version is what
 * Debian ships for the release (npm packages that download their own browser build cannot work
 * on our machines, see shared/notes/toolchain.md). Mirrors `jupyter.ts`.
 *
 * Run as a script (`deno run --allow-all lib/setup/chromium.ts`) it installs and prints the
 * browser's version; the test task runs it before `deno test`.
 *
 * @example Not run by `deno test --doc`: it may call `apt-get install` (root, network)
 * ```ts ignore
 * import { ensureChromium } from "@runlens/setup/chromium.ts";
 * const chromium = await ensureChromium(); // "/usr/bin/chromium"
 * ```
 * @module
 */
import { runCommand } from "../core/command.ts";
import { ensureDebianPackages, setupCommand } from "./debian.ts";

/** Where Debian's package puts the browser. */
export const CHROMIUM_PATH = "/usr/bin/chromium";

/** Debian packages installed: the browser and the fonts the report falls back to. */
export const CHROMIUM_PACKAGES = ["chromium", "fonts-dejavu-core"];

/**
 * The browser's version line (e.g. `Chromium 156.0.8078.108 built on Debian …`), or null when
 * `path` is missing or does not run.
 *
 * @example
 * ```ts
 * import { chromiumVersion } from "@runlens/setup/chromium.ts";
 * console.log(await chromiumVersion()); // "Chromium 156.0.8078.108 …" or null
 * ```
 */
export async function chromiumVersion(path = CHROMIUM_PATH): Promise<string | null> {
  try {
    const out = await new Deno.Command(path, {
      args: ["--version"],
      stdout: "piped",
      stderr: "null",
    })
      .output();
    const line = new TextDecoder().decode(out.stdout).trim().split("\n")[0];
    return out.success && line ? line : null;
  } catch {
    return null;
  }
}

/**
 * Install Chromium when `/usr/bin/chromium` is missing; returns its path. Throws a clear error
 * when not root (and no password-less sudo), or when apt-get fails (with the command to run by
 * hand and apt-get's last lines).
 *
 * @example Not run by `deno test --doc`: it may call `apt-get install` (root, network)
 * ```ts ignore
 * const path = await ensureChromium(); // "/usr/bin/chromium"
 * ```
 */
export async function ensureChromium(): Promise<string> {
  await ensureDebianPackages(
    "Chromium",
    CHROMIUM_PACKAGES,
    async () => (await chromiumVersion()) !== null,
  );
  return CHROMIUM_PATH;
}

/** `lib/setup/chromium.ts` as a script. */
export const chromiumSetupCommand = setupCommand(
  "chromium",
  "Debian's chromium (the report's browser tests and benchmark)",
  async () => (await ensureChromium(), await chromiumVersion()),
);

if (import.meta.main) Deno.exit(await runCommand(chromiumSetupCommand, Deno.args));
