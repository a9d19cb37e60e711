/**
 * Generators of the container classes: odd CSVs, corrupt gzip, gzip bombs, corrupt and garbage
 * inspect `.eval` ZIPs (deflate, zstd, stored), `.eval` bombs, and odd BBH release output files.
 * Expectations of damaged containers come from the independent verifiers of `bytes.ts`, never
 * from runlens.
 *
 * @example
 * ```ts
 * import { CONTAINER_CLASSES } from "./gen_containers.ts";
 * CONTAINER_CLASSES.map((c) => c.name); // ["csv-odd", "gzip-corrupt", …]
 * ```
 * @module
 */
import {
  buildZip,
  compressEntry,
  concat,
  DEFLATE,
  deflateRepeated,
  gzipBomb,
  gzipBytes,
  STORED,
  utf8,
  verifyGzip,
  verifyZip,
  type ZipEntry,
  ZSTD,
  zstdRepeated,
} from "./bytes.ts";
import type { Expect, FileNode } from "./case.ts";
import {
  canonicalRecord,
  csvField,
  evalMembers,
  lmEvalNames,
  lmEvalRecord,
  pickExamples,
  responseFor,
} from "./data.ts";
import {
  type CaseBody,
  type Gen,
  gzipAllowed,
  maybeCompanions,
  withCompanions,
} from "./gen_common.ts";
import type { ClassDef } from "./registry_types.ts";

const GB = 2 ** 30;

/** A case of one file with one expectation. */
function single(
  path: string,
  bytes: Uint8Array,
  expect: Omit<Expect, "path">,
  about: string,
): CaseBody {
  return { nodes: [{ kind: "file", path, bytes }], expect: [{ path, ...expect }], about };
}

/** Good CSV rows (header first) of `n` single-line records, quoted as needed. */
function csvRows(g: Gen, n: number, singleLine = false): string[][] {
  const rows = [["task", "example_index", "response", "model"]];
  for (const ex of pickExamples(g.m, g.rng, n)) {
    let resp = responseFor(ex, g.rng);
    if (singleLine) resp = resp.replaceAll("\n", " ");
    rows.push([ex.task, String(ex.index), resp, "fuzz-model"]);
  }
  return rows;
}

const joinRows = (rows: string[][], eol = "\n") =>
  rows.map((r) => r.map(csvField).join(",")).join(eol) + eol;

