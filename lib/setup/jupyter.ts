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

/** The Python interpreter that sees Debian's Jupyter packages. */
export const DEBIAN_PYTHON = "/usr/bin/python3";

/** Debian packages providing the Jupyter client machinery. */
export const JUPYTER_PACKAGES = ["jupyter-nbconvert", "python3-jupyter-client"];

async function run(cmd: string, args: string[]): Promise<{ ok: boolean; output: string }> {
  try {
    const out = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "piped" }).output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    return { ok: out.success, output: text };
  } catch (e) {
    return { ok: false, output: (e as Error).message };
  }
}

/** Whether `python` can import the modules the notebook runner needs. */
export async function hasJupyterClient(python = DEBIAN_PYTHON): Promise<boolean> {
  return (await run(python, ["-c", "import jupyter_client, nbformat"])).ok;
}

/** The command prefix for apt-get: none as root, `sudo -n` otherwise. */
function aptPrefix(): string[] {
  return Deno.uid?.() === 0 ? [] : ["sudo", "-n"];
}

async function apt(args: string[]): Promise<{ ok: boolean; output: string }> {
  const prefix = aptPrefix();
  const [cmd, ...rest] = [...prefix, "apt-get", ...args];
  return await run(cmd, rest);
}

/**
 * Install the Jupyter client packages when missing; returns the Python to run the notebook
 * runner with. Throws a clear error (with the command to run by hand) when installing fails.
 */
export async function ensureJupyter(): Promise<string> {
  if (await hasJupyterClient()) return DEBIAN_PYTHON;
  console.error(
    `runlens: installing the Jupyter client (${JUPYTER_PACKAGES.join(", ")}) with apt-get…`,
  );
  const env = ["-o", "DPkg::Lock::Timeout=120"];
  let result = await apt(["install", "-y", "--no-install-recommends", ...env, ...JUPYTER_PACKAGES]);
  if (!result.ok) {
    // Fresh machines may have empty package lists: refresh once and retry.
    await apt(["update", ...env]);
    result = await apt(["install", "-y", "--no-install-recommends", ...env, ...JUPYTER_PACKAGES]);
  }
  if (!result.ok || !(await hasJupyterClient())) {
    const tail = result.output.trim().split("\n").slice(-5).join("\n");
    throw new Error(
      "could not install the Jupyter client. Run by hand:\n" +
        `  sudo apt-get install -y --no-install-recommends ${JUPYTER_PACKAGES.join(" ")}\n` +
        `apt-get said:\n${tail}`,
    );
  }
  console.error("runlens: Jupyter client installed");
  return DEBIAN_PYTHON;
}

if (import.meta.main) {
  try {
    await ensureJupyter();
  } catch (e) {
    console.error(`runlens: ${(e as Error).message}`);
    Deno.exit(1);
  }
}
