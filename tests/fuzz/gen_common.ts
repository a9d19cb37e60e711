/**
 * Shared pieces of the fuzz generators: the generator context, the case body type, good
 * companion files (the "other files" that must still be scored next to a bad one), and the
 * carriers that put hostile JSON lines into a canonical, gzip, lm-eval or `--map` log.
 *
 * @example
 * ```ts ignore
 * import { lineCase, CARRIERS } from "./gen_common.ts";
 * const body = lineCase(g, CARRIERS.canonical, 4, () => [{ line: utf8("{oops"), q: 1 }], "bad");
 * ```
 * @module
 */
import { concat, gzipBytes, jsonlRecords, utf8 } from "./bytes.ts";
import type { Expect, FileNode, FuzzCase } from "./case.ts";
import {
  canonicalRecord,
  type Example,
  lmEvalNames,
  lmEvalRecord,
  type Material,
  pickExamples,
  responseFor,
} from "./data.ts";
import type { Rng } from "./rng.ts";

/** What a generator function gets: the material and the case's own random numbers. */
export interface Gen {
  m: Material;
  rng: Rng;
  /** The case number within its class (for file names). */
  k: number;
}

/** A case without its id, class and variant (the registry adds them). */
export type CaseBody = Omit<FuzzCase, "id" | "cls" | "variant">;

/** A hostile line: its bytes (no line end) and how many quarantine entries it must give. */
export interface Hostile {
  line: Uint8Array;
  /** 1: must be quarantined; 0: must be scored; null: either. */
  q: number | null;
}

/**
 * `JSON.stringify(value)` with the string `"__RAW__"` replaced by raw JSON text or bytes (deep
 * nesting, bare numbers, invalid bytes — things `JSON.stringify` cannot write).
 *
 * @example
 * ```ts ignore
 * withRaw({ a: "__RAW__" }, "1e400"); // bytes of {"a":1e400}
 * ```
 */
export function withRaw(value: unknown, raw: string | Uint8Array): Uint8Array {
  const text = JSON.stringify(value);
  const at = text.indexOf('"__RAW__"');
  if (at < 0) throw new Error("withRaw: no placeholder");
  const bytes = typeof raw === "string" ? utf8(raw) : raw;
  return concat([utf8(text.slice(0, at)), bytes, utf8(text.slice(at + 9))]);
}

/** A good canonical JSONL file (every record scores): node and expectation. */
export function goodCanonical(g: Gen, path: string, n: number): { node: FileNode; expect: Expect } {
  const lines = pickExamples(g.m, g.rng, n).map((ex) => JSON.stringify(canonicalRecord(ex, g.rng)));
  const bytes = utf8(lines.join("\n") + "\n");
  return {
    node: { kind: "file", path, bytes },
    expect: { path, records: n, quarantined: 0, allowed: ["accounted"] },
  };
}

/** A good file for `--map task=t,example_index=i,response=r`. */
export function goodMapped(g: Gen, path: string, n: number): { node: FileNode; expect: Expect } {
  const lines = pickExamples(g.m, g.rng, n).map((ex) =>
    JSON.stringify({ t: ex.task, i: ex.index, r: responseFor(ex, g.rng) })
  );
  return {
    node: { kind: "file", path, bytes: utf8(lines.join("\n") + "\n") },
    expect: { path, records: n, quarantined: 0, allowed: ["accounted"] },
  };
}

/** The `--map` flags of the mapped carrier. */
export const MAP_FLAGS = ["--map", "task=t,example_index=i,response=r"];

/**
 * Add `n` good companion files (`good_<i>.jsonl`, or mapped ones when the case uses `--map`)
 * to `body`: they must be scored whatever happens to the case's bad file.
 *
 * @example
 * ```ts ignore
 * withCompanions(g, body, 2).expect.length; // body's + 2
 * ```
 */
export function withCompanions(g: Gen, body: CaseBody, n: number): CaseBody {
  if (n <= 0) return body;
  const nodes = [...body.nodes];
  const expect = [...body.expect];
  const mapped = body.flags?.includes("--map");
  for (let i = 0; i < n; i++) {
    const path = `good_${i}.jsonl`;
    const made = mapped
      ? goodMapped(g, path, g.rng.int(1, 4))
      : goodCanonical(g, path, g.rng.int(1, 4));
    nodes.push(made.node);
    expect.push(made.expect);
  }
  const args = body.args
    ? [...body.args, ...expect.slice(body.expect.length).map((e) => e.path)]
    : undefined;
  return { ...body, nodes, expect, args, about: `${body.about} (+${n} good files)` };
}

