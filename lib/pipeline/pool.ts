/**
 * A pool of scoring Workers (`worker.ts`): each is initialised once (it loads the benchmarks'
 * scoring parts and builds its example index), then takes the next task (a list of units)
 * whenever it is idle, so a big file's ranges and a folder's small files keep every core busy.
 * Results come back with their rows as transferred buffers. A Worker that fails (a bug or an
 * exhausted heap, never a bad log: units catch those) rejects the run with its message; one
 * that met a row the plan gives no scorer rejects it with that {@link UnscoredRowsError}.
 *
 * @example
 * ```ts ignore
 * const pool = new WorkerPool(2, setup);
 * const { unavailable } = await pool.ready;
 * const results = await pool.run(groupUnits(units), (done, total) => progress(done, total));
 * pool.close();
 * ```
 * @module
 */
import type { ScoringSetup, Unavailable } from "./scoring_state.ts";
import { UnscoredRowsError } from "./score_unit.ts";
import type { UnitResult, WorkUnit } from "./units.ts";

/**
 * Scoring Workers that run tasks of units. `R` is what a Worker posts back per unit: a
 * {@link UnitResult} from `worker.ts` (the default), or another reduction of it from another
 * Worker script speaking the same protocol (`lib/bench/counts/`: counts instead of rows).
 */
export class WorkerPool<R = UnitResult> {
  readonly workers: Worker[];
  /** Resolves once every Worker has built its state (with the data sets it could not read). */
  readonly ready: Promise<{ unavailable: Unavailable[] }>;

  /** Start `n` Workers of `script` (default: `worker.ts`) and send each the setup. */
  constructor(n: number, setup: ScoringSetup, script = new URL("./worker.ts", import.meta.url)) {
    this.workers = Array.from(
      { length: Math.max(1, n) },
      () => new Worker(script, { type: "module" }),
    );
    const inits = this.workers.map((w) =>
      this.#next<{ unavailable: Unavailable[] }>(
        w,
        "ready",
        () => w.postMessage({ type: "init", setup }),
      )
    );
    this.ready = Promise.all(inits).then((all) => all[0]);
  }

  /** Run every task; `onTask` is told how many tasks are done. Results in any order. */
  async run(
    tasks: readonly WorkUnit[][],
    onTask: (done: number, total: number) => void = () => {},
  ): Promise<R[]> {
    await this.ready;
    const results: R[] = [];
    let next = 0;
    let done = 0;
    const drive = async (w: Worker) => {
      while (next < tasks.length) {
        const units = tasks[next++];
        const reply = await this.#next<{ results: R[] }>(
          w,
          "results",
          () => w.postMessage({ type: "task", units }),
        );
        results.push(...reply.results);
        onTask(++done, tasks.length);
      }
    };
    await Promise.all(this.workers.map(drive));
    return results;
  }

  /** Stop every Worker. */
  close(): void {
    for (const w of this.workers) w.terminate();
  }

  /** Send (by `post`) and wait for the Worker's next message of `type`. */
  #next<T>(w: Worker, type: string, post: () => void): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      w.onmessage = (ev) => {
        if (ev.data.type === type) resolve(ev.data as T);
        else if (ev.data.type === "unscored") reject(new UnscoredRowsError(ev.data.message));
        else reject(new Error(`scoring Worker failed: ${ev.data.message}`));
      };
      w.onerror = (e) => {
        e.preventDefault();
        reject(new Error(`scoring Worker failed: ${e.message}`));
      };
      post();
    });
  }
}