const csvOdd: ClassDef = {
  name: "csv-odd",
  about: "odd CSVs: 10,000 columns, an unclosed quote, ragged rows, CR-only line ends, BOM, " +
    "NUL and Latin-1 in fields, broken headers",
  full: 120,
  ci: 18,
  variants: [
    "wide-10000",
    "unclosed-quote-middle",
    "ragged-short",
    "cr-only",
    "bom",
    "unclosed-quote-last",
    "ragged-long",
    "crlf",
    "nul-field",
    "latin1-field",
    "unclosed-header",
    "wide-2000",
    "quoted-newlines",
    "blank-lines",
    "header-only",
    "empty-header-name",
    "duplicate-header",
    "stray-quote",
    "long-field-5M",
    "bom-crlf",
    "tab-separated",
  ],
  gen(g, variant) {
    const n = g.rng.int(2, 6);
    const path = g.rng.chance(0.2) && !variant.startsWith("wide")
      ? `run_${g.k}.csv.gz`
      : `run_${g.k}.csv`;
    const out = (
      text: string | Uint8Array,
      records: Expect["records"],
      q: number | null,
      allowed: Expect["allowed"],
      extra: Partial<CaseBody> = {},
    ): CaseBody => {
      const plain = typeof text === "string" ? utf8(text) : text;
      const bytes = path.endsWith(".gz") ? gzipBytes(plain) : plain;
      const ok = path.endsWith(".gz") ? gzipAllowed(plain, bytes, allowed) : allowed;
      return maybeCompanions(g, {
        ...single(path, bytes, { records, quarantined: q, allowed: ok }, `CSV: ${variant}`),
        ...extra,
      });
    };
    const both: Expect["allowed"] = ["accounted", "named-error"];
    switch (variant) {
      case "wide-10000":
      case "wide-2000": {
        const cols = variant === "wide-10000" ? 10_000 : 2_000;
        const rows = csvRows(g, n, true);
        const extraCols = Array.from({ length: cols - 4 }, (_, i) => `c${i + 4}`);
        rows[0].push(...extraCols);
        for (const r of rows.slice(1)) r.push(...extraCols.map((_, i) => String(i % 7)));
        return out(joinRows(rows), n, null, both, { limits: { timeoutMs: 30_000 } });
      }
      case "unclosed-quote-middle": {
        const rows = csvRows(g, n, true);
        const at = g.rng.int(1, n - 1);
        const lines = rows.map((r) => r.map(csvField).join(","));
        lines[at] = `${rows[at][0]},${rows[at][1]},"unclosed ${
          rows[at][2].replaceAll('"', "")
        },fuzz-model`;
        return out(lines.join("\n") + "\n", [at, n], null, both);
      }
      case "unclosed-quote-last": {
        const rows = csvRows(g, n, true);
        const lines = rows.map((r) => r.map(csvField).join(","));
        const r = rows[n];
        lines[n] = `${r[0]},${r[1]},"cut off ${r[2].replaceAll('"', "")}`;
        return out(lines.join("\n"), n, 1, both);
      }
      case "unclosed-header": {
        const rows = csvRows(g, n, true);
        const lines = rows.map((r) => r.map(csvField).join(","));
        lines[0] = 'task,"example_index,response,model';
        return out(lines.join("\n") + "\n", null, null, ["named-error"]);
      }
      case "ragged-short":
      case "ragged-long": {
        const rows = csvRows(g, n + 2, true);
        const bad = g.rng.int(1, 2);
        for (let i = 1; i <= bad; i++) {
          if (variant === "ragged-short") rows[i].pop();
          else rows[i].push("surplus");
        }
        const body = rows.slice(1);
        const shuffled = [rows[0], ...g.rng.shuffle(body)];
        return out(joinRows(shuffled), n + 2, bad, ["accounted"]);
      }
      case "cr-only":
        return out(joinRows(csvRows(g, n, true), "\r"), n, 0, both);
      case "crlf":
        return out(joinRows(csvRows(g, n), "\r\n"), n, 0, ["accounted"]);
      case "bom":
        return out("\ufeff" + joinRows(csvRows(g, n)), n, 0, ["accounted"]);
      case "bom-crlf":
        return out("\ufeff" + joinRows(csvRows(g, n), "\r\n"), n, 0, ["accounted"]);
      case "nul-field": {
        const rows = csvRows(g, n, true);
        rows[1][2] = `The answer\u0000 is: x`;
        return out(joinRows(rows), n, null, ["accounted"]);
      }
      case "latin1-field": {
        const rows = csvRows(g, n, true);
        rows[1][2] = "R__E9__ponse";
        const text = utf8(joinRows(rows));
        const s = new TextDecoder().decode(text);
        const at = s.indexOf("__E9__");
        const bytes = concat([utf8(s.slice(0, at)), new Uint8Array([0xe9]), utf8(s.slice(at + 6))]);
        return out(bytes, n, 1, both);
      }
      case "quoted-newlines": {
        const rows = csvRows(g, n);
        rows[1][2] = `line one\nline "two"\r\nThe answer is: ${rows[1][2]}`;
        return out(joinRows(rows), n, 0, ["accounted"]);
      }
      case "blank-lines": {
        const lines = csvRows(g, n, true).map((r) => r.map(csvField).join(","));
        const withBlanks = lines.flatMap((l, i) => i > 0 && g.rng.chance(0.5) ? ["", l] : [l]);
        return out(withBlanks.join("\n") + "\n\n", n, 0, ["accounted"]);
      }
      case "header-only":
        return out("task,example_index,response,model\n", 0, 0, both);
      case "empty-header-name": {
        const rows = csvRows(g, n, true);
        rows[0][3] = "";
        return out(joinRows(rows), n, null, both);
      }
      case "duplicate-header": {
        const rows = csvRows(g, n, true);
        rows[0][3] = "response";
        return out(joinRows(rows), n, null, both);
      }
      case "stray-quote": {
        const rows = csvRows(g, n, true);
        const at = g.rng.int(1, n);
        const lines = rows.map((r) => r.map(csvField).join(","));
        lines[at] = `${rows[at][0]},${rows[at][1]},It is 5" tall,fuzz-model`;
        return out(lines.join("\n") + "\n", [n, at], null, both);
      }
      case "long-field-5M": {
        const rows = csvRows(g, n, true);
        rows[1][2] = "x".repeat(5_000_000) + " The answer is: y";
        return out(joinRows(rows), n, 0, ["accounted"]);
      }
      default: {
        // tab-separated
        const rows = csvRows(g, n, true);
        return out(rows.map((r) => r.join("\t")).join("\n") + "\n", n, null, both);
      }
    }
  },
};

