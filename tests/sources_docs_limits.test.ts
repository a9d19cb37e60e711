/**
 * Hostile documents (issue 15, items 1 and 4) through the document sources: values nested
 * 100,000 deep and objects with a million keys never reach `JSON.parse` — inside a record they
 * make that record a bad record with the reason, elsewhere the file an error naming where;
 * NUL and control characters in text are carried or refused as JSON, never an internal error;
 * lines of non-JSON whitespace are records. Also the depth/key scan against a reference on
 * random JSON.
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DEFAULT_LIMITS } from "@runlens/logs/limits.ts";
import { depthReason, keysReason, scanJsonLimits } from "@runlens/codecs/json_limits.ts";
import { FileError } from "@runlens/logs/sources/types.ts";
import { buildZip, DEFLATE, rng, utf8, ZSTD } from "./_containers.ts";
import { collect } from "./_collect.ts";
import { withTempDir } from "./_tmp.ts";

const DEEP = "[".repeat(100_000) + "]".repeat(100_000);
/** Nested as deep, with random numbers: compresses like data, not like a bomb. */
const DEEP_VARIED = (() => {
  const r = rng(5);
  return Array.from({ length: 100_000 }, () => `[${Math.floor(r() * 1e9)},`).join("") + "0" +
    "]".repeat(100_000);
})();
const WIDE = "{" + Array.from({ length: 1_000_000 }, (_, i) => `"k${i}":0`).join(",") + "}";
const DEPTH = depthReason(DEFAULT_LIMITS.maxDepth);
const KEYS = keysReason(DEFAULT_LIMITS.maxKeys);

/** Read `text` written to `name` in a fresh folder (tree: `sub/dir/name`) with `format`. */
function read(format: string, name: string, text: string | Uint8Array) {
  return withTempDir((dir) => {
    const path = join(dir, name);
    Deno.mkdirSync(join(path, ".."), { recursive: true });
    if (typeof text === "string") Deno.writeTextFileSync(path, text);
    else Deno.writeFileSync(path, text);
    try {
      const got = collect(format, path);
      return { records: got.records, bad: got.bad.map((b) => [b.line, b.reason]) };
    } catch (e) {
      if (!(e instanceof FileError)) throw e;
      return { error: e.reason };
    }
  });
}

Deno.test("limits: a record nested 100,000 deep or with 1,000,000 keys is one bad record", () => {
  const t0 = performance.now();
  const release = read(
    "bbh-release-outputs",
    "code-davinci-002-cot/navigate_few_shot_template_0-255000.json",
    `{"canary": "c", "outputs": [{"input": "q", "prediction": "p", "target": "t"}, ` +
      `{"input": ${DEEP}}, ${WIDE}, {"input": "q2", "prediction": "p2", "target": "t2"}]}`,
  );
  assert.deepEqual(release.bad, [[2, `record 2: ${DEPTH}`], [3, `record 3: ${KEYS}`]]);
  assert.deepEqual(release.records!.map((r) => [r.line, r.example_index]), [[1, 0], [4, 3]]);
  const predictions = read(
    "opencompass-predictions",
    "w/predictions/m/bbeh_nycc.json",
    `{"0": {"prediction": "a", "gold": "b"}, "1": ${
      DEEP.replace("[", '{"x": [').replace(/]$/, "]}")
    }, "2": ${WIDE}}`,
  );
  assert.deepEqual(predictions.bad, [[2, `record "1": ${DEPTH}`], [3, `record "2": ${KEYS}`]]);
  const results = read(
    "opencompass-results",
    "w/results/m/bbh-navigate.json",
    `{"details": [{"pred": "A", "correct": [true]}, ${DEEP}]}`,
  );
  assert.deepEqual(results.bad, [[2, `detail 1: ${DEPTH}`]]);
  const mcpbr = read(
    "mcpbr",
    "run/results.json",
    `{"metadata": {}, "tasks": [${WIDE}, {"instance_id": "bbh_navigate_1", "mcp": {"agent_answer": "x"}}]}`,
  );
  assert.deepEqual(mcpbr.bad, [[1, `task 1: ${KEYS}`]]);
  assert.equal(mcpbr.records!.length, 1);
  const legacy = read(
    "inspect-json",
    "log.json",
    `{"eval": {"task": "bbh", "model": "m"}, "samples": [{"id": 1, "output": {"completion": "x"}}, ${DEEP}]}`,
  );
  assert.deepEqual(legacy.bad, [[2, `sample 2: ${DEPTH}`]]);
  const evals = read(
    "openai-evals",
    "run.log",
    [
      '{"spec": {"completion_fns": ["m"], "eval_name": "bbh_navigate.dev.v0"}}',
      DEEP,
      WIDE,
      '{"run_id": "r", "sample_id": "n.dev.1", "type": "sampling", "data": {"sampled": "Yes"}}',
    ].join("\n") + "\n",
  );
  assert.deepEqual(evals.bad, [[2, DEPTH], [3, KEYS]]);
  assert.equal(evals.records!.length, 1);
  assert.ok(performance.now() - t0 < 30_000);
});

