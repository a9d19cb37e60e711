/**
 * `ExampleIndex` (lib/pipeline/examples.ts), the scalar identification of the streaming path:
 * - every tie agrees with its record (index, input, target) on every fixture log, on generated
 *   rows of every shape (labels no benchmark knows found by the question text) and on the
 *   13,022 BBH release outputs;
 * - the quarantine reasons word for word (the expectations of canonical_log, bbh_runs and
 *   score_embedded), exact / embedded / chat-template matches, identical inputs handed out in
 *   file order (`resolvePending`);
 * - issue 14: benchmark and task from the content (every BBH and BBEH question, no benchmark
 *   or task given), questions shared by tasks or benchmarks, the file name's task, the lm-eval
 *   version of three BBH items, the cut-short snarks item in every path;
 * - the module is polars-free (scoring Workers load it).
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { BenchmarkScoring, ExampleSet } from "@runlens/benchmarks/types.ts";
import { LM_EVAL_BBH } from "@runlens/benchmarks/bbh/versions.ts";
import { pyLen } from "@runlens/core/python.ts";
import { quoteValue } from "@runlens/logs/quarantine.ts";
import type { CheckedRecord } from "@runlens/pipeline/check.ts";
import {
  ExampleIndex,
  type Identification,
  type IdentifyHints,
  resolvePending,
} from "@runlens/pipeline/examples.ts";
import { dataTest } from "./_data.ts";
import { BBH_SCORING, scoredBenchmarks } from "./_examples.ts";
import { assertTiesAgree, checkedRows, exampleIndex, logFrame, newOutcomes } from "./_identify.ts";
import { generatedRows, TEMPLATES } from "./_identify_gen.ts";

const FIXTURES = new URL("./fixtures/logs/", import.meta.url).pathname;
const NOT_FOUND = "(no example has exactly this text, nor is one the question at its end)";
const FEW_SHOT = TEMPLATES[0];
const CHATML = TEMPLATES[1];
const LLAMA3 = TEMPLATES[2];

/** A checked record: no benchmark, no task, no index, no input unless given. */
function rec(over: Partial<CheckedRecord>): CheckedRecord {
  return {
    line: 1,
    run: "r",
    runFrom: "run",
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
    group: over.group ?? over.run ?? "r", // a record's run is its hand-out group
  };
}

/** `bench/task[index]` (`@version`), `pending bench/task [candidates]`, or the reason. */
function show(x: Identification): string {
  if ("pending" in x) return `pending ${x.benchmark}/${x.task} [${x.candidates.join(", ")}]`;
  if (!x.ok) return x.reason;
  return `${x.benchmark}/${x.task}[${x.example_index}]` +
    (x.data_version ? `@${x.data_version}` : "");
}

// ---------------------------------------------------------------------------------------------
// every tie agrees with what its record says

dataTest("every fixture log (checked records of every format): ties agree with their records", (
  dir,
) => {
  const rows = checkedRows([FIXTURES]);
  const outcomes = newOutcomes(logFrame(rows), dir);
  const ties = assertTiesAgree(rows, outcomes, dir);
  assert.ok(ties > rows.length / 2, `${ties} of ${rows.length} tied`);
});

