/**
 * Generators of the line-level classes: hostile JSON lines inside an otherwise good canonical,
 * gzip, lm-eval or `--map` log — truncated and invalid lines, wrong field types, bad encodings,
 * control characters, lines of non-JSON whitespace, overlong and deeply nested lines, objects
 * with a million keys, duplicate keys, huge numbers. Every hostile line is one record that must
 * be quarantined (`q: 1`), scored (`q: 0`) or either (`q: null`); the file is never an error.
 *
 * @example
 * ```ts
 * import { LINE_CLASSES } from "./gen_lines.ts";
 * LINE_CLASSES.map((c) => c.name); // ["jsonl-truncated", "jsonl-invalid", …]
 * ```
 * @module
 */
import { concat, jsonlRecords, utf8 } from "./bytes.ts";
import type { Example } from "./data.ts";
import {
  type Carrier,
  carrierFile,
  CARRIERS,
  type CaseBody,
  type Gen,
  type Hostile,
  lineCase,
  maybeCompanions,
  withRaw,
} from "./gen_common.ts";
import type { ClassDef } from "./registry_types.ts";

const pickCarrier = (g: Gen, names: Carrier["name"][]): Carrier => CARRIERS[g.rng.pick(names)];
const ALL: Carrier["name"][] = ["canonical", "canonical-gz", "lm-eval", "mapped"];
const NO_LM: Carrier["name"][] = ["canonical", "canonical-gz", "mapped"];

/** A hostile record: `carrier`'s good record of `ex` with `field` set to the raw JSON `raw`. */
function rawField(
  g: Gen,
  carrier: Carrier,
  ex: Example,
  field: "task" | "index" | "response",
  raw: string | Uint8Array,
): Uint8Array | null {
  const rec = carrier.record(g, ex);
  if (!carrier.set(rec, field, "__RAW__")) return null;
  return withRaw(rec, raw);
}

/** A hostile record with an extra field `name` holding the raw JSON `raw`. */
function rawExtra(g: Gen, carrier: Carrier, ex: Example, raw: string | Uint8Array, name = "x") {
  const rec = carrier.record(g, ex);
  rec[name] = "__RAW__";
  return withRaw(rec, raw);
}

const one = (line: Uint8Array, q: number | null): Hostile[] => [{ line, q }];

/** Several instances of a class case in one file, sometimes. */
function body(g: Gen, carrier: Carrier, build: (spare: Example[]) => Hostile[], about: string) {
  return maybeCompanions(g, lineCase(g, carrier, g.rng.int(1, 6), build, about), 0.35);
}

const truncated: ClassDef = {
  name: "jsonl-truncated",
  about: "a record cut short (last line without newline, or in the middle of the file)",
  full: 60,
  ci: 8,
  variants: ["last-no-newline", "middle", "multibyte", "last-with-newline"],
  gen(g, variant) {
    const carrier = pickCarrier(g, ALL);
    const cut = (ex: Example): Uint8Array => {
      const rec = carrier.record(g, ex);
      if (variant === "multibyte") carrier.set(rec, "response", "Réponse: ü ✓ 日本 — the answer");
      const bytes = utf8(JSON.stringify(rec));
      let at = g.rng.int(1, bytes.length - 1);
      if (variant === "multibyte") {
        const mb = bytes.findIndex((b, i) => i > bytes.length / 3 && b >= 0xc0);
        if (mb > 0) at = mb + 1;
      }
      return bytes.subarray(0, at);
    };
    const options = variant === "last-no-newline"
      ? { hostileLast: true, noFinalNewline: true }
      : variant === "last-with-newline"
      ? { hostileLast: true }
      : {};
    return maybeCompanions(
      g,
      lineCase(
        g,
        carrier,
        g.rng.int(1, 6),
        (s) => one(cut(s[0]), 1),
        `truncated record (${variant})`,
        options,
      ),
      0.35,
    );
  },
};

