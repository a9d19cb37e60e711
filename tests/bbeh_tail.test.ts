/**
 * The BBEH verdict from a response's JSON bytes (`lib/benchmarks/bbeh/tail.ts`, the
 * `scoreSpan` of `bbeh-official`): every verdict equals `bbehOfficial(response, target)` —
 * differentially over all 4,520 targets of the data set with generated adversarial responses
 * (answer lines of every form the official rules know, prefixes planted before the tail,
 * escapes and surrogate pairs at the tail boundary, `\u`-escaped prefix letters, byte order
 * marks), written as `JSON.stringify` writes them and with every non-ASCII character escaped
 * (Python's `ensure_ascii`); and on the conformance table's cases for every tail length.
 * Whether an answer was found (`found`) is compared the same way.
 * `tailStart` always yields a suffix of the decoded text.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { mulberry32 } from "@runlens/core/rng.ts";
import { readTaskFile } from "@runlens/core/task_file.ts";
import { scanLine, Tape } from "@runlens/codecs/json_scan.ts";
import { bbehNormalizeTarget, bbehOfficial } from "@runlens/benchmarks/bbeh/scorer.ts";
import { bbehOfficialScorer } from "@runlens/benchmarks/bbeh/official_scorer.ts";
import { findBbehRelease } from "@runlens/benchmarks/bbeh/examples.ts";
import { BBEH_TASKS } from "@runlens/benchmarks/bbeh/tasks.ts";
import { bbehVerdictFromSpan, TAIL_BYTES, tailStart } from "@runlens/benchmarks/bbeh/tail.ts";
import { dataTest } from "./_data.ts";

const enc = new TextEncoder();

/** JSON text of `s` with every non-ASCII character (and some ASCII) as `\u` escapes. */
function asciiJson(s: string, rnd: () => number, escapeAscii: number): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += "\\\\";
    else if (c < 0x20) out += JSON.stringify(s[i]).slice(1, -1);
    else if (c >= 0x80 || rnd() < escapeAscii) out += "\\u" + c.toString(16).padStart(4, "0");
    else out += s[i];
  }
  return out + '"';
}

const FILLER = [
  "Let me think step by step. ",
  "So far: position 1 → red, «kʷe» means 'and'. ",
  'He said "the third one lies".\n',
  "Emoji 😀 and math 𝟙𝟚. ",
  "\t",
  "\\ backslash \\u0041 text ",
  "The answer is: (A) was my first guess.\n",
  "The final answer is 7. ",
  "The answer is 12 ",
  "Then again. ",
  "\ufeff", // a byte order mark: not whitespace for the rules, dropped by default TextDecoders
];

function response(rnd: () => number, target: string, other: string): string {
  let head = rnd() < 0.05 ? "\ufeff" : "";
  const n = Math.floor(rnd() * 200);
  for (let i = 0; i < n; i++) {
    const f = FILLER[Math.floor(rnd() * FILLER.length)];
    // Most filler avoids the prefixes, so that the tail path is exercised.
    if (f.startsWith("The") && rnd() < 0.8) continue;
    head += f;
  }
  const answer = rnd() < 0.5 ? target : other;
  const forms = [
    `The answer is: ${answer}`,
    `The answer is: ${answer}.`,
    `**The answer is: ${answer}**`,
    `The final answer is $\\boxed{${answer}}$.`,
    `The final answer is: ${answer}`,
    `So the answer is ${answer}`,
    `The answer is ${answer}`,
    `${answer}`,
    `The answer is: ${answer}\n\n   `,
    `The answer is: ${answer}\u2003\n`,
    `The answer is `,
  ];
  return head + "\n\n" + forms[Math.floor(rnd() * forms.length)];
}

/** The span of the string `json` as the scanner records it in the line `{"r":json}`. */
function scanned(json: string): { b: Uint8Array; start: number; end: number; flags: number } {
  const b = enc.encode(`{"r":${json}}`);
  const tape = new Tape();
  assert.ok(scanLine(b, 0, b.length, tape) >= 0, json.slice(0, 200));
  return { b, start: tape.start[0], end: tape.end[0], flags: tape.flags[0] };
}

function verdictOf(json: string, normTarget: string, tailBytes?: number) {
  const { b, start, end, flags } = scanned(json);
  return bbehVerdictFromSpan(b, start, end, flags, normTarget, tailBytes);
}

