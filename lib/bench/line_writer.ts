/**
 * Lines buffered and written to a file in ~4 MB chunks, for the benchmark generators.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LineWriter } from "@runlens/bench/line_writer.ts";
 * const dir = Deno.makeTempDirSync();
 * const out = new LineWriter();
 * await out.open(`${dir}/big.jsonl`);
 * await out.write('{"a": 1}\n');
 * await out.close();
 * assert.equal(out.size, 9); // bytes written so far (all files)
 * assert.equal(Deno.readTextFileSync(`${dir}/big.jsonl`), '{"a": 1}\n');
 * Deno.removeSync(dir, { recursive: true });
 * ```
 * @module
 */

const CHUNK = 1 << 22;

/** Writes lines to one file after another, counting what was written. */
export class LineWriter {
  #file: Deno.FsFile | null = null;
  #chunk: string[] = [];
  #pending = 0;
  #written = 0;
  #encoder = new TextEncoder();

  /** Bytes written to all files so far plus the length of the lines not yet written. */
  get size(): number {
    return this.#written + this.#pending;
  }

  /** Close the current file (if any) and start writing `path` (truncated). */
  async open(path: string): Promise<void> {
    await this.close();
    this.#file = await Deno.open(path, { write: true, create: true, truncate: true });
  }

  /** Add a line (with its line break). */
  async write(line: string): Promise<void> {
    this.#chunk.push(line);
    this.#pending += line.length;
    if (this.#pending > CHUNK) await this.#flush();
  }

  /** Write what is pending and close the file. */
  async close(): Promise<void> {
    if (!this.#file) return;
    await this.#flush();
    this.#file.close();
    this.#file = null;
  }

  async #flush(): Promise<void> {
    const data = this.#encoder.encode(this.#chunk.join(""));
    for (let off = 0; off < data.length;) off += await this.#file!.write(data.subarray(off));
    this.#written += data.length;
    this.#chunk = [];
    this.#pending = 0;
  }
}