/** Lines that are not one JSON object holding a scorable record. */
const INVALID_LINES = [
  '{"task": "nycc", response: "x"}',
  "not json at all",
  '{"a": 1}}',
  "[1, 2, 3]",
  "null",
  '"just a string"',
  "42",
  "true",
  '{"a": 1,}',
  "{'task': 'nycc', 'response': 'x'}",
  '{"response": NaN}',
  '{"response": Infinity}',
  '{"a": "unterminated}',
  '{"a": 01}',
  '{"a": "bad \\x escape"}',
  '{"a": "raw\ttab"}',
  "// a comment",
  "# a comment",
  "{}",
  "[]",
  '{"":""}',
  "{\u0000}",
  "\u001b[31mred\u001b[0m",
  "<html><body>502 Bad Gateway</body></html>",
];

const invalid: ClassDef = {
  name: "jsonl-invalid",
  about: "a line that is not a JSON object (or not only one), between good records",
  full: 80,
  ci: 12,
  variants: ["fixed", "valid-then-garbage", "two-objects", "fixed", "garbage-then-valid"],
  gen(g, variant) {
    const carrier = pickCarrier(g, ALL);
    const build = (s: Example[]): Hostile[] => {
      const good = JSON.stringify(carrier.record(g, s[0]));
      switch (variant) {
        case "valid-then-garbage":
          return one(utf8(`${good}garbage`), 1);
        case "two-objects":
          return one(utf8(`${good} ${JSON.stringify(carrier.record(g, s[1]))}`), 1);
        case "garbage-then-valid":
          return one(utf8(`x${good}`), 1);
        default:
          return one(utf8(g.rng.pick(INVALID_LINES)), 1);
      }
    };
    return maybeCompanions(
      g,
      lineCase(g, carrier, g.rng.int(1, 6), build, `invalid line (${variant})`),
      0.35,
    );
  },
};

/** [field, raw JSON value, q] for the wrong-type variants (`$i`: the example's own index). */
const FIELD_TYPES: Record<string, ["task" | "index" | "response", string, number | null]> = {
  "task-list": ["task", '["$task"]', 1],
  "task-number": ["task", "3", 1],
  "task-object": ["task", '{"name": "$task"}', 1],
  "task-null": ["task", "null", 1],
  "task-bool": ["task", "true", 1],
  "task-empty": ["task", '""', 1],
  "task-space-padded": ["task", '" $task "', null],
  "response-number": ["response", "42", null],
  "response-object": ["response", '{"text": "The answer is: x"}', 1],
  "response-list": ["response", '["The answer is: x"]', 1],
  "response-null": ["response", "null", 1],
  "response-bool": ["response", "false", null],
  "response-empty": ["response", '""', 0],
  "index-string": ["index", '"$i"', null],
  "index-string-float": ["index", '"$i.5"', 1],
  "index-float": ["index", "$i.5", 1],
  "index-float-int": ["index", "$i.0", null],
  "index-huge": ["index", "1e30", 1],
  "index-bigint": ["index", "123456789012345678901234567890", 1],
  "index-negative": ["index", "-1", 1],
  "index-list": ["index", "[$i]", 1],
  "index-bool": ["index", "true", 1],
  "index-out-of-range": ["index", "100000", 1],
  "index-hex": ["index", '"0x10"', 1],
  "index-string-spaces": ["index", '" $i "', null],
  "index-object": ["index", '{"i": $i}', 1],
};

/** Wrong types of the optional fields: [key, raw, q]. */
const OPTIONAL_TYPES: Record<string, [string, string, number | null]> = {
  "epoch-zero": ["epoch", "0", 1],
  "epoch-negative": ["epoch", "-1", 1],
  "epoch-text": ["epoch", '"two"', 1],
  "epoch-list": ["epoch", "[1]", 1],
  "epoch-float": ["epoch", "1.5", 1],
  "tokens-negative": ["response_tokens", "-5", 1],
  "tokens-text": ["response_tokens", '"many"', 1],
  "tokens-list": ["response_tokens", "[3]", 1],
  "model-list": ["model", '["a", "b"]', null],
  "run-object": ["run", '{"id": 1}', null],
  "benchmark-number": ["benchmark", "7", 1],
  "target-list": ["target", '["x"]', null],
};

