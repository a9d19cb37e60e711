/**
 * Make sure the Jupyter client side is installed: Debian's `jupyter-nbconvert` and
 * `python3-jupyter-client` (which bring nbclient and nbformat). Idempotent: when
 * `/usr/bin/python3` already imports them nothing is installed.
 *
 * Python packages come from Debian because PyPI is not reachable on our machines; the Debian
 * `python3` is used explicitly since a pyenv `python3` on PATH cannot see Debian's packages.
 *
 * @example Not run by `deno test --doc`: it may call `apt-get install` (root, network)
 * ```ts ignore
 * import { ensureJupyter } from "@runlens/setup/jupyter.ts";
 * const python = await ensureJupyter(); // "/usr/bin/python3"
 * ```
 * @module
 */
import { runCommand } from "../core/command.ts";
import { DEBIAN_PYTHON, ensureDebianPackages, pythonImports, setupCommand } from "./debian.ts";

/** Debian packages providing the Jupyter client machinery. */
export const JUPYTER_PACKAGES = ["jupyter-nbconvert", "python3-jupyter-client"];

/**
 * Whether `python` can import the modules the notebook runner needs.
 *
 * @example
 * ```ts
 * typeof (await hasJupyterClient()); // "boolean"
 * ```
 */
export function hasJupyterClient(python = DEBIAN_PYTHON): Promise<boolean> {
  return pythonImports(["jupyter_client", "nbformat"], python);
}

/**
 * Install the Jupyter client packages when missing; returns the Python to run the notebook
 * runner with. Throws a clear error (with the command to run by hand) when installing fails.
 */
export async function ensureJupyter(): Promise<string> {
  await ensureDebianPackages("the Jupyter client", JUPYTER_PACKAGES, () => hasJupyterClient());
  return DEBIAN_PYTHON;
}

/** `lib/setup/jupyter.ts` as a script. */
export const jupyterSetupCommand = setupCommand(
  "jupyter",
  "the Jupyter client (Debian's jupyter-nbconvert and python3-jupyter-client)",
  async () => (await ensureJupyter(), null),
);

if (import.meta.main) Deno.exit(await runCommand(jupyterSetupCommand, Deno.args));
