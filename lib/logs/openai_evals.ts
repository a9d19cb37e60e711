/**
 * Read an openai/evals record log (`oaieval … --record_path run.log`, JSON lines) into the raw
 * form ({@link RawLog}): one row per `sample_id`.
 *
 * Lines: a `{"spec": …}` line (`completion_fns`, `eval_name`, `base_eval`, `run_id`), event
 * lines `{run_id, event_id, sample_id, type, data, created_at}` — `sampling` (`data.prompt`,
 * `data.sampled`), `match` (`data.correct`, `data.expected`, `data.picked`) and others — in no
 * guaranteed order, and a `{"final_report": …}` line. Events are grouped by `sample_id`, in
 * `event_id` order (else line order).
 *
 * Row fields: `run` = the file name without extension, `model` = the first completion
 * function, benchmark/task from `base_eval` (else `eval_name` up to its first dot;
 * `bbh_<task>`/`bbeh_<task>` are recognised, else the name as both), `example_index` = the number at the end of `sample_id`
 * (`<eval>.<split>.<n>`), `extra.prompt` = the last sampling prompt (chat: its user turns; not
 * `input`, as a templated prompt never equals the data set's input exactly), `target`
 * = `match.expected` (a list: its first element), `response` = the last sampling's `sampled`
 * (a list: its first element). `extra` keeps the sample id, `picked`, the other events' types
 * and `stored_correct` (`match.correct`).
 *
 * Every line is accounted for: spec and final report are metadata; an unreadable line, an
 * event without `sample_id` and a sample without a sampling event are quarantined; and when the
 * final report counts more samples (`n_samples`) than the log holds events for, one entry on
 * the final-report line says so (records with their events stripped cannot be scored).
 * Line numbers: a sample's first event line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readOpenAiEvalsLog } from "@runlens/logs/openai_evals.ts";
 * const raw = readOpenAiEvalsLog("tests/fixtures/logs/formats/openai_evals/bbeh_nycc_run.log");
 * console.log(raw.rowsIn, raw.bad.length); // 6 4
 * assert.deepEqual(raw.frame.select("model", "benchmark", "task", "example_index").row(0), [
 *   "gpt-4o-mini",
 *   "bbeh",
 *   "nycc",
 *   "0",
 * ]);
 * ```
 * @module
 */
import { defaultRunName } from "./paths.ts";
import { benchmarkTaskOf } from "./tool_names.ts";
import { asText, frameFromRecords, type RawLog } from "./raw.ts";
import { jsonLineReason } from "./quarantine.ts";
import { readUtf8File } from "./encoding.ts";

type Json = Record<string, unknown>;

/** One event line. */
interface Event {
  line: number;
  order: number;
  type: string;
  data: Json;
}

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

/** Chat prompt → user turns; a string as is. */
function promptText(prompt: unknown): string | null {
  if (typeof prompt === "string") return prompt;
  if (Array.isArray(prompt)) {
    const user = prompt.filter((m) => m && typeof m === "object" && m.role === "user")
      .map((m) => asText(m.content)).filter((t) => t !== null);
    return user.length > 0 ? user.join("\n\n") : JSON.stringify(prompt);
  }
  return asText(prompt ?? null);
}

const firstOf = (v: unknown) => Array.isArray(v) ? v[0] ?? null : v ?? null;

/**
 * Read a record log (`text` defaults to the file's content). Never throws on bad lines; they
 * are returned in `bad`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const raw = readOpenAiEvalsLog("tests/fixtures/logs/formats/openai_evals/bbeh_nycc_run.log");
 * assert.deepEqual(raw.frame.select("example_index", "response", "target").toRecords(), [
 *   { example_index: "0", response: "The answer is: (A)", target: null },
 *   { example_index: "1", response: "The answer is: (B)", target: "(C)" },
 * ]);
 * ```
 */
export function readOpenAiEvalsLog(path: string, text = readUtf8File(path)): RawLog {
  const run = defaultRunName(path);
  const all = text.replace(/^\ufeff/, "").split("\n");
  let spec: Json = {};
  let finalReport: { line: number; report: Json } | null = null;
  const bad: RawLog["bad"] = [];
  const samples = new Map<string, Event[]>();
  const lastLine = all.reduce((last, l, i) => l.trim() !== "" ? i + 1 : last, 0);
  all.forEach((raw, i) => {
    const line = i + 1;
    const body = raw.replace(/\r$/, "");
    if (body.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch (e) {
      bad.push({
        line,
        reason: jsonLineReason(e, line === lastLine && !text.endsWith("\n")),
        run,
      });
      return;
    }
    if (!value || typeof value !== "object" || Array.isArray(value)) {
      bad.push({ line, reason: "not a JSON object", run });
      return;
    }
    const v = value as Json;
    if ("spec" in v && v.spec && typeof v.spec === "object") spec = v.spec as Json;
    else if ("final_report" in v) {
      finalReport = { line, report: (v.final_report ?? {}) as Json };
    } else if (v.sample_id === undefined || v.sample_id === null) {
      bad.push({ line, reason: "event without sample_id", run });
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
  const { benchmark, task } = benchmarkTaskOf(base);
  const records: Json[] = [];
  const lines: number[] = [];
  for (const [id, events] of samples) {
    events.sort((a, b) => a.order - b.order || a.line - b.line);
    const line = Math.min(...events.map((e) => e.line));
    const sampling = events.filter((e) => e.type === "sampling").at(-1);
    const match = events.filter((e) => e.type === "match").at(-1);
    if (!sampling) {
      bad.push({ line, reason: `sample ${id} has no sampling event`, run });
      continue;
    }
    const index = /(\d+)$/.exec(id);
    records.push({
      run,
      model,
      benchmark,
      task,
      example_index: index ? Number(index[1]) : null,
      prompt: promptText(sampling.data.prompt),
      target: asText(firstOf(match?.data.expected)),
      response: asText(firstOf(sampling.data.sampled)),
      epoch: 1,
      sample_id: id,
      eval_name: spec.eval_name ?? null,
      run_id: spec.run_id ?? null,
      picked: match?.data.picked ?? null,
      stored_correct: typeof match?.data.correct === "boolean" ? match.data.correct : null,
      event_types: events.map((e) => e.type),
    });
    lines.push(line);
  }
  const report = finalReport as { line: number; report: Json } | null;
  const declared = report ? report.report.n_samples : undefined;
  if (report && typeof declared === "number" && declared > samples.size) {
    bad.push({
      line: report.line,
      reason: `final_report counts ${declared} samples but the log holds events for ` +
        `${samples.size} (per-sample events missing; nothing to score)`,
      run,
    });
  }
  bad.sort((a, b) => a.line - b.line);
  const order = lines.map((l, i) => [l, i]).sort((a, b) => a[0] - b[0]).map(([, i]) => i);
  return {
    frame: frameFromRecords(order.map((i) => records[i]), order.map((i) => lines[i])),
    bad,
    rowsIn: records.length + bad.length,
  };
}