Deno.test("limits: outside every record, the file is an error naming where", () => {
  assert.deepEqual(
    read("mcpbr", "results.json", `{"metadata": ${DEEP}, "tasks": []}`),
    { error: `${DEPTH} at byte 1,012 (outside any record)` },
  );
  const wideRoot = read("opencompass-predictions", "w/predictions/m/bbeh_nycc.json", WIDE);
  assert.match(
    wideRoot.error!,
    /^JSON object with more than 100,000 keys \(not read; --max-keys\) at byte/,
  );
  // raised limits read what they allow
  const limits = { ...DEFAULT_LIMITS, maxDepth: 200_000 };
  withTempDir((dir) => {
    const path = join(dir, "results.json");
    Deno.writeTextFileSync(
      path,
      `{"metadata": {"x": ${"[".repeat(5000) + "]".repeat(5000)}}, "tasks": []}`,
    );
    assert.deepEqual(collect("mcpbr", path, { limits }).records, []);
  });
});

Deno.test("limits: .eval members — a deep sample is a bad record, a deep header an error", () => {
  const spec = JSON.stringify({ version: 2, status: "success", eval: { task: "bbh", model: "m" } });
  const sample = (id: number) => JSON.stringify({ id, epoch: 1, output: { completion: `a${id}` } });
  for (const method of [DEFLATE, ZSTD]) {
    const ok = buildZip([
      { name: "header.json", method, data: utf8(spec) },
      { name: "samples/1_epoch_1.json", method, data: utf8(sample(1)) },
      { name: "samples/2_epoch_1.json", method, data: utf8(`{"id": 2, "x": ${DEEP_VARIED}}`) },
      { name: "samples/3_epoch_1.json", method, data: utf8(WIDE) },
    ]);
    const got = read("inspect-eval", "run.eval", ok);
    assert.deepEqual(got.bad, [
      [2, `sample samples/2_epoch_1.json: ${DEPTH}`],
      [3, `sample samples/3_epoch_1.json: ${KEYS}`],
    ]);
    assert.deepEqual(got.records!.map((r) => r.response), ["a1"]);
    const deepHeader = buildZip([
      {
        name: "header.json",
        method,
        data: utf8(`{"eval": {"task": "bbh"}, "results": ${DEEP_VARIED}}`),
      },
      { name: "samples/1_epoch_1.json", method, data: utf8(sample(1)) },
    ]);
    assert.match(
      read("inspect-eval", "run.eval", deepHeader).error!,
      /^member header\.json: JSON nested deeper than 1,000 levels \(not read; --max-depth\) at byte [\d,]+ \(outside any record\)$/,
    );
  }
});

