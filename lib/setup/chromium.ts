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
 * @example
 * ```ts
 * import { ensureChromium } from "@runlens/setup/chromium.ts";
 * const chromium = await ensureChromium(); // "/usr/bin/chromium"
 * ```
 * @module
 */

/** Where Debian's package puts the browser. */
export const CHROMIUM_PATH = "/usr/bin/chromium";

/** Debian packages installed: the browser and the fonts the report falls back to. */
export const CHROMIUM_PACKAGES = ["chromium", "fonts-dejavu-core"];

async function run(cmd: string, args: string[]): Promise<{ ok: boolean; output: string }> {
  try {
    const out = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "piped" }).output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    return { ok: out.success, output: text };
  } catch (e) {
    return { ok: false, output: (e as Error).message };
  }
}

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

/** The command prefix for apt-get: none as root, `sudo -n` otherwise (null: no way to root). */
async function aptPrefix(): Promise<string[] | null> {
  if (Deno.uid?.() === 0) return [];
  return (await run("sudo", ["-n", "true"])).ok ? ["sudo", "-n"] : null;
}

/**
 * Install Chromium when `/usr/bin/chromium` is missing; returns its path. Throws a clear error
 * when not root (and no password-less sudo), or when apt-get fails (with the command to run by
 * hand and apt-get's last lines).
 *
 * @example
 * ```ts
 * import { ensureChromium } from "@runlens/setup/chromium.ts";
 * const path = await ensureChromium();
 * ```
 */
export async function ensureChromium(): Promise<string> {
  if (await chromiumVersion()) return CHROMIUM_PATH;
  const byHand = "  sudo apt-get update && sudo apt-get install -y --no-install-recommends " +
    CHROMIUM_PACKAGES.join(" ");
  const prefix = await aptPrefix();
  if (prefix === null) {
    throw new Error(
      `${CHROMIUM_PATH} is missing and installing it needs root (or password-less sudo). ` +
        `Run by hand:\n${byHand}`,
    );
  }
  const apt = (args: string[]) => {
    const [cmd, ...rest] = [...prefix, "apt-get", ...args];
    return run(cmd, rest);
  };
  console.error(`runlens: installing ${CHROMIUM_PACKAGES.join(", ")} with apt-get…`);
  const lock = ["-o", "DPkg::Lock::Timeout=300"];
  Deno.env.set("DEBIAN_FRONTEND", "noninteractive");
  await apt(["update", ...lock]);
  const result = await apt([
    "install",
    "-y",
    "--no-install-recommends",
    ...lock,
    ...CHROMIUM_PACKAGES,
  ]);
  const version = await chromiumVersion();
  if (!result.ok || !version) {
    const tail = result.output.trim().split("\n").slice(-5).join("\n");
    throw new Error(`could not install Chromium. Run by hand:\n${byHand}\napt-get said:\n${tail}`);
  }
  console.error(`runlens: ${version} installed`);
  return CHROMIUM_PATH;
}

if (import.meta.main) {
  try {
    await ensureChromium();
    console.error(`runlens: ${await chromiumVersion()}`);
  } catch (e) {
    console.error(`runlens: ${(e as Error).message}`);
    Deno.exit(1);
  }
}
