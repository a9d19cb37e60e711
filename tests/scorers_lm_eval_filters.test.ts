/**
 * Building blocks of the lm-evaluation-harness ports: word2number, the exact_match
 * normalisation, Python `re` helpers, the option parser and the word-sort scanner.
 * @module
 */
import assert from "node:assert/strict";
import {
  lmEvalPlainEqual,
  lmEvalZeroshotNormalize,
} from "@runlens/benchmarks/bbh/scorers/lm_eval/exact_match.ts";
import {
  findallBoundedWords,
  mcChoices,
  pyRegex,
  regexFilter,
} from "@runlens/benchmarks/bbh/scorers/lm_eval/filters.ts";
import { englishNumberMatches, wordToNum } from "@runlens/scorers/lm_eval/word2number.ts";
import { escapeJs, pyFindall } from "@runlens/scorers/pyre.ts";

Deno.test("word2number: word_to_num as ported, with reasons", () => {
  const table: [string, number | null, string][] = [
    ["twenty one", 21, "two words add"],
    ["two hundred and five", 205, "'and' is dropped; hundred multiplies"],
    ["one million two thousand", 1002000, "million then thousand"],
    ["nine hundred ninety nine billion", 999000000000, "4 words before billion"],
    ["fourteen", 14, "one word"],
    ["twenty-two", 22, "hyphens become spaces"],
    ["42", 42, "a digit string is returned as it is"],
    ["and", null, "no number word: ValueError"],
    ["thousand thousand", null, "thousand twice: ValueError"],
    ["thousand million", null, "thousand before million: malformed"],
    ["thousand five", null, "nothing before thousand: IndexError"],
    ["one two three four five", 1, "more than 4 words: the first one only"],
    ["trillion", null, "'trillion' is matched by the harness regex but unknown here"],
  ];
  for (const [words, want, why] of table) assert.equal(wordToNum(words), want, why);
});

Deno.test("English number regex: the harness's phrases, quirks included", () => {
  assert.deepEqual(englishNumberMatches("twenty one apples and ten pears"), ["twenty one", "ten"]);
  assert.deepEqual(englishNumberMatches("often someone"), ["ten", "one"], "no word boundaries");
  assert.deepEqual(englishNumberMatches("seven"), [], "no bare six/seven/eight/nine at the end");
  assert.deepEqual(englishNumberMatches("seventy seven"), ["seventy"], "…not even after a head");
  assert.deepEqual(englishNumberMatches("eighty eight"), ["eighty"], "'eight' alone ends nothing");
  assert.deepEqual(englishNumberMatches("eight hundred"), ["eight hundred"], "bare eight as head");
});

Deno.test("exact_match (cot_zeroshot): regexes_to_ignore then lower", () => {
  const table: [string, string, string][] = [
    ['"Yes".', "yes", "quotes, final period, case"],
    ["1,000.\n", "1000", "Python's $ matches before a final newline; newlines removed"],
    ["a.\n\n", "a.", "$ does not match before an inner newline"],
    ["x..", "x.", "one final period only"],
    ["a\\b", "ab", "backslashes"],
    ["AB\u0000\u0000", "ab", "numpy drops trailing NULs"],
    ["ΟΔΟΣ", "οδος", "Unicode lower-casing with final sigma (Python, Rust and JS agree)"],
  ];
  table.forEach(([s, want, why]) => {
    assert.equal(lmEvalZeroshotNormalize(s), want, `scalar: ${why}`);
  });
  assert.ok(lmEvalPlainEqual("(A)\u0000", "(A)"), "plain: trailing NUL ignored");
  assert.ok(!lmEvalPlainEqual("(a)", "(A)"), "plain: case matters");
});

Deno.test("Python re helpers: findall shapes, \\b, escaping", () => {
  assert.deepEqual(pyFindall(/\d+/gu, "a1b22"), ["1", "22"]);
  assert.deepEqual(pyFindall(/(x)|(y)/gu, "xy"), [["x", ""], ["", "y"]]);
  assert.throws(() => pyFindall(/a/g, "a"), /needs a \/gu regex/);
  assert.deepEqual(pyFindall(pyRegex("\\b(no)\\b"), "no, nobody; éno no_ no"), ["no", "no"]);
  assert.equal(regexFilter("x", "(a)|(b)", 0), "[invalid]");
  const nasty = "a.b*c+(d)[e]{f}|g^h$i\\j#k&l-m~n<o>p/q?";
  assert.ok(new RegExp(`^${escapeJs(nasty)}$`, "u").test(nasty), "escapeJs: a literal in JS");
});

Deno.test("options: every (X) of the input, lettered by position", () => {
  const c = mcChoices("Is (A) right?\nOptions:\n(A) Yes!\n(B) foo !\n(C) ^top");
  assert.deepEqual(c.keys, ["right", "yes", "foo ", ""]);
  assert.deepEqual(c.letters, ["A", "B", "C", "D"]);
  assert.equal(c.toLetter.get("yes"), "(B)");
});

Deno.test("word sort: the regex-free scanner equals re.findall of \\bw\\b alternatives", () => {
  const words = ["o'neil", "at&t", "apple", "app", "pear", "é"];
  const texts = [
    "apple app pear, at&t and o'neil",
    "pineapple apps xo'neil o'neilx at&tx",
    "'o'neil' é éa aé _apple apple_ 9apple",
    "apple\u{1F600}app \u{1D400}pear",
    "",
  ];
  // What CPython's re.findall returns for each text (checked with CPython 3.11):
  const python = [
    ["apple", "app", "pear", "at&t", "o'neil"],
    [],
    ["o'neil", "é"],
    ["apple", "app"],
    [],
  ];
  const re = pyRegex(words.map((w) => `\\b${w}\\b`).join("|"));
  texts.forEach((t, i) => {
    assert.deepEqual(findallBoundedWords(t, words), python[i], t);
    assert.deepEqual(pyFindall(re, t), python[i], t);
  });
});