/** `bytes` with the 4 bytes at `at` XORed with a non-zero value. */
function spoil(bytes: Uint8Array, at: number, g: Gen): Uint8Array {
  const out = bytes.slice();
  out[at] ^= g.rng.int(1, 255);
  return out;
}

/** Canonical JSONL content of `n` good records. */
function jsonlContent(g: Gen, n: number): Uint8Array {
  const lines = pickExamples(g.m, g.rng, n).map((ex) => JSON.stringify(canonicalRecord(ex, g.rng)));
  return utf8(lines.join("\n") + "\n");
}

/** A gzip header with FNAME and MTIME set, then `content`'s deflate data and trailer. */
function gzipWithName(content: Uint8Array, name: string): Uint8Array {
  const plain = gzipBytes(content);
  const header = concat([
    new Uint8Array([0x1f, 0x8b, 8, 0x08, 0x5e, 0x8a, 0x5c, 0x67, 2, 3]),
    utf8(name),
    new Uint8Array([0]),
  ]);
  return concat([header, plain.subarray(10)]);
}

const gzipCorrupt: ClassDef = {
  name: "gzip-corrupt",
  about: "corrupt gzip (bad CRC, bad ISIZE, truncated header/data/trailer, bad second member, " +
    "no signature, trailing garbage) and valid controls (concatenated members, FNAME, CSV, " +
    "lm-eval, .eval inside)",
  full: 120,
  ci: 15,
  variants: [
    "bad-crc",
    "truncated-data",
    "bad-isize",
    "valid",
    "truncated-trailer",
    "no-signature",
    "second-member-bad-crc",
    "concatenated",
    "truncated-header",
    "trailing-garbage",
    "empty",
    "fname-header",
    "valid-csv",
    "valid-lm-eval",
    "valid-eval",
  ],
  gen(g, variant) {
    const n = g.rng.int(1, 6);
    const path = `run_${g.k}.jsonl.gz`;
    const content = jsonlContent(g, n);
    const gz = gzipBytes(content);
    const named = { records: n, allowed: ["named-error"] as Expect["allowed"] };
    const ok = { records: n, quarantined: 0, allowed: ["accounted"] as Expect["allowed"] };
    let body: CaseBody;
    const damaged = (bytes: Uint8Array, why: string) => {
      if (verifyGzip(bytes).ok) throw new Error(`gzip-corrupt/${variant}: still intact (${why})`);
      return single(path, bytes, named, `gzip: ${variant}`);
    };
    switch (variant) {
      case "bad-crc":
        body = damaged(spoil(gz, gz.length - 8 + g.rng.int(0, 3), g), "crc");
        break;
      case "bad-isize":
        body = damaged(spoil(gz, gz.length - 4 + g.rng.int(0, 3), g), "isize");
        break;
      case "truncated-data":
        body = damaged(gz.subarray(0, g.rng.int(11, gz.length - 9)), "cut");
        break;
      case "truncated-trailer":
        body = damaged(gz.subarray(0, gz.length - g.rng.int(1, 7)), "cut");
        break;
      case "truncated-header":
        body = damaged(gz.subarray(0, g.rng.int(2, 9)), "cut");
        break;
      case "second-member-bad-crc": {
        const second = gzipBytes(jsonlContent(g, 2));
        body = damaged(concat([gz, spoil(second, second.length - 6, g)]), "second");
        break;
      }
      case "no-signature":
        body = single(path, content, named, "gzip: .gz name, plain text inside");
        break;
      case "concatenated": {
        const more = jsonlContent(g, 2);
        body = single(
          path,
          concat([gz, gzipBytes(more)]),
          { ...ok, records: n + 2 },
          "gzip: two members",
        );
        break;
      }
      case "trailing-garbage": {
        const junk = g.rng.bytes(g.rng.int(1, 64));
        junk[0] = 0x00;
        body = single(path, concat([gz, junk]), {
          records: n,
          quarantined: 0,
          allowed: ["accounted", "named-error"],
        }, "gzip: trailing garbage");
        break;
      }
      case "empty":
        body = single(
          path,
          new Uint8Array(),
          { records: 0, allowed: ["accounted", "named-error"] },
          "gzip: empty file",
        );
        break;
      case "fname-header":
        body = single(
          path,
          gzipWithName(content, `run_${g.k}.jsonl`),
          ok,
          "gzip: FNAME and MTIME set",
        );
        break;
      case "valid-csv": {
        const rows = csvRows(g, n);
        body = single(`run_${g.k}.csv.gz`, gzipBytes(utf8(joinRows(rows))), ok, "gzip: CSV inside");
        break;
      }
      case "valid-lm-eval": {
        const exs = pickExamples(g.m, g.rng, n, g.rng.pick(g.m.examples).task);
        const names = lmEvalNames(exs[0].task);
        const lines = exs.map((ex) => JSON.stringify(lmEvalRecord(ex, responseFor(ex, g.rng))));
        body = {
          nodes: [
            {
              kind: "file",
              path: `${names.name}.gz`,
              bytes: gzipBytes(utf8(lines.join("\n") + "\n")),
            },
            { kind: "file", path: names.results.name, bytes: utf8(names.results.text) },
          ],
          expect: [{
            path: `${names.name}.gz`,
            records: exs.length,
            quarantined: 0,
            allowed: ["accounted"],
          }],
          about: "gzip: lm-eval samples inside",
        };
        break;
      }
      case "valid-eval": {
        const { entries, samples } = evalMembers(g.m, g.rng, n, g.rng.pick([DEFLATE, ZSTD]));
        body = single(`bbeh_${g.k}.eval.gz`, gzipBytes(buildZip(entries)), {
          records: samples,
          quarantined: 0,
          allowed: ["accounted"],
        }, "gzip: .eval inside");
        break;
      }
      default:
        body = single(path, gz, ok, "gzip: valid");
    }
    return maybeCompanions(g, body);
  },
};