const fieldTypes: ClassDef = {
  name: "field-types",
  about: "a field of the wrong JSON type (task as list, response as number/object/null, " +
    "example_index as string/float/huge/negative, …)",
  full: 120,
  ci: 20,
  variants: [...Object.keys(FIELD_TYPES), ...Object.keys(OPTIONAL_TYPES)],
  gen(g, variant) {
    const carrier = pickCarrier(
      g,
      variant.startsWith("task") ? ["canonical", "canonical-gz", "mapped"] : NO_LM,
    );
    const build = (s: Example[]): Hostile[] => {
      const ex = s[0];
      const fill = (raw: string) =>
        raw.replaceAll("$task", ex.task).replaceAll("$i", String(ex.index));
      if (variant in FIELD_TYPES) {
        const [field, raw, q] = FIELD_TYPES[variant];
        return one(rawField(g, carrier, ex, field, fill(raw))!, q);
      }
      const [key, raw, q] = OPTIONAL_TYPES[variant];
      const rec = carrier.record(g, ex);
      rec[key] = "__RAW__";
      // the mapped carrier only renames task/index/response: other keys are read as written
      return one(withRaw(rec, fill(raw)), q);
    };
    return body(g, carrier, build, `wrong type: ${variant}`);
  },
};

/** UTF-16 code units of `text` with or without a byte order mark. */
function utf16(text: string, bigEndian: boolean, bom: boolean): Uint8Array {
  const units = (bom ? "\ufeff" : "") + text;
  const out = new Uint8Array(units.length * 2);
  for (let i = 0; i < units.length; i++) {
    const c = units.charCodeAt(i);
    out[2 * i + (bigEndian ? 1 : 0)] = c & 0xff;
    out[2 * i + (bigEndian ? 0 : 1)] = c >> 8;
  }
  return out;
}

/** Bytes of a response with invalid UTF-8 in it, per variant. */
const BAD_UTF8: Record<string, number[]> = {
  "latin1": [0x52, 0xe9, 0x70, 0x6f, 0x6e, 0x73, 0x65], // "Réponse" in Latin-1
  "overlong-slash": [0xc0, 0xaf],
  "overlong-3byte": [0xe0, 0x80, 0xaf],
  "utf8-surrogate": [0xed, 0xa0, 0x80],
  "byte-ff": [0xff, 0xfe],
  "cut-multibyte": [0xe2, 0x82],
  "continuation-only": [0x80, 0x80],
  "above-u10ffff": [0xf4, 0x90, 0x80, 0x80],
};

const encoding: ClassDef = {
  name: "encoding",
  about: "bad encodings: UTF-16 with/without BOM, Latin-1 bytes, overlong UTF-8, lone " +
    "surrogate escapes, BOMs",
  full: 100,
  ci: 16,
  variants: [
    "utf16le-bom",
    "latin1",
    "overlong-slash",
    "lone-surrogate-task",
    "utf16be-bom",
    "utf16le-nobom",
    "bom-first-line",
    "utf8-surrogate",
    "lone-surrogate-response",
    "utf16be-nobom",
    "bom-later-line",
    "overlong-3byte",
    "byte-ff",
    "cut-multibyte",
    "continuation-only",
    "above-u10ffff",
    "bad-utf8-in-key",
    "noncharacter",
  ],
  gen(g, variant) {
    if (variant.startsWith("utf16")) {
      const carrier = pickCarrier(g, ["canonical", "canonical-gz", "lm-eval"]);
      const exs = carrier.pick(g, g.rng.int(1, 5));
      const text = exs.map((ex) => JSON.stringify(carrier.record(g, ex))).join("\n") + "\n";
      const bytes = utf16(text, variant.startsWith("utf16be"), variant.endsWith("-bom"));
      const byteLines = jsonlRecords(bytes);
      return maybeCompanions(
        g,
        carrierFile(
          g,
          carrier,
          bytes,
          [exs.length, byteLines],
          null,
          `whole file in ${variant}`,
          ["accounted", "named-error"],
          exs[0].task,
        ),
      );
    }
    const carrier = pickCarrier(g, variant === "lone-surrogate-task" ? NO_LM : ALL);
    if (variant === "bom-first-line") {
      return maybeCompanions(
        g,
        lineCase(g, carrier, g.rng.int(1, 5), () => [], "UTF-8 BOM at the start", {
          prefix: new Uint8Array([0xef, 0xbb, 0xbf]),
        }),
      );
    }
    const build = (s: Example[]): Hostile[] => {
      const ex = s[0];
      switch (variant) {
        case "lone-surrogate-task":
          return one(rawField(g, carrier, ex, "task", `"${ex.task}\\ud800"`)!, 1);
        case "lone-surrogate-response":
          return one(
            rawField(g, carrier, ex, "response", '"The answer is: \\udc00\\ud800x"')!,
            null,
          );
        case "bom-later-line":
          return one(
            concat([
              new Uint8Array([0xef, 0xbb, 0xbf]),
              utf8(JSON.stringify(carrier.record(g, ex))),
            ]),
            null,
          );
        case "bad-utf8-in-key":
          return one(
            rawExtra(g, carrier, ex, "1", "k\u00e9y").map((b) => b === 0xc3 ? 0xe9 : b),
            1,
          );
        case "noncharacter":
          return one(rawField(g, carrier, ex, "response", '"The answer is: \uffff\ufffe"')!, null);
        default: {
          const bad = new Uint8Array(BAD_UTF8[variant]);
          const raw = concat([utf8('"The answer is: '), bad, utf8('"')]);
          return one(rawField(g, carrier, ex, "response", raw)!, 1);
        }
      }
    };
    return body(g, carrier, build, `encoding: ${variant}`);
  },
};

