/**
 * The shape of a fuzz case — a folder of files and the outcomes each file may have — and how
 * it is written to disk ({@link materialize}) and fingerprinted ({@link fingerprint}).
 *
 * @example
 * ```ts ignore
 * import { materialize } from "./case.ts";
 * const dir = await materialize(fuzzCase, Deno.makeTempDirSync());
 * ```
 * @module
 */
import { dirname, join } from "node:path";
import { createHash } from "node:crypto";

/** What may happen to one file of a case. */
export type FileOutcome = "accounted" | "named-error";

/** One file-system node of a case, relative to the case folder. */
export type FileNode =
  | { kind: "file"; path: string; bytes: Uint8Array; mode?: number }
  | { kind: "dir"; path: string }
  | { kind: "fifo"; path: string }
  | { kind: "symlink"; path: string; target: string }
  | { kind: "rawname"; dir: string; name: Uint8Array; bytes: Uint8Array }
  | { kind: "many"; dir: string; count: number; make: (i: number) => [string, Uint8Array] };

/** The expectation for one file of a case. */
export interface Expect {
  /** Path relative to the case folder (how notices and stderr are matched). */
  path: string;
  /**
   * Records the file holds (non-blank JSON lines, CSV records, samples, outputs…): one
   * number, several acceptable numbers, or null when not defined (then only the balance is
   * checked).
   */
  records: number | number[] | null;
  /** When accounted: exactly how many of its records must be quarantined (null: any). */
  quarantined?: number | null;
  /** The outcomes allowed for this file. */
  allowed: FileOutcome[];
  /** A regular expression (source) that names the file where its path cannot (odd names). */
  namePattern?: string;
}

/** Resource limits of a case run. */
export interface Limits {
  /** Wall-clock limit; the process is killed after it (a hang). */
  timeoutMs: number;
  /** Peak-RSS limit (VmHWM, read from /proc); the process is killed past it. */
  rssBytes: number;
}

/** One fuzz case. */
export interface FuzzCase {
  /** `<class>/<variant>/<k>`: unique and stable for a seed. */
  id: string;
  /** The class (as counted in the report). */
  cls: string;
  variant: string;
  /** The nodes of the case folder. */
  nodes: FileNode[];
  /** Nodes of a sibling folder `outside/` (targets of symlinks that leave the case folder). */
  outside?: FileNode[];
  /** The files with an expectation (auxiliary files such as lm-eval results have none). */
  expect: Expect[];
  /** Paths to pass, relative to the case folder (run there); default: the folder itself. */
  args?: string[];
  /** Extra options for `score` (e.g. `--map …`). */
  flags?: string[];
  /** Resource limits (defaults in `classify.ts`). */
  limits?: Partial<Limits>;
  /** A bomb or size case: staying within the limits is the point (outcome `bounded`). */
  bounded?: boolean;
  /** Run twice concurrently on the same folder; the outputs must be identical. */
  twice?: boolean;
  /** One line saying what the case is. */
  about: string;
}

/** The case folder inside a case root. */
export const CASE_DIR = "case";
/** The sibling folder for symlink targets outside the case folder. */
export const OUTSIDE_DIR = "outside";

/**
 * Write `c` under `root` (`root/case/…`, `root/outside/…`); returns the case folder.
 *
 * @example
 * ```ts ignore
 * const dir = await materialize(c, await Deno.makeTempDir());
 * ```
 */
export async function materialize(c: FuzzCase, root: string): Promise<string> {
  const caseDir = join(root, CASE_DIR);
  await Deno.mkdir(caseDir, { recursive: true });
  if (c.outside) {
    await Deno.mkdir(join(root, OUTSIDE_DIR), { recursive: true });
    for (const node of c.outside) await writeNode(join(root, OUTSIDE_DIR), node);
  }
  for (const node of c.nodes) await writeNode(caseDir, node);
  return caseDir;
}

async function writeNode(base: string, node: FileNode): Promise<void> {
  switch (node.kind) {
    case "file": {
      const path = join(base, node.path);
      await Deno.mkdir(dirname(path), { recursive: true });
      await Deno.writeFile(path, node.bytes);
      if (node.mode !== undefined) await Deno.chmod(path, node.mode);
      return;
    }
    case "dir":
      await Deno.mkdir(join(base, node.path), { recursive: true });
      return;
    case "fifo": {
      const path = join(base, node.path);
      await Deno.mkdir(dirname(path), { recursive: true });
      await run("mkfifo", [path]);
      return;
    }
    case "symlink": {
      const path = join(base, node.path);
      await Deno.mkdir(dirname(path), { recursive: true });
      await Deno.symlink(node.target, path);
      return;
    }
    case "rawname": {
      const dir = join(base, node.dir);
      await Deno.mkdir(dir, { recursive: true });
      const octal = [...node.name].map((b) => "\\" + b.toString(8).padStart(3, "0")).join("");
      await run("sh", ["-c", `f=$(printf '${octal}'); cat > "$f"`], dir, node.bytes);
      return;
    }
    case "many": {
      const dir = join(base, node.dir);
      await Deno.mkdir(dir, { recursive: true });
      for (let i = 0; i < node.count; i++) {
        const [name, bytes] = node.make(i);
        await Deno.writeFile(join(dir, name), bytes);
      }
      return;
    }
  }
}

async function run(cmd: string, args: string[], cwd?: string, input?: Uint8Array) {
  const child = new Deno.Command(cmd, {
    args,
    cwd,
    stdin: input ? "piped" : "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  if (input) {
    const w = child.stdin.getWriter();
    await w.write(input);
    await w.close();
  }
  const out = await child.output();
  if (!out.success) {
    throw new Error(`${cmd} ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
}

/**
 * A SHA-256 over everything that defines the case (id, nodes with their bytes, expectations,
 * arguments, limits): two generations with the same seed must give the same fingerprints.
 *
 * @example
 * ```ts ignore
 * fingerprint(c); // "3f2a…"
 * ```
 */
export function fingerprint(c: FuzzCase): string {
  const h = createHash("sha256");
  const text = (s: string) => h.update(s + "\u0000");
  text(c.id);
  text(c.cls);
  text(c.variant);
  text(JSON.stringify([c.expect, c.args ?? null, c.flags ?? null, c.limits ?? null]));
  text(JSON.stringify([c.bounded ?? false, c.twice ?? false, c.about]));
  for (const [where, nodes] of [["case", c.nodes], ["outside", c.outside ?? []]] as const) {
    for (const node of nodes) {
      text(`${where}:${node.kind}`);
      if (node.kind === "file") {
        text(`${node.path}:${node.mode ?? ""}`);
        h.update(node.bytes);
      } else if (node.kind === "rawname") {
        h.update(node.name);
        h.update(node.bytes);
      } else if (node.kind === "symlink") text(`${node.path}->${node.target}`);
      else if (node.kind === "many") {
        text(`${node.dir}:${node.count}`);
        for (let i = 0; i < node.count; i++) {
          const [name, bytes] = node.make(i);
          text(name);
          h.update(bytes);
        }
      } else text(node.path);
    }
  }
  return h.digest("hex");
}