/** Maybe add companions: none half of the time, else 1–3. */
export function maybeCompanions(g: Gen, body: CaseBody, p = 0.5): CaseBody {
  return g.rng.chance(p) ? withCompanions(g, body, g.rng.int(1, 3)) : body;
}

/** A log format that carries JSON lines. */
export interface Carrier {
  name: "canonical" | "canonical-gz" | "lm-eval" | "mapped";
  /** Distinct examples for `n` records (lm-eval: of one task). */
  pick(g: Gen, n: number): Example[];
  /** A good record for `ex` (an object to serialise). */
  record(g: Gen, ex: Example): Record<string, unknown>;
  /**
   * Set `field` of `rec` to `value` (`value` may be the `"__RAW__"` placeholder); false when
   * the format has no such field (lm-eval takes the task from the file name).
   */
  set(rec: Record<string, unknown>, field: "task" | "index" | "response", value: unknown): boolean;
}

const canonicalSet: Carrier["set"] = (rec, field, value) => {
  rec[field === "index" ? "example_index" : field] = value;
  return true;
};

/** The carriers of hostile lines. */
export const CARRIERS: Record<Carrier["name"], Carrier> = {
  canonical: {
    name: "canonical",
    pick: (g, n) => pickExamples(g.m, g.rng, n),
    record: (g, ex) => canonicalRecord(ex, g.rng),
    set: canonicalSet,
  },
  "canonical-gz": {
    name: "canonical-gz",
    pick: (g, n) => pickExamples(g.m, g.rng, n),
    record: (g, ex) => canonicalRecord(ex, g.rng),
    set: canonicalSet,
  },
  "lm-eval": {
    name: "lm-eval",
    pick: (g, n) => {
      const tasks = [...new Set(g.m.examples.map((e) => e.task))].filter((t) =>
        g.m.examples.filter((e) => e.task === t).length >= n
      );
      return pickExamples(g.m, g.rng, n, g.rng.pick(tasks));
    },
    record: (g, ex) => lmEvalRecord(ex, responseFor(ex, g.rng)),
    set: (rec, field, value) => {
      if (field === "task") return false;
      if (field === "index") rec.doc_id = value;
      else rec.resps = [[value]];
      return true;
    },
  },
  mapped: {
    name: "mapped",
    pick: (g, n) => pickExamples(g.m, g.rng, n),
    record: (g, ex) => ({ t: ex.task, i: ex.index, r: responseFor(ex, g.rng) }),
    set: (rec, field, value) => {
      rec[field === "task" ? "t" : field === "index" ? "i" : "r"] = value;
      return true;
    },
  },
};

/** Examples set aside for the hostile records of {@link lineCase} (distinct from the good ones). */
export const SPARE = 4;

/** Options of {@link lineCase}. */
export interface LineCaseOptions {
  /** Never put a hostile line first (lm-eval detects its format from the first lines). */
  notFirst?: boolean;
  /** Bytes to put before everything (e.g. a BOM). */
  prefix?: Uint8Array;
  /** Force the file to end without a newline (a truncated last line). */
  noFinalNewline?: boolean;
  /** Put the (first) hostile line last. */
  hostileLast?: boolean;
}

/**
 * A case of one log of `carrier` holding `good` good records and the hostile lines `build`
 * makes (from {@link SPARE} examples of their own) at random places; the records are counted from the final bytes ({@link jsonlRecords}) and the
 * quarantine must hold exactly the hostile lines' `q` (when all are known).
 *
 * @example
 * ```ts ignore
 * lineCase(g, CARRIERS["lm-eval"], 3, () => [{ line: utf8("\u2028"), q: 1 }], "U+2028 line");
 * ```
 */
