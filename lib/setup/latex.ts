/**
 * Make sure pdflatex with booktabs, longtable and array is installed, for the test that compiles
 * every LaTeX table runlens writes. Idempotent: when `pdflatex` runs and `kpsewhich` finds the
 * packages nothing is installed. Otherwise, as root (or with password-less `sudo`), `apt-get
 * install -y --no-install-recommends texlive-latex-recommended` (refreshing the package lists
 * first when that fails): Debian's smallest set with booktabs — texlive-latex-base alone has
 * pdflatex, longtable and array but not booktabs. Mirrors `chromium.ts`.
 *
 * Run as a script (`deno run --allow-all lib/setup/latex.ts`) it installs and prints pdflatex's
 * version; the test task runs it before `deno test`.
 *
 * @example Not run by `deno test --doc`: it may call `apt-get install` (root, network)
 * ```ts ignore
 * import { ensureLatex } from "@runlens/setup/latex.ts";
 * await ensureLatex(); // "pdflatex"
 * ```
 * @module
 */
import { runCommand } from "../core/command.ts";
import { ensureDebianPackages, runQuiet, setupCommand } from "./debian.ts";

/** Debian packages installed: pdflatex (through texlive-latex-base) and booktabs. */
export const LATEX_PACKAGES = ["texlive-latex-recommended"];

/** The LaTeX packages runlens tables use. */
export const LATEX_STYLES = ["booktabs.sty", "longtable.sty", "array.sty"];

/**
 * pdflatex's version line, or null when it does not run or a package of
 * {@link LATEX_STYLES} is missing.
 *
 * @example
 * ```ts
 * console.log(await latexVersion()); // "pdfTeX 3.141592653-2.6-1.40.24 (TeX Live 2022/Debian)" or null
 * ```
 */
export async function latexVersion(): Promise<string | null> {
  const version = await runQuiet("pdflatex", ["--version"]);
  if (!version.ok) return null;
  const found = await runQuiet("kpsewhich", LATEX_STYLES);
  const paths = found.output.trim().split("\n").filter((l) => l.endsWith(".sty"));
  return found.ok && paths.length === LATEX_STYLES.length ? version.output.split("\n")[0] : null;
}

/**
 * Install pdflatex and the packages when missing; returns the command name. Throws a clear
 * error when not root (and no password-less sudo), or when apt-get fails.
 *
 * @example Not run by `deno test --doc`: it may call `apt-get install` (root, network)
 * ```ts ignore
 * await ensureLatex();
 * ```
 */
export async function ensureLatex(): Promise<string> {
  await ensureDebianPackages(
    "LaTeX (pdflatex, booktabs)",
    LATEX_PACKAGES,
    async () => (await latexVersion()) !== null,
  );
  return "pdflatex";
}

/** `lib/setup/latex.ts` as a script. */
export const latexSetupCommand = setupCommand(
  "latex",
  "pdflatex with booktabs, longtable and array (the LaTeX tables' test)",
  async () => (await ensureLatex(), await latexVersion()),
);

if (import.meta.main) Deno.exit(await runCommand(latexSetupCommand, Deno.args));