dataTest(
  "generated rows of every shape: every kind of outcome, ties agree; labels no benchmark knows are found by content",
  (
    dir,
  ) => {
    for (const seed of [1, 2]) {
      const records = generatedRows(scoredBenchmarks(dir), 3000, seed);
      const now = newOutcomes(logFrame(records), dir);
      // every kind of reason occurs (ambiguous_embedded needs nested questions, which the data
      // sets do not have: see the toy test below)
      const kinds = new Set(now.map((o) => o.replace(/ .*/, "")));
      for (
        const k of [
          "bbh/",
          "bbeh/",
          "unsupported",
          "unknown",
          "example_index",
          "target",
          "input",
          "ambiguous",
          "duplicate",
        ]
      ) assert.ok([...kinds].some((x) => x.startsWith(k)), k);
      assertTiesAgree(records, now, dir);
      // a label its benchmark does not know: the question tells the task
      const scoring = new Map(scoredBenchmarks(dir).map((b) => [b.scoring.name, b.scoring]));
      const byContent = now.filter((o, i) => {
        const m = /^(bbh|bbeh)\/(\w+)\[/.exec(o);
        return m !== null && scoring.get(m[1])!.canonicalTask(String(records[i].task)) !== m[2];
      });
      assert.ok(byContent.length > 0);
    }
  },
);

dataTest(
  "the BBH release's 13,022 outputs: tied with their index, and by prompt and target alone",
  (
    dir,
  ) => {
    const outputs = join(dir, "bbh", "code-davinci-002-outputs");
    const rows = checkedRows([outputs]);
    assert.equal(rows.length, 13_022);
    const now = newOutcomes(logFrame(rows), dir);
    assert.ok(now.every((o) => /^bbh\/\w+\[\d+\]$/.test(o))); // snarks 88 too
    assert.equal(assertTiesAgree(rows, now, dir), 13_022);
    // no benchmark, no task, no index: the prompt and the target tie each output to the same
    // example (the target separates causal_judgement 32/119 and 36/104; the same-target
    // repeats of sports_understanding are handed out in file order)
    const bare = logFrame(rows.map(({ run, input, target }) => ({ run, input, target })));
    assert.deepEqual(newOutcomes(bare, dir), now);
  },
);

// ---------------------------------------------------------------------------------------------
// today's reasons, word for word

dataTest("today's quarantine reasons, word for word", (dir) => {
  const index = exampleIndex(dir);
  const bbeh = scoredBenchmarks(dir)[0].examples;
  const bbh = scoredBenchmarks(dir)[1].examples;
  const cases: [Partial<CheckedRecord>, string][] = [
    [
      { benchmark: "arb", task: "nycc", example_index: 1 },
      'unsupported benchmark "arb" (supported: bbeh, bbh): if its rows are one of these, say ' +
      "which with --map benchmark==NAME",
    ],
    [{ benchmark: "bbh", task: "nycc", example_index: 2 }, 'unknown task "nycc" (not a BBH task)'],
    [
      { benchmark: "bbeh", task: "not_a_task", example_index: 1 },
      'unknown task "not_a_task" (not a BBEH task)',
    ],
    [
      { benchmark: "bbh", task: "navigate", example_index: 250 },
      "example_index 250 out of range for navigate (0–249)",
    ],
    [{ task: "nycc", example_index: 200 }, "example_index 200 out of range for nycc (0–199)"],
    [{ task: "nycc", example_index: -1 }, "example_index -1 out of range for nycc (0–199)"],
    [
      { task: "bbeh_nycc", example_index: 5, target: "(Z)" },
      `target "(Z)" differs from the data set's target "${bbeh.nycc[5].target}" for nycc[5]`,
    ],
    [
      { task: "nycc", example_index: 0, input: bbeh.nycc[1].input },
      "input differs from the data set's input for nycc[0]",
    ],
    [
      { task: "linguini", input: "This question is not in BBEH." },
      `input not found in linguini ${NOT_FOUND}`,
    ],
    [
      { task: "linguini", input: bbeh.nycc[0].input }, // another task's question
      `input not found in linguini ${NOT_FOUND}`,
    ],
    [
      { task: "date_understanding", input: `Please solve. ${bbh.date_understanding[20].input}` },
      `input not found in date_understanding ${NOT_FOUND}`,
    ],
    [
      { task: "linguini", input: bbeh.linguini[0].input, target: "not it" },
      `target "not it" differs from the data set's target(s) ` +
      `${quoteValue(bbeh.linguini[0].target, 30)} for this input in linguini (example_index 0)`,
    ],
    [
      { task: "linguini", input: bbeh.linguini[41].input },
      "ambiguous input: 7 examples of linguini (example_index 41, 121, 139, 146, 157, 159, " +
      "185) share it with different targets; give example_index or target",
    ],
    [
      { benchmark: "bbh", task: "causal_judgement", input: bbh.causal_judgement[36].input },
      "ambiguous input: 2 examples of causal_judgement (example_index 36, 104) share it with " +
      "different targets; give example_index or target",
    ],
  ];
  for (const [over, reason] of cases) {
    const got = index.identify(rec(over));
    assert.equal(show(got), reason, JSON.stringify(over).slice(0, 120));
    assert.equal(
      "ok" in got && !got.ok && got.benchmark,
      over.benchmark === "arb" ? null : (
        over.benchmark ?? (bbh[over.task as string] ? "bbh" : "bbeh")
      ),
    );
  }
});

/** The made-up task of score_embedded.test.ts: two of its questions nest at a line boundary. */
const TOY_SCORING: BenchmarkScoring = {
  name: "bbh",
  label: "TOY",
  tasks: [{ name: "t", size: 4 }],
  canonicalTask: (label) => label === "t" ? "t" : null,
  readExamples: () => ({}),
  defaultScorer: "last-line",
  scorers: [],
};
const TOY: ExampleSet = {
  t: [
    { input: "Is 7 prime?", target: "Yes" },
    { input: "Context: numbers.\nIs 7 prime?", target: "Yes" },
    { input: "Is the sky blue?", target: "Yes" },
    { input: "Options:\n- Yes\n- No", target: "No" },
  ],
};

Deno.test("embedded questions resolve, nested ones are ambiguous, others not found (toy task)", () => {
  const index = new ExampleIndex([{ scoring: TOY_SCORING, examples: TOY }]);
  const inputs = [
    CHATML("Is the sky blue?"), // → 2
    "Q: Is the sky blue?\nA: Yes\n\nQ: Is 7 prime?\nA:", // ends with 0; 1 does not fit
    "Intro\nContext: numbers.\nIs 7 prime?\nA:", // both 0 and 1 fit → ambiguous
    "Tell me: Is the sky blue?", // mid-line → not found
    "Is the sky blue?", // exact
    "Which?\nOptions:\n- Yes\n- No\nA: Let's think step by step.", // → 3
  ];
  assert.deepEqual(
    inputs.map((input) => show(index.identify(rec({ benchmark: "bbh", task: "t", input })))),
    [
      "bbh/t[2]",
      "bbh/t[0]",
      "ambiguous input: it ends with several questions of t (example_index 0, 1); give " +
      "example_index",
      `input not found in t ${NOT_FOUND}`,
      "bbh/t[2]", // identify.ts then quarantines it as a duplicate of the first row
      "bbh/t[3]",
    ],
  );
  const ok = index.identify(rec({ benchmark: "bbh", task: "t", input: inputs[5] }));
  assert.deepEqual(ok, {
    ok: true,
    benchmark: "bbh",
    task: "t",
    example_index: 3,
    input: "Options:\n- Yes\n- No",
    target: "No",
    input_chars: 19,
    data_version: null,
  });
});

dataTest(
  "BBH few-shot and chat-template prompts without index; BBEH indices with embedding prompts",
  (
    dir,
  ) => {
    const index = exampleIndex(dir);
    const [bbeh, bbh] = scoredBenchmarks(dir).map((b) => b.examples);
    const ds = bbh.date_understanding;
    const shots = ds.slice(0, 3).map((e) => e.input);
    for (let i = 3; i < 13; i++) {
      const input = i % 2 === 0
        ? shots.map((s) => `Q: ${s}\nA: So the answer is X.`).join("\n\n") +
          `\n\nQ: ${ds[i].input}\nA:`
        : CHATML(ds[i].input);
      const got = index.identify(rec({ benchmark: "bbh", task: "date_understanding", input }));
      assert.equal(show(got), `bbh/date_understanding[${i}]`);
    }
    const nycc = bbeh.nycc;
    assert.deepEqual(
      [
        { task: "nycc", example_index: 0, input: CHATML(nycc[0].input) },
        { task: "nycc", example_index: 1, input: `${nycc[1].input}\nA:` },
        { task: "nycc", example_index: 2, input: nycc[1].input },
        { task: "nycc", input: LLAMA3(nycc[2].input) },
      ].map((r) => show(index.identify(rec(r)))),
      [
        "bbeh/nycc[0]",
        "bbeh/nycc[1]",
        "input differs from the data set's input for nycc[2]",
        "bbeh/nycc[2]",
      ],
    );
  },
);

// ---------------------------------------------------------------------------------------------
// identical inputs, handed out in file order

Deno.test("resolvePending: the k-th record of a key takes the k-th candidate, then the last", () => {
  assert.deepEqual(resolvePending([]), []);
  const rows = [
    { key: "a", candidates: [65, 71] },
    { key: "b", candidates: [65, 71] },
    { key: "a", candidates: [65, 71] },
    { key: "a", candidates: [71] }, // its target left one
    { key: "a", candidates: [65, 71] },
    { key: "b", candidates: [65, 71] },
  ];
  assert.deepEqual(resolvePending(rows), [65, 65, 71, 71, 71, 71]);
});

dataTest(
  "identical inputs: pending with their candidates, handed out per run and epoch in file order",
  (
    dir,
  ) => {
    const index = exampleIndex(dir);
    const bbeh = scoredBenchmarks(dir)[0].examples;
    const spatial = bbeh.spatial_reasoning[65].input;
    const rows = [
      rec({ task: "spatial_reasoning", input: spatial }),
      rec({ task: "spatial_reasoning", input: FEW_SHOT(spatial), target: "pill bottle" }),
      rec({ task: "spatial_reasoning", input: spatial, epoch: 2 }),
      rec({ task: "spatial_reasoning", input: spatial, run: "other" }),
      rec({ task: "spatial_reasoning", input: CHATML(spatial) }),
      // the shared linguini input with a target: its own example (still pending: it shares the key)
      ...[159, 41].map((i) => rec({ task: "Linguini", ...bbeh.linguini[i] })),
    ].map((r) => index.identify(r));
    assert.deepEqual(rows.map(show), [
      ...Array(5).fill("pending bbeh/spatial_reasoning [65, 71]"),
      "pending bbeh/linguini [159]",
      "pending bbeh/linguini [41]",
    ]);
    const pending = rows.filter((r) => "pending" in r);
    assert.deepEqual(resolvePending(pending), [65, 71, 65, 65, 71, 159, 41]); // 5th: a duplicate
    assert.equal(new Set(pending.slice(0, 5).map((p) => p.key)).size, 3); // run, epoch, question
    assert.equal(new Set(pending.slice(5).map((p) => p.key)).size, 1);
    const p = rows[0];
    assert.ok("pending" in p);
    assert.deepEqual(
      [p.input, p.target, p.input_chars, p.data_version],
      [spatial, "pill bottle", pyLen(spatial), null],
    );
  },
);

// ---------------------------------------------------------------------------------------------
// issue 14: benchmark and task from the content

dataTest("every BBEH and BBH question is found without benchmark or task: exact, few-shot, chat", (
  dir,
) => {
  const index = exampleIndex(dir);
  const shared = new Map<string, string>(); // bench/task[i] → the outcome shared inputs get
  const outcomes = new Map<string, number>();
  let n = 0;
  for (const { scoring, examples } of scoredBenchmarks(dir)) {
    for (const [task, ex] of Object.entries(examples)) {
      const byInput = new Map<string, number[]>();
      ex.forEach((e, i) => byInput.set(e.input, [...(byInput.get(e.input) ?? []), i]));
      ex.forEach((e, i) => {
        const same = byInput.get(e.input)!;
        const targets = new Set(same.map((j) => ex[j].target));
        const want = same.length === 1
          ? `${scoring.name}/${task}[${i}]`
          : targets.size === 1
          ? `pending ${scoring.name}/${task} [${same.join(", ")}]`
          : `ambiguous input: ${same.length} examples of ${task} (example_index ${
            same.join(", ")
          }) share it with different targets; give example_index or target`;
        if (same.length > 1) shared.set(`${scoring.name}/${task}[${i}]`, want);
        for (const input of [e.input, FEW_SHOT(e.input), CHATML(e.input), LLAMA3(e.input)]) {
          const got = show(index.identify(rec({ input })));
          assert.equal(got, want, `${scoring.name}/${task}[${i}]`);
          outcomes.set(
            got.replace(/[[(].*/, ""),
            (outcomes.get(got.replace(/[[(].*/, "")) ?? 0) + 1,
          );
          n++;
        }
        // with its target, a shared input's example is pending on the examples of that target
        const withTarget = show(index.identify(rec({ input: CHATML(e.input), target: e.target })));
        const sameTarget = same.filter((j) => ex[j].target === e.target);
        assert.equal(
          withTarget,
          same.length === 1 ? want : `pending ${scoring.name}/${task} [${sameTarget.join(", ")}]`,
        );
      });
    }
  }
  assert.equal(n, 4 * 11_031);
  // the data sets' shared inputs: linguini (7), spatial 65/71, causal_judgement 32/119 and
  // 36/104, sports_understanding 27/155 and 80/227; no question is in two tasks
  assert.deepEqual([...shared.keys()].sort(), [
    "bbeh/linguini[121]",
    "bbeh/linguini[139]",
    "bbeh/linguini[146]",
    "bbeh/linguini[157]",
    "bbeh/linguini[159]",
    "bbeh/linguini[185]",
    "bbeh/linguini[41]",
    "bbeh/spatial_reasoning[65]",
    "bbeh/spatial_reasoning[71]",
    "bbh/causal_judgement[104]",
    "bbh/causal_judgement[119]",
    "bbh/causal_judgement[32]",
    "bbh/causal_judgement[36]",
    "bbh/sports_understanding[155]",
    "bbh/sports_understanding[227]",
    "bbh/sports_understanding[27]",
    "bbh/sports_understanding[80]",
  ]);
});

dataTest(
  "no default benchmark: BBH rows are BBH, BBEH rows BBEH; labels both know are split by content",
  (
    dir,
  ) => {
    const index = exampleIndex(dir);
    const [bbeh, bbh] = scoredBenchmarks(dir).map((b) => b.examples);
    const cases: [Partial<CheckedRecord>, string][] = [
      [{ task: "navigate", example_index: 3 }, "bbh/navigate[3]"], // only BBH has it
      [
        { task: "boolean_expressions", input: bbh.boolean_expressions[7].input },
        "bbh/boolean_expressions[7]",
      ],
      [
        { task: "boolean_expressions", input: bbeh.boolean_expressions[7].input },
        "bbeh/boolean_expressions[7]",
      ],
      [
        { task: "web_of_lies", example_index: 3, input: CHATML(bbh.web_of_lies[3].input) },
        "bbh/web_of_lies[3]",
      ],
      [
        { task: "web_of_lies", example_index: 3, target: bbeh.web_of_lies[3].target },
        "bbeh/web_of_lies[3]",
      ],
      [
        { task: "web_of_lies", example_index: 3 },
        "ambiguous task: example_index 3 fits BBEH web_of_lies and BBH web_of_lies; give " +
        "benchmark, input or target",
      ],
      [
        { task: "web_of_lies", example_index: 3, target: "maybe" },
        `no task fits: BBEH web_of_lies: target "maybe" differs from the data set's target ` +
        `${JSON.stringify(bbeh.web_of_lies[3].target)} for web_of_lies[3]; BBH web_of_lies: ` +
        `target "maybe" differs from the data set's target "${bbh.web_of_lies[3].target}" for ` +
        "web_of_lies[3]",
      ],
      [
        { task: "web_of_lies", input: "Question: nobody asked this?" },
        `input not found in BBEH web_of_lies or BBH web_of_lies ${NOT_FOUND}`,
      ],
      // no task: the index alone cannot say which
      [
        { example_index: 3 },
        "missing task (no task field, no task in the file name, and no input to find it by)",
      ],
      [{ example_index: 3, input: bbh.snarks[3].input }, "bbh/snarks[3]"],
      [
        { example_index: 4, input: bbh.snarks[3].input },
        "input differs from the data set's input for snarks[4]",
      ],
      [
        { input: "What is the capital of France?" },
        "input not found in BBEH or BBH (no task given, and no example of any task has exactly " +
        "this text, nor is one the question at its end)",
      ],
      // a label no benchmark knows: found by the question, else today's reason
      [
        { task: "geometric_shapes-zero-shot-cot", input: bbh.geometric_shapes[9].input },
        "bbh/geometric_shapes[9]",
      ],
      [
        { task: "my_task", input: "What is the capital of France?" },
        'unknown task "my_task" (not a BBEH or BBH task)',
      ],
      [{ task: "my_task", example_index: 1 }, 'unknown task "my_task" (not a BBEH or BBH task)'],
      [
        { benchmark: "bbh", task: "my_task", input: bbeh.nycc[0].input },
        'unknown task "my_task" (not a BBH task)',
      ],
      // a record's benchmark restricts the search
      [
        { benchmark: "bbeh", input: bbh.navigate[0].input },
        `input not found in BBEH (no task given, and no example of any task has exactly this text, nor is one the question at its end)`,
      ],
      [{ benchmark: "bbh", input: FEW_SHOT(bbh.navigate[0].input) }, "bbh/navigate[0]"],
    ];
    for (const [over, want] of cases) {
      assert.equal(
        show(index.identify(rec(over))),
        want,
        JSON.stringify(over).slice(0, 100),
      );
    }
    // --benchmark restricts too
    const only: IdentifyHints = { benchmarks: ["bbeh"] };
    assert.equal(
      show(index.identify(rec({ benchmark: "bbh", task: "navigate", example_index: 0 }), only)),
      'unsupported benchmark "bbh" (supported: bbeh)',
    );
    assert.equal(
      show(index.identify(rec({ task: "x", example_index: 0 }), only)),
      'unknown task "x" (not a BBEH task)',
    );
    assert.equal(show(index.identify(rec({ input: bbeh.nycc[4].input }), only)), "bbeh/nycc[4]");
  },
);

/** BBH plus a made-up benchmark that copies ten BBH navigate questions, five with the other target. */
function withCopy(dir: string): ExampleIndex {
  const navigate = scoredBenchmarks(dir)[1].examples.navigate.slice(0, 10);
  const copy: ExampleSet = {
    navigate_copy: navigate.map((e, i) => ({
      input: e.input,
      target: i < 5 ? e.target : e.target === "Yes" ? "No" : "Yes",
    })),
  };
  const scoring: BenchmarkScoring = {
    name: "copy",
    label: "COPY",
    tasks: [{ name: "navigate_copy", size: 10 }],
    canonicalTask: (l) => (l === "navigate_copy" ? l : null),
    readExamples: () => copy,
    defaultScorer: "stored",
    scorers: [],
  };
  return new ExampleIndex([scoredBenchmarks(dir)[1], { scoring, examples: copy }]);
}

dataTest(
  "a question in two tasks or benchmarks: target, task, benchmark or file name separate them; else both are named",
  (
    dir,
  ) => {
    const index = withCopy(dir);
    const nav = scoredBenchmarks(dir)[1].examples.navigate;
    const q = (i: number) => CHATML(nav[i].input);
    const other = (i: number) => (nav[i].target === "Yes" ? "No" : "Yes");
    const cases: [Partial<CheckedRecord>, IdentifyHints, string][] = [
      [
        { input: q(2) },
        {},
        "ambiguous input: it is a question of BBH navigate (example_index 2) and COPY " +
        "navigate_copy (example_index 2); give benchmark, task or target",
      ],
      [
        { input: q(7), target: nav[7].target },
        {},
        "bbh/navigate[7]",
      ],
      [{ input: q(7), target: other(7) }, {}, "copy/navigate_copy[7]"],
      [
        { input: q(2), target: nav[2].target }, // the same target in both
        {},
        "ambiguous input: it is a question of BBH navigate (example_index 2) and COPY " +
        "navigate_copy (example_index 2); give benchmark, task or target",
      ],
      [{ input: q(2), benchmark: "copy" }, {}, "copy/navigate_copy[2]"],
      [{ input: q(2), task: "navigate" }, {}, "bbh/navigate[2]"],
      [{ input: q(2) }, { task: { benchmark: "bbh", task: "navigate" } }, "bbh/navigate[2]"],
      [
        { input: q(2) },
        { task: { benchmark: null, task: "navigate_copy" } },
        "copy/navigate_copy[2]",
      ],
      [{ input: q(2) }, { benchmarks: ["copy"] }, "copy/navigate_copy[2]"],
      [
        { input: q(2), example_index: 2 },
        {},
        "ambiguous task: example_index 2 fits BBH navigate and COPY navigate_copy; give " +
        "benchmark, input or target",
      ],
      [{ input: q(7), example_index: 7, target: other(7) }, {}, "copy/navigate_copy[7]"],
      [
        { input: q(7), target: "Maybe" },
        {},
        'no task fits: BBH navigate: target "Maybe" differs from the data set\'s target(s) ' +
        `"${nav[7].target}" for this input in navigate (example_index 7); COPY navigate_copy: ` +
        `target "Maybe" differs from the data set's target(s) "${other(7)}" for this input in ` +
        "navigate_copy (example_index 7)",
      ],
    ];
    for (const [over, hints, want] of cases) {
      const got = index.identify(rec(over), hints);
      assert.equal(show(got), want, JSON.stringify([over, hints]).slice(0, 100));
      if ("ok" in got && !got.ok) assert.equal(got.benchmark, null);
    }
  },
);

dataTest(
  "the file name's task: used when the record has none, checked against its task and its text",
  (
    dir,
  ) => {
    const index = exampleIndex(dir);
    const [bbeh, bbh] = scoredBenchmarks(dir).map((b) => b.examples);
    const nav = { task: { benchmark: "bbh", task: "navigate" } };
    const cases: [Partial<CheckedRecord>, IdentifyHints, string][] = [
      [{ example_index: 4 }, nav, "bbh/navigate[4]"],
      [{ input: FEW_SHOT(bbh.navigate[4].input) }, nav, "bbh/navigate[4]"],
      [
        { input: bbh.navigate[4].input },
        { task: { benchmark: null, task: "navigate" } },
        "bbh/navigate[4]",
      ],
      [{ task: "bbh_cot_fewshot_navigate", example_index: 4 }, nav, "bbh/navigate[4]"],
      // the record's task is another one: both names
      [
        { task: "web_of_lies", example_index: 4 },
        nav,
        'task "web_of_lies" (BBEH web_of_lies, BBH web_of_lies) differs from the task the file ' +
        "name names (BBH navigate)",
      ],
      // its text is another task's question: both names
      [
        { input: CHATML(bbh.web_of_lies[12].input) },
        nav,
        "input is a question of BBH web_of_lies (example_index 12), not of the task the file " +
        "name names (BBH navigate)",
      ],
      [
        { input: bbeh.spatial_reasoning[3].input, example_index: 3 },
        nav,
        "input is a question of BBEH spatial_reasoning (example_index 3), not of the task the " +
        "file name names (BBH navigate)",
      ],
      [
        { input: "Is this in no data set at all?" },
        nav,
        `input not found in navigate ${NOT_FOUND}`,
      ],
      [
        { example_index: 250 },
        nav,
        "example_index 250 out of range for navigate (0–249)",
      ],
      // a label both benchmarks know, narrowed by the file name's benchmark
      [{ task: "web_of_lies", example_index: 4 }, {
        task: { benchmark: "bbeh", task: "web_of_lies" },
      }, "bbeh/web_of_lies[4]"],
      // a file name task outside the record's benchmark does not apply
      [{ benchmark: "bbeh", task: "nycc", example_index: 4 }, nav, "bbeh/nycc[4]"],
    ];
    for (const [over, hints, want] of cases) {
      assert.equal(
        show(index.identify(rec(over), hints)),
        want,
        JSON.stringify(over).slice(0, 100),
      );
    }
  },
);

// ---------------------------------------------------------------------------------------------
// data-set versions and the cut-short snarks item

dataTest(
  "the lm-eval version of three BBH items: identified with data_version, unknown disagreements quarantined",
  (
    dir,
  ) => {
    const index = exampleIndex(dir);
    const bbh = scoredBenchmarks(dir)[1].examples;
    for (const item of LM_EVAL_BBH.items) {
      const release = bbh[item.task][item.index];
      const at = `bbh/${item.task}[${item.index}]`;
      const label = `bbh_cot_fewshot_${item.task}`;
      const i = item.index;
      const cases: [Partial<CheckedRecord>, string][] = [
        // lm-eval's row: doc_id, doc.input and its letter target
        [
          { task: label, example_index: i, input: item.input, target: item.target },
          `${at}@lm-eval`,
        ],
        [{ task: label, example_index: i, target: item.target }, `${at}@lm-eval`],
        [{ task: label, example_index: i, input: FEW_SHOT(item.input) }, `${at}@lm-eval`],
        [{ task: label, input: FEW_SHOT(item.input) }, `${at}@lm-eval`],
        [{ input: item.input, target: item.target }, `${at}@lm-eval`],
        // the release's own item
        [{ task: label, example_index: i }, at],
        [{ task: label, example_index: i, input: release.input, target: release.target }, at],
        [{ input: CHATML(release.input) }, at],
        // disagreements no version explains stay quarantined, with today's reason
        [
          { task: label, example_index: i, target: "(C)" },
          `target "(C)" differs from the data set's target ${JSON.stringify(release.target)} for ` +
          `${item.task}[${i}]`,
        ],
        [
          { task: label, example_index: i, input: release.input, target: item.target },
          `target "${item.target}" differs from the data set's target ` +
          `${JSON.stringify(release.target)} for ${item.task}[${i}]`,
        ],
        [
          { task: label, input: item.input, target: release.target },
          `target ${JSON.stringify(release.target)} differs from the data set's target(s) ` +
          `"${item.target}" for this input in ${item.task} (example_index ${i})`,
        ],
      ];
      for (const [over, want] of cases) {
        assert.equal(show(index.identify(rec(over))), want, JSON.stringify(over).slice(0, 120));
      }
      const ok = index.identify(rec({ task: label, example_index: i, target: item.target }));
      assert.ok(!("pending" in ok) && ok.ok);
      assert.deepEqual(
        [ok.input, ok.target, ok.input_chars, ok.data_version],
        [item.input, item.target, pyLen(item.input), "lm-eval"],
      );
    }
    // without the version in the benchmark's scoring part, today's reasons
    const plain = new ExampleIndex([{
      scoring: { ...BBH_SCORING, dataVersions: [] },
      examples: bbh,
    }]);
    const item = LM_EVAL_BBH.items[0];
    assert.equal(
      show(
        plain.identify(rec({ task: item.task, example_index: item.index, target: item.target })),
      ),
      `target "(A)" differs from the data set's target "Monsters, Inc" for movie_recommendation[163]`,
    );
  },
);

dataTest(
  "the cut-short snarks 88 matches in every path: index, prompt, whole question, chat, no task",
  (
    dir,
  ) => {
    const index = exampleIndex(dir);
    const bbh = scoredBenchmarks(dir)[1].examples;
    const released = JSON.parse(Deno.readTextFileSync(join(
      dir,
      "bbh/code-davinci-002-outputs/code-davinci-002-cot/snarks_few_shot_template_0-255000.json",
    ))).outputs[88].input as string;
    const cut = bbh.snarks[88].input;
    assert.ok(cut.endsWith("(A) The NB"));
    const whole = released.slice(
      released.lastIndexOf("\n\nQ: ") + 5,
      released.lastIndexOf("\nA: "),
    );
    assert.ok(whole.startsWith(cut) && whole.includes("(B) The NBA"));
    const cases: [Partial<CheckedRecord>, string][] = [
      [{ task: "snarks", example_index: 88, input: released, target: "(A)" }, "bbh/snarks[88]"],
      [{ task: "snarks", example_index: 88, input: whole }, "bbh/snarks[88]"],
      [{ task: "snarks", example_index: 88, input: cut }, "bbh/snarks[88]"],
      [{ task: "snarks", input: released }, "bbh/snarks[88]"],
      [{ task: "snarks", input: whole }, "bbh/snarks[88]"],
      [{ task: "snarks", input: CHATML(whole) }, "bbh/snarks[88]"],
      [{ input: released }, "bbh/snarks[88]"],
      [{ input: LLAMA3(whole), target: "(A)" }, "bbh/snarks[88]"],
      [{ input: released }, "bbh/snarks[88]"],
      [
        { task: "snarks", example_index: 87, input: whole },
        "input differs from the data set's input for snarks[87]",
      ],
      // not the last question of the prompt: not this example
      [
        { task: "snarks", input: `${released} (A)\n\nQ: Is this another question?\nA:` },
        `input not found in snarks ${NOT_FOUND}`,
      ],
    ];
    for (const [over, want] of cases) {
      assert.equal(show(index.identify(rec(over))), want, JSON.stringify(over).slice(0, 80));
    }
  },
);

// ---------------------------------------------------------------------------------------------

Deno.test("examples.ts loads no polars at run time (scoring Workers load it)", () => {
  const out = new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "lib/pipeline/examples.ts"],
    cwd: new URL("..", import.meta.url).pathname,
    stdout: "piped",
    stderr: "piped",
  }).outputSync();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    roots: string[];
    modules: { specifier: string; dependencies?: { code?: { specifier: string } }[] }[];
  };
  const deps = new Map(
    info.modules.map((
      m,
    ) => [m.specifier, (m.dependencies ?? []).flatMap((d) => d.code ? [d.code.specifier] : [])]),
  );
  // the modules loaded at run time: value imports only (`import type` is erased)
  const loaded = new Set<string>();
  const visit = (s: string) => {
    if (loaded.has(s)) return;
    loaded.add(s);
    for (const d of deps.get(s) ?? []) visit(d);
  };
  visit(info.roots[0]);
  const names = [...loaded].map((s) => s.replace(/^.*\/lib\//, "lib/")).sort();
  assert.deepEqual(names, [
    "lib/core/python.ts",
    "lib/logs/quarantine.ts",
    "lib/pipeline/examples.ts",
    "lib/pipeline/question_key.ts",
  ]);
});