const controlChars: ClassDef = {
  name: "control-chars",
  about: "control characters and NUL in text and in run/task/model values and keys",
  full: 80,
  ci: 12,
  variants: [
    "run-nul-backslash",
    "task-nul",
    "response-nul-escaped",
    "response-raw-control",
    "response-controls-escaped",
    "run-controls",
    "task-bell",
    "model-nul",
    "key-nul",
    "raw-nul-between-tokens",
    "response-raw-nul",
    "response-ansi",
    "run-newline-escape",
    "raw-cr-inside-string",
  ],
  gen(g, variant) {
    const lmOk = [
      "response-nul-escaped",
      "response-raw-control",
      "response-controls-escaped",
      "response-raw-nul",
      "response-ansi",
      "raw-cr-inside-string",
    ];
    const carrier = pickCarrier(g, lmOk.includes(variant) ? ALL : ["canonical", "canonical-gz"]);
    const build = (s: Example[]): Hostile[] => {
      const ex = s[0];
      const rec = carrier.record(g, ex);
      const set = (k: string, raw: string | Uint8Array, q: number | null) => {
        rec[k] = "__RAW__";
        return one(withRaw(rec, raw), q);
      };
      switch (variant) {
        case "run-nul-backslash":
          return set("run", '"fuzz\\u0000\\\\run\\\\\\u0000"', null);
        case "task-nul":
          return one(rawField(g, carrier, ex, "task", `"${ex.task}\\u0000"`)!, 1);
        case "task-bell":
          return one(rawField(g, carrier, ex, "task", `"${ex.task}\\u0007"`)!, 1);
        case "response-nul-escaped":
          return one(
            rawField(g, carrier, ex, "response", '"The answer\\u0000 is: x\\u0000"')!,
            null,
          );
        case "response-controls-escaped": {
          const esc = Array.from({ length: 32 }, (_, i) => `\\u${i.toString(16).padStart(4, "0")}`)
            .join("");
          return one(
            rawField(g, carrier, ex, "response", `"${esc}\\u007f The answer is: x"`)!,
            null,
          );
        }
        case "response-raw-control":
          return one(
            rawField(
              g,
              carrier,
              ex,
              "response",
              concat([utf8('"a'), new Uint8Array([1, 2, 0x1f]), utf8('b"')]),
            )!,
            1,
          );
        case "response-raw-nul":
          return one(
            rawField(
              g,
              carrier,
              ex,
              "response",
              concat([utf8('"a'), new Uint8Array([0]), utf8('b"')]),
            )!,
            1,
          );
        case "raw-cr-inside-string":
          return one(
            rawField(
              g,
              carrier,
              ex,
              "response",
              concat([utf8('"a'), new Uint8Array([0x0d]), utf8('b"')]),
            )!,
            1,
          );
        case "response-ansi":
          return one(
            rawField(g, carrier, ex, "response", '"\\u001b[31mThe answer is: x\\u001b[0m"')!,
            null,
          );
        case "run-controls":
          return set("run", '"r\\u0001\\u001f\\u007f\\u0085"', null);
        case "run-newline-escape":
          return set("run", '"line1\\nline2\\r\\n"', null);
        case "model-nul":
          return set("model", '"m\\u0000odel"', null);
        case "key-nul": {
          const line = withRaw({ ...rec, x: "__RAW__" }, "1");
          const text = new TextDecoder().decode(line).replace('"x":', '"a\\u0000b":');
          return one(utf8(text), null);
        }
        default: {
          // raw-nul-between-tokens
          const text = JSON.stringify(rec);
          const at = text.indexOf(",") + 1;
          return one(
            concat([utf8(text.slice(0, at)), new Uint8Array([0]), utf8(text.slice(at))]),
            1,
          );
        }
      }
    };
    return body(g, carrier, build, `control characters: ${variant}`);
  },
};