const gzipBombClass: ClassDef = {
  name: "gzip-bomb",
  about: "gzip bombs: 1 GB of zeros / newlines in ~1 MB (next to good files); RSS must stay " +
    "under 1 GB",
  full: 6,
  ci: 3,
  variants: ["zeros-1g-jsonl", "newlines-1g-jsonl", "zeros-1g-csv"],
  gen(g, variant) {
    const csv = variant.endsWith("csv");
    const path = csv ? `bomb_${g.k}.csv.gz` : `bomb_${g.k}.jsonl.gz`;
    const bytes = gzipBomb(GB, variant.startsWith("newlines") ? 0x0a : 0);
    const records = variant === "zeros-1g-jsonl" ? 1 : 0;
    const body = single(
      path,
      bytes,
      { records, allowed: ["accounted", "named-error"] },
      `gzip bomb: ${variant} (${bytes.length} bytes → 1 GB)`,
    );
    return {
      ...withCompanions(g, body, g.rng.int(1, 2)),
      bounded: true,
      limits: { rssBytes: GB, timeoutMs: 30_000 },
    };
  },
};

/** The `.eval` variants whose archive must be an error (besides those the verifier rejects). */
const EVAL_MUST_FAIL = new Set([
  "invalid-json-header",
  "invalid-json-sample",
  "missing-spec",
  "invalid-json-start",
]);
/** Variants a reader may accept or reject (archive intact, content it need not read). */
const EVAL_LENIENT = new Set(["invalid-json-summaries", "name-mismatch"]);

/** Count of `samples/…json` names. */
const sampleCount = (names: string[]) => names.filter((n) => /^samples\/.+\.json$/.test(n)).length;

/**
 * The expectation of an `.eval` archive from the independent verifier: broken → a named error;
 * intact → scored (every sample), or either for headers that disagree.
 */
