/**
 * Install Debian packages a runlens command needs, when they are missing: idempotent (a
 * check decides whether anything is installed), `apt-get` as root or through password-less
 * `sudo`, package lists refreshed once when the first attempt fails (fresh machines have
 * empty lists), and a clear error with the command to run by hand. Python packages come from
 * Debian because PyPI is not reachable on our machines.
 *
 * @example Not run by `deno test --doc`: it may call `apt-get install` (root, network)
 * ```ts ignore
 * await ensureDebianPackages("the Jupyter client", ["jupyter-nbconvert"], () => false);
 * ```
 * @module
 */
import type { Command } from "../core/command.ts";

/** The Python interpreter that sees Debian's Python packages (a pyenv `python3` does not). */
export const DEBIAN_PYTHON = "/usr/bin/python3";

/**
 * Run a command; its success and its output (stdout then stderr).
 *
 * @example
 * ```ts
 * (await runQuiet("true", [])).ok; // true
 * (await runQuiet("/nonexistent/cmd", [])).ok; // false
 * ```
 */
export async function runQuiet(
  cmd: string,
  args: string[],
): Promise<{ ok: boolean; output: string }> {
  try {
    const out = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "piped" }).output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    return { ok: out.success, output: text };
  } catch (e) {
    return { ok: false, output: (e as Error).message };
  }
}

/**
 * Whether `python` can import every module of `modules`.
 *
 * @example
 * ```ts
 * await pythonImports(["json"]); // true where Debian's python3 exists
 * ```
 */
export async function pythonImports(modules: string[], python = DEBIAN_PYTHON): Promise<boolean> {
  return (await runQuiet(python, ["-c", `import ${modules.join(", ")}`])).ok;
}

async function apt(args: string[]): Promise<{ ok: boolean; output: string }> {
  const prefix = Deno.uid?.() === 0 ? [] : ["sudo", "-n"];
  const [cmd, ...rest] = [...prefix, "apt-get", ...args];
  return await runQuiet(cmd, rest);
}

/**
 * Install `packages` (Debian names) unless `present()` already says yes; `what` names them in
 * messages. Throws when installing fails or `present()` is still false afterwards.
 */
export async function ensureDebianPackages(
  what: string,
  packages: string[],
  present: () => boolean | Promise<boolean>,
): Promise<void> {
  if (await present()) return;
  console.error(`runlens: installing ${what} (${packages.join(", ")}) with apt-get…`);
  const lock = ["-o", "DPkg::Lock::Timeout=120"];
  const install = () => apt(["install", "-y", "--no-install-recommends", ...lock, ...packages]);
  let result = await install();
  if (!result.ok) {
    await apt(["update", ...lock]);
    result = await install();
  }
  if (!result.ok || !(await present())) {
    const tail = result.output.trim().split("\n").slice(-5).join("\n");
    throw new Error(
      `could not install ${what}. Run by hand:\n` +
        `  sudo apt-get install -y --no-install-recommends ${packages.join(" ")}\n` +
        `apt-get said:\n${tail}`,
    );
  }
  console.error(`runlens: ${what} installed`);
}

/**
 * The command line of a setup script (`lib/setup/<name>.ts`): install what is missing, then
 * print what `report` says (a version), or nothing. No options.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { helpText } from "@runlens/core/command.ts";
 * const c = setupCommand("nothing", "nothing at all", () => Promise.resolve(null));
 * assert.match(helpText(c), /^usage: deno run --allow-all lib\/setup\/nothing\.ts\n/);
 * ```
 */
export function setupCommand(
  name: string,
  what: string,
  install: () => Promise<string | null>,
): Command<null> {
  return {
    name: `setup ${name}`,
    invocation: `deno run --allow-all lib/setup/${name}.ts`,
    summary: `Install ${what} with apt-get when it is missing (as root or with password-less ` +
      "sudo); deno task test runs it before the tests.",
    usage: "",
    options: {},
    prints: "What is installed (a version), when there is something to say; apt-get's " +
      "output when it runs.",
    examples: [`deno run --allow-all lib/setup/${name}.ts`],
    failure: "the packages cannot be installed (the message gives the command to run by hand)",
    parse: ({ positionals }) =>
      positionals.length > 0 ? `unexpected argument ${positionals[0]}` : null,
    run: async () => {
      const said = await install();
      if (said) console.log(said);
      return 0;
    },
  };
}
