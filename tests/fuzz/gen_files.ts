/**
 * Generators of the file-system classes (FIFOs, /dev/zero, symlink loops and escapes, odd
 * names, empty and unreadable files, 2,000 small files), of the mutation classes (byte flips,
 * cuts, duplicated chunks of the real logs in `<data>/logs`, the BBH release outputs, and valid
 * canonical / lm-eval / gzip / `.eval` logs built from the data sets), and of concurrent runs.
 * A mutation's expectation comes from an independent reading of the mutated bytes (line
 * counts, the gzip and ZIP verifiers, `JSON.parse`).
 *
 * @example
 * ```ts
 * import { FILE_CLASSES } from "./gen_files.ts";
 * FILE_CLASSES.map((c) => c.name); // ["fs-oddities", "many-files", "mutate-real-eval", …]
 * ```
 * @module
 */
import {
  buildZip,
  DEFLATE,
  gzipBytes,
  isUtf8,
  jsonlRecords,
  utf8,
  verifyGzip,
  ZSTD,
} from "./bytes.ts";
import type { Expect, FileNode } from "./case.ts";
import { canonicalRecord, evalMembers, lmEvalFile, pickExamples } from "./data.ts";
import { evalExpect } from "./gen_containers.ts";
import {
  type CaseBody,
  type Gen,
  goodCanonical,
  maybeCompanions,
  withCompanions,
} from "./gen_common.ts";
import type { ClassDef } from "./registry_types.ts";
import type { Rng } from "./rng.ts";

const GB = 2 ** 30;

/** Good canonical JSONL bytes of `n` records. */
function goodBytes(g: Gen, n: number): Uint8Array {
  const lines = pickExamples(g.m, g.rng, n).map((ex) => JSON.stringify(canonicalRecord(ex, g.rng)));
  return utf8(lines.join("\n") + "\n");
}