/** Lines of whitespace JSON does not allow (each one record that must be quarantined). */
const ODD_BLANKS: Record<string, string> = {
  "u2028": "\u2028",
  "u2029": "\u2029",
  "nbsp": "\u00a0",
  "bom": "\ufeff",
  "ideographic": "\u3000",
  "nel": "\u0085",
  "ogham": "\u1680",
  "en-quad": "\u2000",
  "narrow-nbsp": "\u202f",
  "math-space": "\u205f",
  "vtab": "\u000b",
  "formfeed": "\u000c",
  "zwsp": "\u200b",
  "mixed": " \u00a0\t\u2028 ",
};

const oddWhitespace: ClassDef = {
  name: "odd-whitespace",
  about: "lines holding only U+2028/U+00A0/other non-JSON whitespace (records: must be " +
    "quarantined), JSON whitespace lines (not records), NBSP around a record",
  full: 60,
  ci: 10,
  variants: [
    "u2028",
    "nbsp",
    "vtab",
    "json-blank",
    "nbsp-before-record",
    "u2029",
    "bom",
    "ideographic",
    "nel",
    "ogham",
    "en-quad",
    "narrow-nbsp",
    "math-space",
    "formfeed",
    "zwsp",
    "mixed",
    "record-then-nbsp",
  ],
  gen(g, variant) {
    const carrier = pickCarrier(g, ALL);
    const build = (s: Example[]): Hostile[] => {
      if (variant === "json-blank") {
        return [{ line: utf8(g.rng.pick([" ", "\t", " \t \r", ""])), q: 0 }];
      }
      const good = JSON.stringify(carrier.record(g, s[0]));
      if (variant === "nbsp-before-record") return one(utf8(`\u00a0${good}`), 1);
      if (variant === "record-then-nbsp") return one(utf8(`${good}\u00a0`), 1);
      const n = g.rng.int(1, 3);
      return Array.from({ length: n }, () => ({ line: utf8(ODD_BLANKS[variant]), q: 1 }));
    };
    return maybeCompanions(
      g,
      lineCase(g, carrier, g.rng.int(1, 6), build, `whitespace line: ${variant}`, {
        notFirst: true,
      }),
      0.35,
    );
  },
};

const overlong: ClassDef = {
  name: "overlong-line",
  about: "overlong lines: an 11 M-character response (over the 10 MB limit), a 1 MB one, a " +
    "20 MB extra field, a 70 MB line",
  full: 20,
  ci: 3,
  variants: ["response-11M", "response-1M", "extra-20M", "line-70M"],
  gen(g, variant) {
    const carrier = pickCarrier(g, ["canonical", "canonical-gz"]);
    const build = (s: Example[]): Hostile[] => {
      const ex = s[0];
      switch (variant) {
        case "response-11M":
          return one(
            rawField(g, carrier, ex, "response", `"${"a".repeat(11_000_000)} The answer is: x"`)!,
            1,
          );
        case "response-1M":
          return one(
            rawField(g, carrier, ex, "response", `"${"b".repeat(1_000_000)} The answer is: x"`)!,
            0,
          );
        case "extra-20M":
          return one(rawExtra(g, carrier, ex, `"${"c".repeat(20_000_000)}"`), null);
        default:
          return one(rawField(g, carrier, ex, "response", `"${"d".repeat(70_000_000)}"`)!, 1);
      }
    };
    return lineCase(g, carrier, g.rng.int(1, 3), build, `overlong line: ${variant}`);
  },
};