dataTest("tail verdicts equal bbehOfficial over the data set's 4,520 targets", (dataDir) => {
  const release = findBbehRelease(dataDir);
  const rnd = mulberry32(11);
  let fast = 0, total = 0, targets = 0, notFound = 0, foundFast = 0;
  for (const info of BBEH_TASKS) {
    const path = join(release, "benchmark_tasks", `bbeh_${info.name}`, "task.json");
    const all = readTaskFile(path, "BBEH").map((e) => e.target);
    for (let i = 0; i < all.length; i++) {
      const target = all[i];
      const other = all[Math.floor(rnd() * all.length)];
      const resp = response(rnd, target, other);
      const want = bbehOfficial(resp, target);
      const norm = bbehNormalizeTarget(target);
      targets++;
      for (
        const json of [JSON.stringify(resp), asciiJson(resp, rnd, 0), asciiJson(resp, rnd, 0.01)]
      ) {
        const got = verdictOf(json, norm);
        assert.equal(got.correct, want.correct, `${info.name}[${i}] ${json.slice(-200)}`);
        assert.equal(got.extracted, want.extracted, `${info.name}[${i}] ${json.slice(-200)}`);
        assert.equal(got.found, want.found, `${info.name}[${i}] ${json.slice(-200)}`);
        // the scorer's method: the same, from the raw target
        const { b, start, end, flags } = scanned(json);
        assert.deepEqual(
          bbehOfficialScorer.scoreSpan!(b, start, end, flags, target),
          { extracted: want.extracted, correct: want.correct, found: want.found },
          `scoreSpan ${info.name}[${i}]`,
        );
        total++;
        if (got.fast) fast++;
        if (!got.found) notFound++;
        if (got.found && got.fast) foundFast++;
      }
    }
  }
  assert.equal(targets, 4520);
  assert.ok(fast > total / 5, `tail path taken ${fast} of ${total} times`);
  // both answers of `found` are exercised, and the tail path says "found" itself
  assert.ok(notFound > 100 && foundFast > total / 10, `${notFound}, ${foundFast}`);
});

Deno.test("tail verdicts: a prefix before the tail forces the full text", () => {
  const head = "The answer is: (A)\n" + "x".repeat(5000);
  const resp = head + "\nThe final answer is (B)";
  const want = bbehOfficial(resp, "(B)");
  const got = verdictOf(JSON.stringify(resp), bbehNormalizeTarget("(B)"));
  assert.deepEqual(
    { e: got.extracted, c: got.correct, f: got.found },
    { e: want.extracted, c: want.correct, f: want.found },
  );
  assert.equal(got.fast, false);
  // The same prefix written with a \u escape: raw bytes cannot see it, so the full path runs.
  const escaped = JSON.stringify(resp).replace("The answer is:", "\\u0054he answer is:");
  const got2 = verdictOf(escaped, bbehNormalizeTarget("(B)"));
  assert.equal(got2.extracted, want.extracted);
  assert.equal(got2.fast, false);
});

Deno.test("tail verdicts: a leading byte order mark is kept, short or long, escaped or not", () => {
  for (const resp of ["\ufeffyes", "\ufeff" + "y".repeat(5000), "\ufeffyes\n"]) {
    const want = bbehOfficial(resp, "yes");
    for (const json of [JSON.stringify(resp), JSON.stringify(resp).replace("\ufeff", "\\ufeff")]) {
      const got = verdictOf(json, bbehNormalizeTarget("yes"));
      assert.deepEqual(
        [got.extracted, got.correct],
        [want.extracted, want.correct],
        json.slice(0, 20),
      );
    }
  }
  assert.equal(bbehOfficial("\ufeffyes", "yes").correct, false, "U+FEFF is not whitespace");
});

interface Case {
  id: string;
  response: string;
  target: string;
  correct: boolean;
}

const CASES: Case[] = JSON.parse(
  Deno.readTextFileSync(new URL("./fixtures/bbeh_scorer_cases.json", import.meta.url)),
);

Deno.test("tail verdicts: the conformance table's cases for every tail length", () => {
  // (moved from lean_scoring.test.ts, where it held the polars form's bounded tail)
  const rnd = mulberry32(5);
  const failures: string[] = [];
  for (const tail of [1, 2, 3, 7, 13, 14, 15, 20, 21, 22, 40, 100, 512, 10_000]) {
    for (const c of CASES) {
      const want = bbehOfficial(c.response, c.target);
      for (const json of [JSON.stringify(c.response), asciiJson(c.response, rnd, 0.05)]) {
        const got = verdictOf(json, bbehNormalizeTarget(c.target), tail);
        if (
          got.extracted !== want.extracted || got.correct !== c.correct || got.found !== want.found
        ) {
          failures.push(
            `tail ${tail}, ${c.id}: ${JSON.stringify(got.extracted)} ${got.correct} ${got.found}`,
          );
        }
      }
    }
  }
  assert.deepEqual(failures.slice(0, 10), []);
});

Deno.test("tailStart gives a suffix of the decoded string at every position", () => {
  const rnd = mulberry32(3);
  const pieces = ["a", "é", "😀", "\n", '"', "\\", "\ud83d", "\ude00", "\u0001", "日"];
  for (let t = 0; t < 300; t++) {
    let s = "";
    for (let i = 0; i < 40; i++) s += pieces[Math.floor(rnd() * pieces.length)];
    for (const json of [JSON.stringify(s), asciiJson(s, rnd, 0.3)]) {
      const b = enc.encode(json);
      const lo = 1, hi = b.length - 1;
      for (let p = lo; p <= hi; p++) {
        const q = tailStart(b, lo, hi, p);
        assert.ok(q >= p && q <= hi);
        const tail = JSON.parse('"' + new TextDecoder().decode(b.subarray(q, hi)) + '"');
        assert.ok(s.endsWith(tail), `${json} at ${p}`);
        const cut = s.length - tail.length;
        const split = cut > 0 && cut < s.length && /[\ud800-\udbff]/.test(s[cut - 1]) &&
          /[\udc00-\udfff]/.test(s[cut]);
        assert.ok(!split, `splits a surrogate pair: ${json} at ${p}`);
      }
    }
  }
  assert.ok(TAIL_BYTES > 0);
});