const fsOddities: ClassDef = {
  name: "fs-oddities",
  about: "FIFO named x.jsonl, symlink to /dev/zero, symlink loops, a symlink leaving the " +
    "folder, a directory named x.jsonl, chmod 000, -x.jsonl, a non-UTF-8 name, empty and " +
    "whitespace-only files",
  full: 100,
  ci: 20,
  variants: [
    "fifo-in-folder",
    "devzero-symlink",
    "symlink-loop-pair",
    "symlink-outside",
    "dash-name-direct",
    "non-utf8-name",
    "dir-named-jsonl",
    "unreadable",
    "empty-jsonl",
    "whitespace-only",
    "fifo-direct",
    "symlink-self",
    "dangling-symlink",
    "dash-name-folder",
    "empty-eval",
    "empty-csv",
    "devnull-symlink",
    "dir-symlink-loop",
    "symlink-inside",
    "space-and-unicode-name",
    "newline-in-name",
    "hidden-file",
    "deep-dir",
    "devzero-direct",
    "empty-json",
    "whitespace-only-csv",
  ],
  gen(g, variant) {
    const nodes: FileNode[] = [];
    const expect: Expect[] = [];
    let outside: FileNode[] | undefined;
    let args: string[] | undefined;
    let limits: CaseBody["limits"] = { timeoutMs: 20_000, rssBytes: GB };
    let bounded = false;
    const named: Expect["allowed"] = ["named-error"];
    const both: Expect["allowed"] = ["accounted", "named-error"];
    switch (variant) {
      case "fifo-in-folder":
      case "fifo-direct":
        nodes.push({ kind: "fifo", path: "pipe.jsonl" });
        expect.push({ path: "pipe.jsonl", records: null, allowed: named });
        if (variant === "fifo-direct") args = ["pipe.jsonl"];
        break;
      case "devzero-symlink":
      case "devzero-direct":
        nodes.push({ kind: "symlink", path: "zero.jsonl", target: "/dev/zero" });
        expect.push({ path: "zero.jsonl", records: null, allowed: named });
        if (variant === "devzero-direct") args = ["zero.jsonl"];
        bounded = true;
        break;
      case "devnull-symlink":
        nodes.push({ kind: "symlink", path: "null.jsonl", target: "/dev/null" });
        expect.push({ path: "null.jsonl", records: [0], allowed: both });
        break;
      case "symlink-loop-pair":
        nodes.push({ kind: "symlink", path: "a.jsonl", target: "b.jsonl" });
        nodes.push({ kind: "symlink", path: "b.jsonl", target: "a.jsonl" });
        expect.push({ path: "a.jsonl", records: null, allowed: named });
        expect.push({ path: "b.jsonl", records: null, allowed: named });
        break;
      case "symlink-self":
        nodes.push({ kind: "symlink", path: "self.jsonl", target: "self.jsonl" });
        expect.push({ path: "self.jsonl", records: null, allowed: named });
        break;
      case "dangling-symlink":
        nodes.push({ kind: "symlink", path: "gone.jsonl", target: "missing.jsonl" });
        expect.push({ path: "gone.jsonl", records: null, allowed: named });
        break;
      case "dir-symlink-loop":
        nodes.push({ kind: "symlink", path: "loop", target: "." });
        nodes.push({ kind: "symlink", path: "up", target: ".." });
        break;
      case "symlink-outside": {
        const m = g.rng.int(1, 4);
        outside = [{ kind: "file", path: "real.jsonl", bytes: goodBytes(g, m) }];
        nodes.push({ kind: "symlink", path: "out.jsonl", target: "../outside/real.jsonl" });
        expect.push({ path: "out.jsonl", records: m, allowed: named });
        break;
      }
      case "symlink-inside": {
        const m = g.rng.int(1, 4);
        nodes.push({ kind: "file", path: "real.jsonl", bytes: goodBytes(g, m) });
        nodes.push({ kind: "symlink", path: "alias.jsonl", target: "real.jsonl" });
        expect.push({ path: "real.jsonl", records: m, quarantined: 0, allowed: ["accounted"] });
        expect.push({ path: "alias.jsonl", records: [m, 0], allowed: both });
        break;
      }
      case "dir-named-jsonl": {
        const m = g.rng.int(1, 3);
        nodes.push({ kind: "file", path: "dir.jsonl/inner.jsonl", bytes: goodBytes(g, m) });
        nodes.push({ kind: "dir", path: "empty.jsonl" });
        expect.push({
          path: "dir.jsonl/inner.jsonl",
          records: m,
          quarantined: 0,
          allowed: ["accounted"],
        });
        break;
      }
      case "unreadable": {
        const m = g.rng.int(1, 3);
        nodes.push({ kind: "file", path: "locked.jsonl", bytes: goodBytes(g, m), mode: 0o000 });
        // as root the file is readable anyway: either outcome, but never silence
        expect.push({ path: "locked.jsonl", records: m, allowed: both });
        break;
      }
      case "dash-name-direct":
      case "dash-name-folder": {
        const m = g.rng.int(1, 3);
        nodes.push({ kind: "file", path: "-x.jsonl", bytes: goodBytes(g, m) });
        expect.push({ path: "-x.jsonl", records: m, quarantined: 0, allowed: ["accounted"] });
        if (variant === "dash-name-direct") args = ["-x.jsonl"];
        break;
      }
      case "non-utf8-name": {
        const m = g.rng.int(1, 3);
        const name = new Uint8Array([...utf8("bad_"), 0xff, 0xfe, ...utf8("_name.jsonl")]);
        nodes.push({ kind: "rawname", dir: ".", name, bytes: goodBytes(g, m) });
        expect.push({
          path: "bad_\ufffd\ufffd_name.jsonl",
          records: m,
          allowed: both,
          namePattern: "bad_[\\s\\S]{1,12}_name\\.jsonl",
        });
        break;
      }
      case "space-and-unicode-name":
        nodes.push({
          kind: "file",
          path: "my run (1) – résumé 日本.jsonl",
          bytes: goodBytes(g, 2),
        });
        expect.push({
          path: "my run (1) – résumé 日本.jsonl",
          records: 2,
          quarantined: 0,
          allowed: ["accounted"],
        });
        break;
      case "newline-in-name":
        nodes.push({ kind: "file", path: "two\nlines.jsonl", bytes: goodBytes(g, 2) });
        expect.push({
          path: "two\nlines.jsonl",
          records: 2,
          allowed: both,
          namePattern: "two[\\s\\S]{1,4}lines\\.jsonl",
        });
        break;
      case "hidden-file":
        nodes.push({ kind: "file", path: ".hidden.jsonl", bytes: goodBytes(g, 2) });
        expect.push({ path: ".hidden.jsonl", records: 2, allowed: both });
        break;
      case "deep-dir": {
        const path = Array.from({ length: 60 }, (_, i) => `d${i}`).join("/") + "/deep.jsonl";
        nodes.push({ kind: "file", path, bytes: goodBytes(g, 2) });
        expect.push({ path, records: 2, quarantined: 0, allowed: ["accounted"] });
        break;
      }
      case "empty-jsonl":
        nodes.push({ kind: "file", path: "empty.jsonl", bytes: new Uint8Array() });
        expect.push({ path: "empty.jsonl", records: 0, allowed: both });
        break;
      case "empty-csv":
        nodes.push({ kind: "file", path: "empty.csv", bytes: new Uint8Array() });
        expect.push({ path: "empty.csv", records: 0, allowed: both });
        break;
      case "empty-eval":
        nodes.push({ kind: "file", path: "empty.eval", bytes: new Uint8Array() });
        expect.push({ path: "empty.eval", records: null, allowed: named });
        break;
      case "empty-json":
        nodes.push({ kind: "file", path: "empty.json", bytes: new Uint8Array() });
        expect.push({ path: "empty.json", records: 0, allowed: both });
        break;
      case "whitespace-only":
        nodes.push({ kind: "file", path: "blank.jsonl", bytes: utf8(" \n\t\n\r\n\n") });
        expect.push({ path: "blank.jsonl", records: 0, allowed: both });
        break;
      default:
        // whitespace-only-csv
        nodes.push({ kind: "file", path: "blank.csv", bytes: utf8("\n \n\n") });
        expect.push({ path: "blank.csv", records: [0, 1], allowed: both });
    }
    if (!bounded) limits = { timeoutMs: 20_000 };
    const body: CaseBody = {
      nodes,
      outside,
      expect,
      args,
      limits,
      bounded,
      about: `file system: ${variant}`,
    };
    return withCompanions(g, body, args ? g.rng.int(0, 2) : g.rng.int(1, 2));
  },
};