/** `depth` nested arrays or objects as JSON text. */
function nested(depth: number, kind: "array" | "object" | "mixed", closed = true): string {
  if (kind === "array") return "[".repeat(depth) + (closed ? "]".repeat(depth) : "");
  if (kind === "object") return '{"a":'.repeat(depth) + "1" + (closed ? "}".repeat(depth) : "");
  return '[{"a":'.repeat(depth / 2) + "1" + (closed ? "}]".repeat(depth / 2) : "");
}

const deepNesting: ClassDef = {
  name: "deep-nesting",
  about: "values nested 100,000 deep (arrays, objects) in response and in an extra field; " +
    "10,000 and 1,000 deep; unclosed",
  full: 40,
  ci: 8,
  variants: [
    "response-array-100k",
    "extra-object-100k",
    "response-object-100k",
    "extra-array-100k",
    "extra-mixed-100k",
    "unclosed-100k",
    "extra-array-10k",
    "extra-array-1k",
    "task-array-100k",
  ],
  gen(g, variant) {
    const carrier = pickCarrier(
      g,
      variant.startsWith("task") ? ["canonical", "canonical-gz"] : ALL,
    );
    const build = (s: Example[]): Hostile[] => {
      const ex = s[0];
      switch (variant) {
        case "response-array-100k":
          return one(rawField(g, carrier, ex, "response", nested(100_000, "array"))!, 1);
        case "response-object-100k":
          return one(rawField(g, carrier, ex, "response", nested(100_000, "object"))!, 1);
        case "task-array-100k":
          return one(rawField(g, carrier, ex, "task", nested(100_000, "array"))!, 1);
        case "extra-array-100k":
          return one(rawExtra(g, carrier, ex, nested(100_000, "array")), null);
        case "extra-object-100k":
          return one(rawExtra(g, carrier, ex, nested(100_000, "object")), null);
        case "extra-mixed-100k":
          return one(rawExtra(g, carrier, ex, nested(100_000, "mixed")), null);
        case "extra-array-10k":
          return one(rawExtra(g, carrier, ex, nested(10_000, "array")), null);
        case "extra-array-1k":
          return one(rawExtra(g, carrier, ex, nested(1_000, "array")), null);
        default:
          return one(rawExtra(g, carrier, ex, nested(100_000, "array", false)), 1);
      }
    };
    return body(g, carrier, build, `deep nesting: ${variant}`);
  },
};

/** An object with `n` keys `k0…` as JSON text. */
function manyKeys(n: number): string {
  const parts: string[] = [];
  for (let i = 0; i < n; i++) parts.push(`"k${i}":${i % 10}`);
  return `{${parts.join(",")}}`;
}

const manyKeysClass: ClassDef = {
  name: "many-keys",
  about: "a record with 1,000,000 keys (top level, in an extra field, as the response)",
  full: 12,
  ci: 4,
  variants: ["top-1M", "extra-1M", "response-1M-keys", "top-100k"],
  gen(g, variant) {
    const carrier = pickCarrier(g, ["canonical", "canonical-gz"]);
    const build = (s: Example[]): Hostile[] => {
      const ex = s[0];
      switch (variant) {
        case "top-1M":
        case "top-100k": {
          const rec = JSON.stringify(carrier.record(g, ex));
          const keys = manyKeys(variant === "top-1M" ? 1_000_000 : 100_000);
          return one(utf8(`${rec.slice(0, -1)},${keys.slice(1)}`), null);
        }
        case "extra-1M":
          return one(rawExtra(g, carrier, ex, manyKeys(1_000_000)), null);
        default:
          return one(rawField(g, carrier, ex, "response", manyKeys(1_000_000))!, 1);
      }
    };
    return lineCase(g, carrier, g.rng.int(1, 3), build, `many keys: ${variant}`);
  },
};

