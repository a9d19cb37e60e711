/**
 * Seeded, deterministic generator of large lm-evaluation-harness `--log_samples` output for
 * the benchmark (`lib/bench/bench.ts`), in the ≥ v0.4.7 format of the project notes: one
 * folder per run (`<out>/bench-org__<model>-rNNN/`) with `results_<date_id>.json` (the model
 * name) and one `samples_bbeh_zeroshot_<task>_<date_id>.jsonl` per BBEH task. Each line holds
 * `doc_id`, `doc` ({input, target}), `target`, `arguments` (the zero-shot prompt: the question
 * plus the answer-format instruction), `resps` (the response, see `responseFor` in
 * `generate.ts`), `filtered_resps` (the text after `The answer is: `), `filter`, `metrics`,
 * three hashes and `exact_match` (extraction = target; not the official rule). Every
 * run covers the 4,520 BBEH examples once, in data-set order, until the size is reached.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { generateLmEvalLogs } from "@runlens/bench/generate_lm_eval.ts";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const out = Deno.makeTempDirSync(); // the benchmark: out .runlens/bench/…, rows null, mb 200
 * const opts = { rows: 30, mb: 0, seed: 1, wrong: 0.3, data: resolveDataDir(), out } as const;
 * const result = await generateLmEvalLogs({ ...opts, format: "lm-eval" });
 * assert.deepEqual([result.rows, result.runs], [30, 1]); // the first 30 examples: boardgame_qa
 * const run = `${out}/bench-org__gemini-2.0-flash-r000`;
 * const file = `${run}/samples_bbeh_zeroshot_boardgame_qa_${BENCH_DATE_ID}.jsonl`;
 * assert.ok(Deno.statSync(file).isFile);
 * Deno.removeSync(out, { recursive: true });
 * ```
 * @module
 */
import { join } from "node:path";
import { mulberry32 } from "../core/rng.ts";
import {
  fillerPool,
  type GenerateOptions,
  type GenerateResult,
  MODELS,
  readExamples,
  responseFor,
} from "./responses.ts";
import { LineWriter } from "./line_writer.ts";

/** The date id all files of the generated runs share. */
export const BENCH_DATE_ID = "2025-03-01T12-00-00.000000";

/** The BBEH paper's zero-shot answer-format instruction, appended to every question. */
const SUFFIX = "\n\nThink step by step, and when you provide the final answer, please use " +
  'the prefix "The answer is:" without any modification, and provide the answer directly, ' +
  "with no formatting, no bolding, and no markup.";

/** 64 hex digits from the PRNG (stands for a sha256). */
function fakeHash(rnd: () => number): string {
  let out = "";
  while (out.length < 64) out += Math.floor(rnd() * 2 ** 32).toString(16).padStart(8, "0");
  return out;
}

/** Write the runs described by `opts` under the folder `opts.out`; deterministic. */
export async function generateLmEvalLogs(opts: GenerateOptions): Promise<GenerateResult> {
  const rnd = mulberry32(opts.seed);
  const { examples, byTask } = readExamples(opts.data);
  const pool = fillerPool(rnd, 1 << 17);
  const limitBytes = opts.rows === null ? opts.mb * 1e6 : Infinity;
  const limitRows = opts.rows ?? Infinity;
  const out = new LineWriter();
  let rows = 0;
  let runs = 0;
  await Deno.mkdir(opts.out, { recursive: true });
  try {
    outer: while (true) {
      const model = `${MODELS[runs % MODELS.length]}-r${String(runs).padStart(3, "0")}`;
      const dir = join(opts.out, `bench-org__${model}`);
      runs++;
      await Deno.mkdir(dir, { recursive: true });
      await Deno.writeTextFile(
        join(dir, `results_${BENCH_DATE_ID}.json`),
        JSON.stringify({ model_name: `bench-org/${model}`, results: {} }, null, 2) + "\n",
      );
      let task = "";
      for (const ex of examples) {
        if (rows >= limitRows || out.size >= limitBytes) break outer;
        if (ex.task !== task) {
          task = ex.task;
          await out.open(join(dir, `samples_bbeh_zeroshot_${task}_${BENCH_DATE_ID}.jsonl`));
        }
        const response = responseFor(ex, byTask, pool, opts.wrong, rnd);
        const m = /The answer is: (.*)$/.exec(response);
        const extracted = m ? m[1] : "[invalid]";
        const correct = extracted === ex.target ? 1.0 : 0.0;
        await out.write(
          JSON.stringify({
            doc_id: ex.index,
            doc: { input: ex.input, target: ex.target },
            target: ex.target,
            arguments: {
              gen_args_0: {
                arg_0: ex.input + SUFFIX,
                arg_1: { until: [], max_gen_toks: 8192, do_sample: false, temperature: 0.0 },
              },
            },
            resps: [[response]],
            filtered_resps: [extracted],
            filter: "get-answer",
            metrics: ["exact_match"],
            doc_hash: fakeHash(rnd),
            prompt_hash: fakeHash(rnd),
            target_hash: fakeHash(rnd),
            exact_match: correct,
          }) + "\n",
        );
        rows++;
      }
      await out.close();
    }
  } finally {
    await out.close();
  }
  return { file: opts.out, rows, bytes: out.size, runs };
}