const manyFiles: ClassDef = {
  name: "many-files",
  about: "a folder of 2,000 one-line logs: ≤ 10 s and ≤ 500 MB",
  full: 2,
  ci: 1,
  variants: ["2000-one-line"],
  gen(g) {
    const examples = pickExamples(g.m, g.rng, 2000);
    const lines = examples.map((ex) => utf8(JSON.stringify(canonicalRecord(ex, g.rng)) + "\n"));
    return {
      nodes: [{
        kind: "many",
        dir: "runs",
        count: lines.length,
        make: (i) => [`run_${String(i).padStart(4, "0")}.jsonl`, lines[i]],
      }],
      expect: lines.map((_, i) => ({
        path: `runs/run_${String(i).padStart(4, "0")}.jsonl`,
        records: 1,
        quarantined: 0,
        allowed: ["accounted"],
      })),
      bounded: true,
      limits: { timeoutMs: 10_000, rssBytes: 500 * 2 ** 20 },
      about: `${lines.length} one-line logs in one folder`,
    };
  },
};

/** One random damage to `bytes`: byte flips, a cut, a duplicated chunk, … (and its name). */
export function mutate(
  bytes: Uint8Array,
  rng: Rng,
  ops?: string[],
): { bytes: Uint8Array; what: string } {
  const n = bytes.length;
  const op = rng.pick(ops ?? ["flip", "flip", "bitflip", "cut", "dup", "zero", "delete", "insert"]);
  const pos = () => rng.int(0, Math.max(0, n - 1));
  switch (op) {
    case "flip": {
      const out = bytes.slice();
      const k = rng.int(1, 3);
      const at: number[] = [];
      for (let i = 0; i < k; i++) {
        const p = pos();
        out[p] ^= rng.int(1, 255);
        at.push(p);
      }
      return { bytes: out, what: `flip bytes at ${at.join(",")}` };
    }
    case "bitflip": {
      const out = bytes.slice();
      const p = pos();
      const bit = rng.int(0, 7);
      out[p] ^= 1 << bit;
      return { bytes: out, what: `flip bit ${bit} of byte ${p}` };
    }
    case "cut": {
      const at = rng.int(1, Math.max(1, n - 1));
      return { bytes: bytes.slice(0, at), what: `cut to ${at} of ${n} bytes` };
    }
    case "dup": {
      const a = pos();
      const len = rng.int(1, Math.min(4096, n - a));
      const c = pos();
      const out = new Uint8Array(n + len);
      out.set(bytes.subarray(0, c));
      out.set(bytes.subarray(a, a + len), c);
      out.set(bytes.subarray(c), c + len);
      return { bytes: out, what: `duplicate ${len} bytes from ${a} at ${c}` };
    }
    case "zero": {
      const a = pos();
      const len = rng.int(1, Math.min(512, n - a));
      const out = bytes.slice();
      out.fill(0, a, a + len);
      return { bytes: out, what: `zero ${len} bytes at ${a}` };
    }
    case "delete": {
      const a = pos();
      const len = rng.int(1, Math.min(1024, n - a));
      const out = new Uint8Array(n - len);
      out.set(bytes.subarray(0, a));
      out.set(bytes.subarray(a + len), a);
      return { bytes: out, what: `delete ${len} bytes at ${a}` };
    }
    default: {
      const c = pos();
      const junk = rng.bytes(rng.int(1, 64));
      const out = new Uint8Array(n + junk.length);
      out.set(bytes.subarray(0, c));
      out.set(junk, c);
      out.set(bytes.subarray(c), c + junk.length);
      return { bytes: out, what: `insert ${junk.length} random bytes at ${c}` };
    }
  }
}