const duplicateKeys: ClassDef = {
  name: "duplicate-keys",
  about: "duplicate keys in a record (task, response, example_index, extra)",
  full: 30,
  ci: 5,
  variants: [
    "task-bad-then-good",
    "task-good-then-bad",
    "response-twice",
    "index-twice",
    "extra-twice",
    "all-twice",
  ],
  gen(g, variant) {
    const carrier = pickCarrier(g, ["canonical", "canonical-gz", "mapped"]);
    const build = (s: Example[]): Hostile[] => {
      const ex = s[0];
      const rec = carrier.record(g, ex);
      const text = JSON.stringify(rec).slice(1, -1);
      const key = (f: "task" | "index" | "response") => {
        const probe: Record<string, unknown> = {};
        carrier.set(probe, f, 0);
        return Object.keys(probe)[0];
      };
      const dup = (k: string, v: string, first: boolean) =>
        utf8(first ? `{"${k}":${v},${text}}` : `{${text},"${k}":${v}}`);
      switch (variant) {
        case "task-bad-then-good":
          return one(dup(key("task"), '"no_such_task"', true), null);
        case "task-good-then-bad":
          return one(dup(key("task"), '"no_such_task"', false), null);
        case "response-twice":
          return one(dup(key("response"), '"The answer is: other"', g.rng.chance(0.5)), null);
        case "index-twice":
          return one(dup(key("index"), "100000", g.rng.chance(0.5)), null);
        case "extra-twice":
          return one(utf8(`{${text},"note":1,"note":"two"}`), null);
        default:
          return one(utf8(`{${text},${text}}`), null);
      }
    };
    return body(g, carrier, build, `duplicate keys: ${variant}`);
  },
};

const hugeNumbers: ClassDef = {
  name: "huge-numbers",
  about: "numbers past any type: 1e400, 30-digit integers, 1e-400, -0 (extra fields, epoch, " +
    "response_tokens, example_index)",
  full: 40,
  ci: 6,
  variants: [
    "extra-1e400",
    "tokens-1e400",
    "epoch-bigint",
    "index-1e400",
    "extra-bigint",
    "extra-neg-1e400",
    "tokens-bigint",
    "epoch-1e400",
    "extra-1e-400",
    "extra-minus-zero",
    "extra-list-of-huge",
    "response-1e400",
  ],
  gen(g, variant) {
    const carrier = pickCarrier(g, NO_LM);
    const build = (s: Example[]): Hostile[] => {
      const ex = s[0];
      const rec = carrier.record(g, ex);
      const put = (k: string, raw: string, q: number | null) => {
        rec[k] = "__RAW__";
        return one(withRaw(rec, raw), q);
      };
      switch (variant) {
        case "extra-1e400":
          return put("score", "1e400", null);
        case "extra-neg-1e400":
          return put("score", "-1e400", null);
        case "extra-bigint":
          return put("big", "123456789012345678901234567890", null);
        case "extra-1e-400":
          return put("tiny", "1e-400", null);
        case "extra-minus-zero":
          return put("z", "-0", null);
        case "extra-list-of-huge":
          return put("l", "[1e400, -1e400, 18446744073709551616, 5e-324]", null);
        case "tokens-1e400":
          return put("response_tokens", "1e400", 1);
        case "tokens-bigint":
          return put("response_tokens", "18446744073709551616", 1);
        case "epoch-1e400":
          return put("epoch", "1e400", 1);
        case "epoch-bigint":
          return put("epoch", "340282366920938463463374607431768211457", 1);
        case "index-1e400":
          return one(rawField(g, carrier, ex, "index", "1e400")!, 1);
        default:
          return one(rawField(g, carrier, ex, "response", "1e400")!, null);
      }
    };
    return body(g, carrier, build, `huge numbers: ${variant}`);
  },
};

/** The line-level classes. */
export const LINE_CLASSES: ClassDef[] = [
  truncated,
  invalid,
  fieldTypes,
  encoding,
  controlChars,
  oddWhitespace,
  overlong,
  deepNesting,
  manyKeysClass,
  duplicateKeys,
  hugeNumbers,
];

/** Re-exported for the registry's own checks. */
export type { CaseBody };