export function lineCase(
  g: Gen,
  carrier: Carrier,
  good: number,
  build: (spare: Example[]) => Hostile[],
  about: string,
  options: LineCaseOptions = {},
): CaseBody {
  const picked = carrier.pick(g, good + SPARE);
  const examples = picked.slice(0, good);
  const hostile = build(picked.slice(good));
  const lines: Uint8Array[] = examples.map((ex) => utf8(JSON.stringify(carrier.record(g, ex))));
  for (const [i, h] of hostile.entries()) {
    const lo = options.notFirst || carrier.name === "lm-eval" ? 1 : 0;
    const at = options.hostileLast && i === 0
      ? lines.length
      : g.rng.int(Math.min(lo, lines.length), lines.length);
    lines.splice(at, 0, h.line);
  }
  const crlf = g.rng.chance(0.2);
  const eol = utf8(crlf ? "\r\n" : "\n");
  const parts: Uint8Array[] = [];
  if (options.prefix) parts.push(options.prefix);
  lines.forEach((l, i) => {
    parts.push(l);
    if (i < lines.length - 1 || !(options.noFinalNewline || g.rng.chance(0.1))) parts.push(eol);
  });
  const content = concat(parts);
  const records = jsonlRecords(content);
  const q = hostile.some((h) => h.q === null) ? null : hostile.reduce((n, h) => n + (h.q ?? 0), 0);
  return carrierFile(g, carrier, content, records, q, about);
}

/** runlens's documented default `--max-ratio` (README, "Limits and integrity"). */
export const DOCUMENTED_MAX_RATIO = 1000;

/**
 * The outcomes allowed for a gzip file of `content` compressed to `gz`: also `named-error`
 * when it inflates more than half the documented `--max-ratio`. The ratio budget is checked
 * on every prefix of the stream, and a long run of one character (a runaway response, a 5 MB
 * field) inflates ~1,030× where it is, so such a file may be refused as a possible bomb —
 * by design, with a reason naming `--max-ratio` — while the whole member stays under 1,000×.
 *
 * @example
 * ```ts ignore
 * gzipAllowed(utf8("x".repeat(1 << 20)), gzipBytes(utf8("x".repeat(1 << 20))), ["accounted"]);
 * // ["accounted", "named-error"]
 * ```
 */
export function gzipAllowed(
  content: Uint8Array,
  gz: Uint8Array,
  allowed: Expect["allowed"],
): Expect["allowed"] {
  const bomb = content.length > (DOCUMENTED_MAX_RATIO / 2) * gz.length;
  return bomb && !allowed.includes("named-error") ? [...allowed, "named-error"] : allowed;
}

/**
 * The nodes and expectation of one carrier file holding `content` (`task`: the lm-eval task
 * when it cannot be read back from the content).
 */
export function carrierFile(
  g: Gen,
  carrier: Carrier,
  content: Uint8Array,
  records: number | number[] | null,
  q: number | null,
  about: string,
  allowed: Expect["allowed"] = ["accounted"],
  task?: string,
): CaseBody {
  const k = g.k;
  switch (carrier.name) {
    case "canonical": {
      const path = `run_${k}.jsonl`;
      return {
        nodes: [{ kind: "file", path, bytes: content }],
        expect: [{ path, records, quarantined: q, allowed }],
        about,
      };
    }
    case "canonical-gz": {
      const path = `run_${k}.jsonl.gz`;
      const gz = gzipBytes(content);
      return {
        nodes: [{ kind: "file", path, bytes: gz }],
        expect: [{ path, records, quarantined: q, allowed: gzipAllowed(content, gz, allowed) }],
        about: `${about} (gzip)`,
      };
    }
    case "lm-eval": {
      // the task is in the file name: read it back from the first good line's doc
      const { name, results } = lmEvalNames(task ?? lmTaskOf(g, content));
      return {
        nodes: [
          { kind: "file", path: name, bytes: content },
          { kind: "file", path: results.name, bytes: utf8(results.text) },
        ],
        expect: [{ path: name, records, quarantined: q, allowed }],
        about: `${about} (lm-eval)`,
      };
    }
    case "mapped": {
      const path = `mapped_${k}.jsonl`;
      return {
        nodes: [{ kind: "file", path, bytes: content }],
        expect: [{ path, records, quarantined: q, allowed }],
        flags: MAP_FLAGS,
        about: `${about} (--map)`,
      };
    }
  }
}

/** The BBEH task of an lm-eval file's records (from a `doc.input` found in the material). */
function lmTaskOf(g: Gen, content: Uint8Array): string {
  const text = new TextDecoder().decode(content);
  for (const line of text.split("\n")) {
    try {
      const rec = JSON.parse(line);
      const ex = g.m.examples.find((e) => e.input === rec?.doc?.input && e.index === rec.doc_id);
      if (ex) return ex.task;
    } catch {
      // a hostile line
    }
  }
  return "boolean_expressions";
}