Deno.test("text oddities: NUL and control characters, U+2028 lines, encodings", () => {
  // escaped NUL and control characters in text: carried as they are (the check step decides)
  const release = read(
    "bbh-release-outputs",
    "r-cot/snarks_few_shot_template_0-255000.json",
    '{"canary": "c", "outputs": [{"input": "a\\u0000b\\\\", "prediction": "x\\u0007\\u2028", "target": "t"}]}',
  );
  assert.deepEqual(release.records!.map((r) => [r.input, r.response]), [[
    "a\u0000b\\",
    "x\u0007\u2028",
  ]]);
  // a raw control character is not JSON: the document is an error naming it
  const raw = read(
    "mcpbr",
    "results.json",
    '{"tasks": [{"instance_id": "bbh_a_1", "mcp": {"agent_answer": "a\u0001b"}}]}',
  );
  assert.match(raw.error!, /^not a JSON document \(/);
  // lines of non-JSON whitespace are records (malformed), never skipped as blank
  const evals = read(
    "openai-evals",
    "run.log",
    '{"spec": {"eval_name": "bbh_navigate.dev.v0"}}\n\u2028\n\u00a0\n\f\n \t\r\n\n',
  );
  assert.deepEqual(evals.bad!.map((b) => b[0]), [2, 3, 4]);
  assert.ok(evals.bad!.every((b) => String(b[1]).startsWith("malformed JSON")));
  // Latin-1 and UTF-16 documents: errors saying so
  const latin1 = new Uint8Array([...utf8('{"tasks": [], "x": "'), 0xe9, ...utf8('"}')]);
  assert.match(read("mcpbr", "results.json", latin1).error!, /^line 1 is not valid UTF-8/);
  const utf16 = new Uint8Array([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]);
  assert.match(
    read("bbh-release-outputs", "x-cot/a_few_shot_template_0.json", utf16).error!,
    /^UTF-16 text/,
  );
  assert.match(read("openai-evals", "run.log", utf16).error!, /^UTF-16 text/);
});

/** The deepest nesting and the most keys of one object in a parsed value (the reference). */
function measure(v: unknown, depth = 0): { depth: number; keys: number } {
  if (v === null || typeof v !== "object") return { depth, keys: 0 };
  const children = Array.isArray(v) ? v : Object.values(v);
  let d = depth + 1;
  let k = Array.isArray(v) ? 0 : Object.keys(v).length;
  for (const c of children) {
    const m = measure(c, depth + 1);
    d = Math.max(d, m.depth);
    k = Math.max(k, m.keys);
  }
  return { depth: d, keys: k };
}

function randomJson(r: () => number, depth = 0): unknown {
  const pick = r();
  if (depth > 7 || pick < 0.3) {
    const s = ['a"b', "c\\d", "{[", "]}", ":,", "\u00e9", ""][Math.floor(r() * 7)];
    return [1, -2.5e3, true, false, null, s][Math.floor(r() * 6)];
  }
  const n = Math.floor(r() * 5);
  if (pick < 0.65) return Array.from({ length: n }, () => randomJson(r, depth + 1));
  return Object.fromEntries(
    Array.from({ length: n }, (_, i) => [`k"${i}\\:{`, randomJson(r, depth + 1)]),
  );
}

Deno.test("scanJsonLimits agrees with a reference on random JSON (strings full of brackets)", () => {
  const r = rng(99);
  for (let k = 0; k < 500; k++) {
    const value = randomJson(r);
    const bytes = utf8(JSON.stringify(value, null, k % 2 ? 1 : undefined));
    const { depth, keys } = measure(value);
    const maxDepth = 1 + Math.floor(r() * 9);
    const maxKeys = Math.floor(r() * 6);
    const scan = scanJsonLimits(bytes, { maxDepth, maxKeys });
    const expected = depth > maxDepth || keys > maxKeys;
    assert.equal(
      scan.outside !== null,
      expected,
      `case ${k}: depth ${depth}/${maxDepth}, keys ${keys}/${maxKeys}`,
    );
  }
});