const utf16Bom = (b: Uint8Array) =>
  (b[0] === 0xff && b[1] === 0xfe) || (b[0] === 0xfe && b[1] === 0xff);

/** Expectation of a mutated JSON-lines file (line counts; a line format never fails whole). */
function linesExpect(bytes: Uint8Array, firstMayOpenArray = false): Omit<Expect, "path"> {
  let allowed: Expect["allowed"] = ["accounted"];
  const firstByte = bytes.find((b) => b !== 0x20 && b !== 0x09 && b !== 0x0d && b !== 0x0a);
  if (utf16Bom(bytes) || (firstMayOpenArray && firstByte === 0x5b)) {
    allowed = ["accounted", "named-error"];
  }
  return { records: jsonlRecords(bytes), quarantined: null, allowed };
}

/** Parse JSON like inspect does (bare NaN/Infinity as null); undefined when it does not parse. */
function looseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    try {
      return JSON.parse(
        text.replace(/("(?:[^"\\]|\\.)*")|-?\bNaN\b|-?\bInfinity\b/g, (_m, s) => s ?? "null"),
      );
    } catch {
      return undefined;
    }
  }
}

/** Expectation of a mutated JSON document (a count of `key` items when it still parses). */
function documentExpect(bytes: Uint8Array, key: "samples" | "outputs"): Omit<Expect, "path"> {
  if (!isUtf8(bytes)) return { records: null, allowed: ["named-error"] };
  const doc = looseJson(new TextDecoder().decode(bytes).replace(/^\ufeff/, "")) as
    | Record<string, unknown>
    | undefined;
  const items = doc && typeof doc === "object" ? doc[key] : undefined;
  if (!Array.isArray(items)) return { records: null, allowed: ["named-error"] };
  return { records: items.length, quarantined: null, allowed: ["accounted", "named-error"] };
}