export function evalExpect(bytes: Uint8Array, mutated: boolean, mustFail = false, lenient = false) {
  const check = verifyZip(bytes);
  if (!check.ok || mustFail) {
    return { records: null, allowed: ["named-error"] as Expect["allowed"], check };
  }
  const records = [...new Set([sampleCount(check.names), sampleCount(check.localNames)])];
  const loose = mutated || lenient || check.inconsistent !== undefined;
  return {
    records: records.length === 1 ? records[0] : records,
    quarantined: loose ? null : 0,
    allowed: (loose ? ["accounted", "named-error"] : ["accounted"]) as Expect["allowed"],
    check,
  };
}

const evalCorrupt: ClassDef = {
  name: "eval-corrupt",
  about: "inspect .eval ZIPs (deflate, zstd, stored) with a wrong member CRC-32 or size, " +
    "altered data under the old CRC (samples, header.json, summaries.json, " +
    "_journal/start.json), truncated, invalid member JSON, no spec; valid controls",
  full: 160,
  ci: 24,
  variants: [
    "crc-sample-deflate",
    "crc-sample-zstd",
    "data-header-deflate",
    "data-summaries-zstd",
    "data-start-zstd",
    "valid-deflate",
    "valid-zstd",
    "truncated-deflate",
    "truncated-zstd",
    "data-sample-zstd",
    "data-sample-deflate",
    "crc-header-zstd",
    "crc-summaries-deflate",
    "crc-start-deflate",
    "size-sample-deflate",
    "crc-sample-stored",
    "invalid-json-header",
    "invalid-json-sample",
    "crashed-valid",
    "crashed-crc-start",
    "data-header-zstd",
    "data-summaries-deflate",
    "data-start-deflate",
    "crc-reductions-stored",
    "valid-zstd-checksum",
    "data-sample-zstd-checksum",
    "frame-flip-zstd",
    "invalid-json-summaries",
    "invalid-json-start",
    "missing-spec",
    "unsupported-method",
    "name-mismatch",
    "valid-stored",
    "valid-mixed",
    "comment",
  ],
  gen(g, variant) {
    const method = variant.includes("zstd") ? ZSTD : variant.includes("stored") ? STORED : DEFLATE;
    const n = g.rng.int(1, 5);
    const crashed = variant.startsWith("crashed");
    const { entries } = evalMembers(g.m, g.rng, n, method, crashed);
    if (variant === "valid-mixed") {
      for (const e of entries) e.method = g.rng.pick([STORED, DEFLATE, ZSTD]);
    }
    if (variant.includes("checksum")) { for (const e of entries) e.zstdChecksum = true; }
    const role = /-(sample|header|summaries|start|reductions)-/.exec(variant + "-")?.[1] ??
      (variant === "crashed-crc-start" ? "start" : "sample");
    const target = (): ZipEntry => {
      const name = role === "header"
        ? "header.json"
        : role === "summaries"
        ? "summaries.json"
        : role === "start"
        ? "_journal/start.json"
        : role === "reductions"
        ? "reductions.json"
        : g.rng.pick(entries.filter((e) => e.name.startsWith("samples/"))).name;
      return entries.find((e) => e.name === name)!;
    };
    let comment = "";
    let cut = false;
    if (variant.startsWith("crc-") || variant === "crashed-crc-start") {
      const e = target();
      const crc = compressEntry(e).crc ^ g.rng.int(1, 0x7fffffff);
      e.crcLocal = crc;
      e.crcCentral = crc;
    } else if (variant.startsWith("data-")) {
      const e = target();
      const original = compressEntry(e);
      const text = new TextDecoder().decode(e.data!);
      // change one letter inside the JSON text (still valid JSON, same length)
      const letters = [...text.matchAll(/[a-z]/g)].map((m) => m.index!);
      const at = g.rng.pick(letters);
      const changed = utf8(text.slice(0, at) + (text[at] === "x" ? "y" : "x") + text.slice(at + 1));
      const recompressed = compressEntry({ ...e, data: changed });
      e.pre = { compressed: recompressed.compressed, crc: original.crc, size: original.size };
    } else if (variant === "size-sample-deflate") {
      const e = target();
      const size = compressEntry(e).size + g.rng.int(1, 100);
      e.sizeLocal = size;
      e.sizeCentral = size;
    } else if (variant === "frame-flip-zstd") {
      const e = target();
      e.corrupt = (c) => spoil(c, g.rng.int(4, c.length - 1), g);
    } else if (variant.startsWith("invalid-json-")) {
      const e = target();
      e.data = utf8(
        g.rng.pick(['{"eval": {"task": "bbeh"', "not json", "", "[1, 2", '{"id": NaX}']),
      );
      delete e.pre;
    } else if (variant === "missing-spec") {
      entries.splice(
        0,
        entries.length,
        ...entries.filter((e) => e.name.startsWith("samples/") || e.name === "reductions.json"),
      );
    } else if (variant === "unsupported-method") {
      target().method = 12;
    } else if (variant === "name-mismatch") {
      target().nameCentral = `samples/${90 + g.rng.int(0, 9)}_epoch_1.json`;
    } else if (variant === "comment") comment = "written by the fuzz suite";
    else if (variant.startsWith("truncated")) cut = true;
    let bytes = buildZip(entries, comment);
    if (cut) bytes = bytes.subarray(0, g.rng.int(1, bytes.length - 1));
    const mustFail = EVAL_MUST_FAIL.has(variant);
    const exp = evalExpect(
      bytes,
      variant === "frame-flip-zstd",
      mustFail,
      EVAL_LENIENT.has(variant),
    );
    const expectBroken = /^(crc|data|size|truncated|crashed-crc)/.test(variant) ||
      variant === "unsupported-method";
    if (expectBroken && exp.check.ok) {
      throw new Error(`eval-corrupt/${variant}: the verifier finds the archive intact`);
    }
    const { check: _check, ...expect } = exp;
    const path = `bbeh_${g.k}.eval`;
    return maybeCompanions(
      g,
      single(
        path,
        bytes,
        expect,
        `.eval: ${variant}${exp.check.reason ? ` (${exp.check.reason})` : ""}`,
      ),
    );
  },
};

