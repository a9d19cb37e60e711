/**
 * The `openai-evals` document source for the streaming path: an openai/evals record log
 * (JSON lines: a `{"spec": …}` line, event lines, a `{"final_report": …}` line), one record
 * per `sample_id`, its events grouped in `event_id` order (else line order). Records and bad
 * records are those of today's reader (`logs/openai_evals.ts`, the behavioural spec): `model`
 * = the first completion function, `benchmark` and `task` = `base_eval` (else `eval_name`) as
 * written (resolved by `pipeline/labels.ts`),
 * `example_index` = the number ending `sample_id`, `target` = `match.expected`, `response` =
 * the last sampling's `sampled`, `stored_correct` = `match.correct`; an unreadable line, an
 * event without `sample_id`, a sample without a sampling event and a final report counting
 * more samples than the log holds are bad records. Record numbers: a sample's first event
 * line. `run` is not set (the file's default run applies). Polars-free.
 *
 * Lines are checked against the depth and key limits before they are parsed (over → a bad
 * line). Blank lines are those holding only JSON whitespace (space, tab, CR): a line of
 * U+2028, a form feed or a no-break space is a record — a malformed one (issue 15).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEFAULT_LIMITS } from "@runlens/logs/limits.ts";
 * import { openaiEvalsSource } from "@runlens/logs/sources/openai_evals.ts";
 * const path = "tests/fixtures/logs/formats/openai_evals/bbeh_nycc_run.log";
 * const file = { id: 0, path, name: path, format: "openai-evals", gzip: false,
 *   defaultRun: "bbeh_nycc_run", size: 0 };
 * const records: unknown[] = [];
 * let bad = 0;
 * openaiEvalsSource.read(file, {
 *   record: (r) => records.push([r.model, r.task, r.example_index, r.response]),
 *   bad: () => bad++,
 * }, DEFAULT_LIMITS);
 * assert.deepEqual(records[0], ["gpt-4o-mini", "bbeh_nycc", 0, "The answer is: (A)"]);
 * assert.equal(bad, 4);
 * ```
 * @module
 */
import { isUtf8 } from "node:buffer";
import { decodeUtf8 } from "../../codecs/encoding.ts";
import { scanJsonLimits } from "../../codecs/json_limits.ts";
import { defaultRunName } from "../paths.ts";
import { jsonLineReason } from "../quarantine.ts";
import { asText, INLINE, isObject, type Json, LineOrder, readDocumentBytes } from "./document.ts";
import { type DocumentSource, FileError } from "./types.ts";

/**
 * Whether `line` (one JSON line of text) looks like an openai/evals record-log line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(isOpenAiEvalsLine('{"spec": {"eval_name": "x"}}'), true);
 * assert.equal(isOpenAiEvalsLine('{"task": "nycc", "response": "x"}'), false);
 * ```
 */
export function isOpenAiEvalsLine(line: string): boolean {
  return /^\s*\{\s*"(spec|final_report)"\s*:/.test(line) ||
    (/"run_id"\s*:/.test(line) && /"sample_id"\s*:/.test(line) && /"type"\s*:/.test(line));
}

/** One event line. */
interface Event {
  line: number;
  order: number;
  type: string;
  data: Json;
}

const firstOf = (v: unknown) => Array.isArray(v) ? v[0] ?? null : v ?? null;

/** Whether bytes `[start, end)` hold only JSON whitespace (space, tab, CR). */
function blank(b: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = b[i];
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return false;
  }
  return true;
}

const decoder = new TextDecoder();

/** The `openai-evals` source. */
export const openaiEvalsSource: DocumentSource = {
  kind: "document",
  read(file, sink, limits) {
    const bytes = readDocumentBytes(file, limits);
    if (!isUtf8(bytes)) {
      try {
        decodeUtf8(bytes);
      } catch (e) {
        throw new FileError(file.path, (e as Error).message);
      }
    }
    const run = defaultRunName(file.name);
    let from = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    // line spans, and the last line that is not blank
    const lines: [number, number][] = [];
    while (from <= bytes.length) {
      let end = bytes.indexOf(0x0a, from);
      if (end < 0) end = bytes.length;
      lines.push([from, end]);
      from = end + 1;
    }
    let lastLine = 0;
    lines.forEach(([s, e], i) => {
      if (!blank(bytes, s, e)) lastLine = i + 1;
    });
    const unterminated = bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a;
    let spec: Json = {};
    let finalReport: { line: number; report: Json } | null = null;
    const out = new LineOrder();
    const samples = new Map<string, Event[]>();
    lines.forEach(([s, e], i) => {
      const line = i + 1;
      const end = e > s && bytes[e - 1] === 0x0d ? e - 1 : e;
      if (blank(bytes, s, end)) return;
      const body = bytes.subarray(s, end);
      const scan = scanJsonLimits(body, limits);
      if (scan.outside) {
        out.bad({ line, reason: scan.outside.reason });
        return;
      }
      let value: unknown;
      try {
        value = JSON.parse(decoder.decode(body));
      } catch (err) {
        out.bad({ line, reason: jsonLineReason(err, line === lastLine && unterminated) });
        return;
      }
      if (!isObject(value)) {
        out.bad({ line, reason: "not a JSON object" });
        return;
      }
      const v = value;
      if ("spec" in v && v.spec && typeof v.spec === "object") spec = v.spec as Json;
      else if ("final_report" in v) {
        finalReport = { line, report: (v.final_report ?? {}) as Json };
      } else if (v.sample_id === undefined || v.sample_id === null) {
        out.bad({ line, reason: "event without sample_id" });
      } else {
        const id = String(v.sample_id);
        const order = typeof v.event_id === "number" ? v.event_id : line;
        const data = (v.data && typeof v.data === "object" ? v.data : {}) as Json;
        const events = samples.get(id) ?? [];
        events.push({ line, order, type: String(v.type ?? ""), data });
        samples.set(id, events);
      }
    });
    const model = asText(firstOf(spec.completion_fns) ?? null);
    const base = String(spec.base_eval ?? spec.eval_name ?? run).split(".")[0] || run;
    for (const [id, events] of samples) {
      events.sort((a, b) => a.order - b.order || a.line - b.line);
      const line = Math.min(...events.map((e) => e.line));
      const sampling = events.filter((e) => e.type === "sampling").at(-1);
      const match = events.filter((e) => e.type === "match").at(-1);
      if (!sampling) {
        out.bad({ line, reason: `sample ${id} has no sampling event` });
        continue;
      }
      const index = /(\d+)$/.exec(id);
      out.record({
        line,
        model,
        benchmark: base, // the eval's name, for both (pipeline/labels.ts resolves it)
        task: base,
        example_index: index ? Number(index[1]) : null,
        target: asText(firstOf(match?.data.expected)),
        response: asText(firstOf(sampling.data.sampled)),
        epoch: 1,
        stored_correct: typeof match?.data.correct === "boolean" ? match.data.correct : null,
        tool_extracted: null,
        pointer: INLINE,
      });
    }
    const report = finalReport as { line: number; report: Json } | null;
    const declared = report && isObject(report.report) ? report.report.n_samples : undefined;
    if (report && typeof declared === "number" && declared > samples.size) {
      out.bad({
        line: report.line,
        reason: `final_report counts ${declared} samples but the log holds events for ` +
          `${samples.size} (per-sample events missing; nothing to score)`,
      });
    }
    out.flush(sink);
  },
};