const mutateRealEval: ClassDef = {
  name: "mutate-real-eval",
  about: "byte flips, cuts, duplicated chunks … of the real inspect .eval logs " +
    "(expectation from an independent ZIP check)",
  full: 200,
  ci: 24,
  variants: ["any"],
  gen(g) {
    const evals = g.m.realLogs.filter((f) => f.name.endsWith(".eval"));
    const real = g.rng.pick(evals);
    const { bytes, what } = mutate(real.bytes, g.rng);
    const { check, ...expect } = evalExpect(bytes, true);
    const path = real.name;
    return maybeCompanions(g, {
      nodes: [{ kind: "file", path, bytes }],
      expect: [{ path, ...expect }],
      about: `${real.name}: ${what}${check.ok ? "" : ` (${check.reason})`}`,
    }, 0.3);
  },
};

const mutateEval: ClassDef = {
  name: "mutate-eval",
  about: "byte flips, cuts, duplicated chunks … of valid deflate/zstd .eval logs built from " +
    "BBEH examples",
  full: 120,
  ci: 12,
  variants: ["deflate", "zstd", "zstd-checksum"],
  gen(g, variant) {
    const { entries } = evalMembers(
      g.m,
      g.rng,
      g.rng.int(1, 4),
      variant === "deflate" ? DEFLATE : ZSTD,
    );
    if (variant === "zstd-checksum") { for (const e of entries) e.zstdChecksum = true; }
    const { bytes, what } = mutate(buildZip(entries), g.rng);
    const { check, ...expect } = evalExpect(bytes, true);
    const path = `bbeh_${g.k}.eval`;
    return maybeCompanions(g, {
      nodes: [{ kind: "file", path, bytes }],
      expect: [{ path, ...expect }],
      about: `${variant} .eval: ${what}${check.ok ? "" : ` (${check.reason})`}`,
    }, 0.3);
  },
};

const mutateRealJson: ClassDef = {
  name: "mutate-real-json",
  about: "mutations of the real inspect .json log and openai/evals record log",
  full: 80,
  ci: 8,
  variants: ["inspect-json", "openai-log"],
  gen(g, variant) {
    const real = g.m.realLogs.find((f) =>
      variant === "inspect-json" ? f.name.endsWith(".json") : f.name.endsWith(".log")
    )!;
    const { bytes, what } = mutate(real.bytes, g.rng);
    const expect: Omit<Expect, "path"> = variant === "inspect-json"
      ? documentExpect(bytes, "samples")
      : { records: null, allowed: ["accounted", "named-error"] };
    return maybeCompanions(g, {
      nodes: [{ kind: "file", path: real.name, bytes }],
      expect: [{ path: real.name, ...expect }],
      args: [real.name],
      about: `${real.name}: ${what}`,
    }, 0.3);
  },
};

const mutateBbh: ClassDef = {
  name: "mutate-bbh-release",
  about: "mutations of real BBH release output files (in their run folder)",
  full: 80,
  ci: 8,
  variants: ["any"],
  gen(g) {
    const real = g.rng.pick(g.m.bbhRelease);
    const { bytes, what } = mutate(real.bytes, g.rng);
    const path = `code-davinci-002-direct/${real.name}`;
    return maybeCompanions(g, {
      nodes: [{ kind: "file", path, bytes }],
      expect: [{ path, ...documentExpect(bytes, "outputs") }],
      about: `${real.name}: ${what}`,
    }, 0.3);
  },
};

