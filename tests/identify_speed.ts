/**
 * How fast `ExampleIndex` identifies records (a benchmark script, not a test): builds the index
 * over BBEH and BBH, then identifies N prompts that embed a random question of either
 * benchmark at their end (few-shot prompts and chat templates of `_identify_gen.ts`), three
 * ways: with benchmark and task given, with neither (found from the content), and with an
 * index and the prompt (the input check). Prompts are made (and flattened, as JSON-parsed text
 * is) in chunks outside the timed part. Prints build time, rows per second and the ratio of
 * the content search to the explicit task. Rows not tied to the example they were made from
 * are expected: inputs several examples share (linguini, causal_judgement: ambiguous without a
 * target), and a question with leading whitespace after `Question:  ` (three spaces: no
 * boundary by the rule of `question_key.ts`).
 *
 * Usage: `deno run -A tests/identify_speed.ts [N=100000] [DATA_DIR]`
 *
 * @example Not run as a doc test (a benchmark)
 * ```sh
 * RUNLENS_DATA=../shared/data deno run -A tests/identify_speed.ts 100000
 * ```
 * @module
 */
import type { CheckedRecord } from "@runlens/pipeline/check.ts";
import { ExampleIndex, type Identification } from "@runlens/pipeline/examples.ts";
import { scoredBenchmarks } from "./_examples.ts";
import { rng, TEMPLATES } from "./_identify_gen.ts";
import { TEST_DATA_DIR } from "./_data.ts";

const N = Number(Deno.args[0] ?? 100_000);
const dir = Deno.args[1] ?? TEST_DATA_DIR;
const CHUNK = 2_000;

const benchmarks = scoredBenchmarks(dir);
let t0 = performance.now();
const index = new ExampleIndex(benchmarks);
const buildMs = performance.now() - t0;

const all = benchmarks.flatMap(({ scoring, examples }) =>
  Object.entries(examples).flatMap(([task, ex]) =>
    ex.map((e, i) => ({ bench: scoring.name, task, i, input: e.input }))
  )
);

function record(over: Partial<CheckedRecord>): CheckedRecord {
  return {
    line: 1,
    run: "r",
    runFrom: "run",
    group: "r",
    model: "m",
    benchmark: null,
    task: "",
    example_index: null,
    input: null,
    target: null,
    response: "x",
    chars: 1,
    bytes: 1,
    response_tokens: null,
    epoch: 1,
    stored_correct: null,
    tool_extracted: null,
    filter: null,
    ...over,
  };
}

type Mode = "explicit task" | "content only" | "index + prompt";
const modes: Mode[] = ["explicit task", "content only", "index + prompt"];
const timeMs: Record<Mode, number> = {
  "explicit task": 0,
  "content only": 0,
  "index + prompt": 0,
};
const wrong: Record<Mode, number> = { "explicit task": 0, "content only": 0, "index + prompt": 0 };
let chars = 0;
const next = rng(11);
for (let done = 0; done < N; done += CHUNK) {
  const n = Math.min(CHUNK, N - done);
  const picks = Array.from({ length: n }, () => all[Math.floor(next() * all.length)]);
  const prompts = picks.map((p) => {
    // a flat string, as JSON-parsed text is (a concatenation is a rope V8 flattens on use)
    const s = JSON.parse(JSON.stringify(TEMPLATES[Math.floor(next() * TEMPLATES.length)](p.input)));
    chars += s.length;
    return s as string;
  });
  const turn = (done / CHUNK) % modes.length; // rotate the order: no mode always runs first
  for (const mode of [...modes.slice(turn), ...modes.slice(0, turn)]) {
    // fresh copies per mode: V8 keeps a string's hash once computed, which would favour the
    // modes run later
    const texts = prompts.map((s) => JSON.parse(JSON.stringify(s)) as string);
    const records = picks.map((p, k) =>
      mode === "explicit task"
        ? record({ benchmark: p.bench, task: p.task, input: texts[k] })
        : mode === "content only"
        ? record({ input: texts[k] })
        : record({ benchmark: p.bench, task: p.task, example_index: p.i, input: texts[k] })
    );
    const out: Identification[] = new Array(n);
    t0 = performance.now();
    for (let k = 0; k < n; k++) out[k] = index.identify(records[k]);
    timeMs[mode] += performance.now() - t0;
    out.forEach((o, k) => {
      const p = picks[k];
      const ok = "pending" in o
        ? o.candidates.includes(p.i)
        : o.ok && o.example_index === p.i && o.task === p.task;
      if (!ok) wrong[mode]++;
    });
  }
}

console.log(`index build: ${buildMs.toFixed(0)} ms (${all.length} examples)`);
console.log(`${N} prompts, mean ${(chars / N).toFixed(0)} characters`);
for (const mode of modes) {
  const s = timeMs[mode] / 1000;
  console.log(
    `${mode.padEnd(15)} ${s.toFixed(2)} s  ${(N / s).toFixed(0)} rows/s` +
      (wrong[mode] ? `  (${wrong[mode]} not tied to the example they were made from)` : ""),
  );
}
console.log(
  `content only / explicit task: ${(timeMs["content only"] / timeMs["explicit task"]).toFixed(2)}×`,
);
