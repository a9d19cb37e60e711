/**
 * Test helper: run a callback in a fresh temporary directory that is removed afterwards.
 *
 * @example
 * ```ts
 * import { withTempDir } from "./_tmp.ts";
 * withTempDir((dir) => Deno.writeTextFileSync(`${dir}/run.jsonl`, "{}\n"));
 * await withTempDir(async (dir) => {
 *   await Deno.writeTextFile(`${dir}/async.jsonl`, "{}\n"); // removed once this settles
 * }, "runlens_x_");
 * ```
 * @module
 */

/**
 * Make a temp directory (name starting with `prefix`), call `fn` with its path and return what
 * `fn` returns. The directory is removed recursively when `fn` returns or throws, or, when `fn`
 * returns a promise, once that promise settles.
 */
export function withTempDir<T>(fn: (dir: string) => T, prefix = "runlens_test_"): T {
  const dir = Deno.makeTempDirSync({ prefix });
  const remove = () => Deno.removeSync(dir, { recursive: true });
  let result: T;
  try {
    result = fn(dir);
  } catch (e) {
    remove();
    throw e;
  }
  if (result instanceof Promise) return result.finally(remove) as T;
  remove();
  return result;
}
