/**
 * Short labels for run names, for axes, legends and table headers: lm-eval names a run after its
 * output folder (`meta-llama__Llama-3.2-3B-Instruct_2026-01-08T17-20-31.984236`, 60
 * characters), which leaves a figure no room for its data. One deterministic scheme, so a
 * figure, the report and a LaTeX table call a run by the same short name, with a legend back
 * to the full names.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const runs = [
 *   "meta-llama__Llama-3.2-3B-Instruct_2026-01-08T17-20-31.984236",
 *   "Qwen__Qwen2.5-7B-Instruct_2026-01-09T09-02-11.120345",
 * ];
 * const { label, legend } = shortRunLabels(runs);
 * assert.equal(label(runs[0]), "Llama-3.2-3B-Instruct");
 * assert.deepEqual(legend.map((l) => l.label), ["Llama-3.2-3B-Instruct", "Qwen2.5-7B-Instruct"]);
 * ```
 * @module
 */

/** Options of {@link shortRunLabels}. */
export interface RunLabelOptions {
  /** The longest label, in characters (default 24). */
  maxChars?: number;
  /** Whether a label fits where it goes (e.g. a measured width); on top of `maxChars`. */
  fits?: (label: string) => boolean;
}

/** Short labels of some runs and the legend back to the full names. */
export interface RunLabels {
  /** The label of a run (the name itself for a name that was not given). */
  label: (run: string) => string;
  /** Label and full name of every run whose label differs from its name, in the given order. */
  legend: { label: string; run: string }[];
}

/**
 * Short, unique labels for run names. The first of these that gives every run a unique label
 * that fits is taken, for all runs alike:
 * 1. the names themselves;
 * 2. the names without a date-time stamp (`_2026-01-08T17-20-31.984236`, as lm-eval and
 *    inspect write them) and without a Hugging Face organisation (`meta-llama__`, lm-eval's
 *    spelling of `meta-llama/`), keeping as many trailing `/` folders as make them unique
 *    (`exp1/gpt4o`, `exp2/gpt4o`); runs still alike (one model run twice) are numbered in the
 *    given order, `Llama-3.2-3B-Instruct #1`, `#2`;
 * 3. those labels shortened in the middle with `…`, each as little as makes it fit (the start
 *    names the model, the end its variant);
 * 4. `R1`, `R2`, … in the given order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const twice = ["org__model_2026-01-08T17-20-31.984236", "org__model_2026-01-09T08-00-00.000001"];
 * assert.deepEqual(twice.map(shortRunLabels(twice, { maxChars: 12 }).label), ["model #1", "model #2"]);
 * const short = shortRunLabels(["gpt-4o", "o3-mini"]);
 * assert.deepEqual(short.legend, []); // the names fit: no legend
 * const folders = ["exp1/gpt4o", "exp2/gpt4o"];
 * assert.deepEqual(folders.map(shortRunLabels(folders, { maxChars: 8 }).label), ["exp1…t4o", "exp2…t4o"]);
 * const middle = ["model-A-final", "model-B-final"]; // they differ where the cut would fall
 * assert.deepEqual(middle.map(shortRunLabels(middle, { maxChars: 8 }).label), ["R1", "R2"]);
 * ```
 */
export function shortRunLabels(names: readonly string[], opts: RunLabelOptions = {}): RunLabels {
  const runs = [...new Set(names)];
  const max = opts.maxChars ?? 24;
  const fits = (l: string) => [...l].length <= max && (opts.fits?.(l) ?? true);
  const ok = (labels: string[]) => new Set(labels).size === labels.length && labels.every(fits);
  const simple = simplified(runs);
  const cut = (s: string) => {
    for (let n = Math.min([...s].length, max); n > 1; n--) {
      if (fits(middleCut(s, n))) return middleCut(s, n);
    }
    return s;
  };
  const chosen = [runs, simple, simple.map(cut)].find(ok) ??
    runs.map((_, i) => `R${i + 1}`);
  const byRun = new Map(runs.map((r, i) => [r, chosen[i]]));
  return {
    label: (run) => byRun.get(run) ?? run,
    legend: runs.filter((r) => byRun.get(r) !== r).map((run) => ({ label: byRun.get(run)!, run })),
  };
}

/**
 * A legend as one line for a caption, `label = run; …` (empty when nothing was shortened).
 *
 * @example
 * ```ts
 * legendText([{ label: "R1", run: "exp1/gpt4o" }, { label: "R2", run: "exp2/gpt4o" }]);
 * // "R1 = exp1/gpt4o; R2 = exp2/gpt4o"
 * ```
 */
export function legendText(legend: RunLabels["legend"]): string {
  return legend.map((l) => `${l.label} = ${l.run}`).join("; ");
}

/** A date-time stamp with its separator: `_2026-01-08T17-20-31.984236`, `2024-05-29T12-38-43+00-00_`. */
const STAMP =
  /[_\-. ]?\d{4}-\d{2}-\d{2}[T_ ]\d{2}[-:]\d{2}(?:[-:]\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}[-:]?\d{2})?[_\-. ]?/g;

/** Step 2 of {@link shortRunLabels}: stamps and organisations dropped, folders kept as needed. */
function simplified(runs: string[]): string[] {
  const parts = runs.map((r) => {
    const clean = r.replace(STAMP, "_").replace(/^[_\-. ]+|[_\-. ]+$/g, "");
    const segs = clean.split("/").map((s) => s.replace(/^.+?__(?=.)/, ""));
    return segs.every(Boolean) ? segs : [r];
  });
  const depth = Math.max(...parts.map((p) => p.length));
  let labels: string[] = [];
  for (let k = 1; k <= depth; k++) {
    labels = parts.map((p) => p.slice(-k).join("/"));
    if (new Set(labels).size === labels.length) return labels;
  }
  return numbered(labels);
}

/** Labels that repeat get ` #1`, ` #2`, … in order of appearance. */
function numbered(labels: string[]): string[] {
  const total = new Map<string, number>(), seen = new Map<string, number>();
  for (const l of labels) total.set(l, (total.get(l) ?? 0) + 1);
  return labels.map((l) => {
    if (total.get(l) === 1) return l;
    seen.set(l, (seen.get(l) ?? 0) + 1);
    return `${l} #${seen.get(l)}`;
  });
}

/** At most `max` characters: the start and the end, `…` between them. */
function middleCut(s: string, max: number): string {
  const chars = [...s];
  if (chars.length <= max) return s;
  const head = Math.ceil((max - 1) / 2), tail = max - 1 - head;
  return `${chars.slice(0, head).join("")}…${tail > 0 ? chars.slice(-tail).join("") : ""}`;
}