const mutateCanonical: ClassDef = {
  name: "mutate-canonical",
  about: "mutations of valid canonical JSONL logs built from BBEH examples (records counted " +
    "from the mutated bytes)",
  full: 160,
  ci: 18,
  variants: ["any"],
  gen(g) {
    const { bytes, what } = mutate(goodBytes(g, g.rng.int(3, 30)), g.rng);
    const path = `run_${g.k}.jsonl`;
    return maybeCompanions(g, {
      nodes: [{ kind: "file", path, bytes }],
      expect: [{ path, ...linesExpect(bytes) }],
      about: `canonical JSONL: ${what}`,
    }, 0.3);
  },
};

const mutateLmEval: ClassDef = {
  name: "mutate-lm-eval",
  about: "mutations of valid lm-eval samples files built from BBEH examples",
  full: 120,
  ci: 14,
  variants: ["any"],
  gen(g) {
    const file = lmEvalFile(g.m, g.rng, g.rng.int(3, 20));
    const { bytes, what } = mutate(utf8(file.lines.join("\n") + "\n"), g.rng);
    return maybeCompanions(g, {
      nodes: [
        { kind: "file", path: file.name, bytes },
        { kind: "file", path: file.results.name, bytes: utf8(file.results.text) },
      ],
      expect: [{ path: file.name, ...linesExpect(bytes, true) }],
      about: `lm-eval samples: ${what}`,
    }, 0.3);
  },
};

const mutateGzip: ClassDef = {
  name: "mutate-gzip",
  about: "mutations of gzip-compressed canonical logs (expectation from an independent gzip " +
    "check: CRC-32, ISIZE, structure)",
  full: 100,
  ci: 12,
  variants: ["any"],
  gen(g) {
    const content = goodBytes(g, g.rng.int(3, 30));
    const { bytes, what } = mutate(gzipBytes(content), g.rng);
    const check = verifyGzip(bytes);
    const path = `run_${g.k}.jsonl.gz`;
    const expect: Omit<Expect, "path"> = check.ok
      ? {
        records: jsonlRecords(check.content),
        quarantined: null,
        allowed: ["accounted", "named-error"],
      }
      : { records: null, allowed: ["named-error"] };
    return maybeCompanions(g, {
      nodes: [{ kind: "file", path, bytes }],
      expect: [{ path, ...expect }],
      about: `gzip JSONL: ${what}${check.ok ? "" : ` (${check.reason})`}`,
    }, 0.3);
  },
};

const concurrency: ClassDef = {
  name: "concurrent-runs",
  about: "two runs at once on one folder (good files and one hostile line): identical output",
  full: 10,
  ci: 2,
  variants: ["any"],
  gen(g) {
    const made = Array.from(
      { length: g.rng.int(2, 4) },
      (_, i) => goodCanonical(g, `run_${i}.jsonl`, g.rng.int(1, 5)),
    );
    const bad = utf8('{"task": "nycc", "response": \n');
    const extra: FileNode = { kind: "file", path: "bad.jsonl", bytes: bad };
    return withCompanions(g, {
      nodes: [...made.map((m) => m.node), extra],
      expect: [...made.map((m) => m.expect), {
        path: "bad.jsonl",
        records: 1,
        quarantined: 1,
        allowed: ["accounted"],
      }],
      twice: true,
      about: "two concurrent runs",
    }, 0);
  },
};

/** The file-system, mutation and concurrency classes. */
export const FILE_CLASSES: ClassDef[] = [
  fsOddities,
  manyFiles,
  mutateRealEval,
  mutateEval,
  mutateRealJson,
  mutateBbh,
  mutateCanonical,
  mutateLmEval,
  mutateGzip,
  concurrency,
];