const evalGarbage: ClassDef = {
  name: "eval-garbage",
  about: "files named .eval that are no ZIP (random bytes, PK + garbage, empty, text, gzip) " +
    "or an empty ZIP, in a folder with good logs: each must be named",
  full: 30,
  ci: 6,
  variants: [
    "random",
    "pk-garbage",
    "empty",
    "empty-zip",
    "gzip-as-eval",
    "text",
    "eocd-only",
    "truncated-to-header",
  ],
  gen(g, variant) {
    let bytes: Uint8Array;
    switch (variant) {
      case "random":
        bytes = g.rng.bytes(g.rng.int(1, 4096));
        break;
      case "pk-garbage":
        bytes = concat([new Uint8Array([0x50, 0x4b, 3, 4]), g.rng.bytes(g.rng.int(0, 2048))]);
        break;
      case "empty":
        bytes = new Uint8Array();
        break;
      case "empty-zip":
      case "eocd-only":
        bytes = buildZip([], variant === "empty-zip" ? "" : "");
        break;
      case "gzip-as-eval":
        bytes = gzipBytes(jsonlContent(g, 2));
        break;
      case "text":
        bytes = utf8("this is not an inspect log\n");
        break;
      default: {
        const zip = buildZip(evalMembers(g.m, g.rng, 2, DEFLATE).entries);
        bytes = zip.subarray(0, 30 + g.rng.int(0, 40));
      }
    }
    const body = single(
      `garbage_${g.k}.eval`,
      bytes,
      { records: null, allowed: ["named-error"] },
      `garbage .eval: ${variant}`,
    );
    return withCompanions(g, body, g.rng.int(1, 2));
  },
};

const evalBomb: ClassDef = {
  name: "eval-bomb",
  about: "a .eval whose member inflates to 2 GB (deflate ~2 MB, zstd ~64 KB; a sample, " +
    "summaries.json), next to good files; RSS must stay under 1 GB",
  full: 6,
  ci: 3,
  variants: ["deflate-2g-sample", "zstd-2g-sample", "deflate-2g-summaries"],
  gen(g, variant) {
    const method = variant.startsWith("zstd") ? ZSTD : DEFLATE;
    const { entries, samples } = evalMembers(g.m, g.rng, 2, method);
    const name = variant.endsWith("summaries") ? "summaries.json" : "samples/1_epoch_1.json";
    const e = entries.find((x) => x.name === name)!;
    const prefix = utf8(
      name === "summaries.json" ? '[{"pad": "' : '{"id": 1, "epoch": 1, "pad": "',
    );
    const suffix = utf8(name === "summaries.json" ? '"}]' : '"}');
    e.pre = method === ZSTD
      ? zstdRepeated(prefix, 0x61, 2 * GB, suffix)
      : deflateRepeated(prefix, 0x61, 2 * GB, suffix);
    const bytes = buildZip(entries);
    const body = single(`bomb_${g.k}.eval`, bytes, {
      records: samples,
      allowed: ["accounted", "named-error"],
    }, `.eval bomb: ${variant} (${bytes.length} bytes)`);
    return {
      ...withCompanions(g, body, g.rng.int(1, 2)),
      bounded: true,
      limits: { rssBytes: GB, timeoutMs: 60_000 },
    };
  },
};

const bbhRelease: ClassDef = {
  name: "bbh-release-odd",
  about: 'BBH release output files with "outputs": null / an object / a string / missing / ' +
    "empty, records that are not objects, null predictions; the real file as control",
  full: 30,
  ci: 6,
  variants: [
    "outputs-null",
    "items-not-objects",
    "valid",
    "outputs-object",
    "prediction-null",
    "outputs-missing",
    "outputs-string",
    "outputs-empty",
    "prediction-number",
    "outputs-null-direct",
  ],
  gen(g, variant) {
    const real = g.rng.pick(g.m.bbhRelease);
    const doc = JSON.parse(new TextDecoder().decode(real.bytes)) as {
      canary: string;
      outputs: unknown;
    };
    const outputs = doc.outputs as Record<string, unknown>[];
    const n = outputs.length;
    let expect: Omit<Expect, "path"> = { records: n, quarantined: 0, allowed: ["accounted"] };
    const pickIdx = (k: number) => g.rng.shuffle(outputs.map((_, i) => i)).slice(0, k);
    switch (variant) {
      case "outputs-null":
      case "outputs-null-direct":
        doc.outputs = null;
        expect = { records: null, allowed: ["named-error"] };
        break;
      case "outputs-object":
        doc.outputs = { "0": outputs[0] };
        expect = { records: null, allowed: ["named-error"] };
        break;
      case "outputs-string":
        doc.outputs = "none";
        expect = { records: null, allowed: ["named-error"] };
        break;
      case "outputs-missing":
        delete (doc as { outputs?: unknown }).outputs;
        expect = { records: null, allowed: ["named-error"] };
        break;
      case "outputs-empty":
        doc.outputs = [];
        expect = { records: 0, allowed: ["accounted", "named-error"] };
        break;
      case "items-not-objects": {
        const idx = pickIdx(g.rng.int(1, 4));
        for (const i of idx) (outputs as unknown[])[i] = g.rng.pick([null, "text", 3, [], true]);
        expect = { records: n, quarantined: idx.length, allowed: ["accounted"] };
        break;
      }
      case "prediction-null": {
        const idx = pickIdx(g.rng.int(1, 4));
        for (const i of idx) outputs[i].prediction = null;
        expect = { records: n, quarantined: idx.length, allowed: ["accounted"] };
        break;
      }
      case "prediction-number": {
        for (const i of pickIdx(2)) outputs[i].prediction = 42;
        expect = { records: n, quarantined: null, allowed: ["accounted"] };
        break;
      }
    }
    const path = `code-davinci-002-fuzz/${real.name}`;
    const body: CaseBody = {
      ...single(path, utf8(JSON.stringify(doc)), expect, `BBH release outputs: ${variant}`),
      args: variant === "outputs-null-direct" ? [path] : undefined,
    };
    return maybeCompanions(g, body);
  },
};

/** The container classes. */
export const CONTAINER_CLASSES: ClassDef[] = [
  csvOdd,
  gzipCorrupt,
  gzipBombClass,
  evalCorrupt,
  evalGarbage,
  evalBomb,
  bbhRelease,
];

/** Re-exported for the file-system generators. */
export type { FileNode };
