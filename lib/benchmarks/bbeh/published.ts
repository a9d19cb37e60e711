/**
 * The BBEH paper's published numbers as typed data, each table with its citation.
 *
 * Source: Kazemi et al. 2025, "BIG-Bench Extra Hard" (arXiv:2502.19187), the version whose
 * tables include the Gemma3 columns. Transcribed from the paper's text: Table 2 (per-task
 * accuracy and the BBEH harmonic mean), Table 3 (BBEH Mini micro average), Table 4 (BBEH micro
 * average, Appendix) and Table 10 (Gemini 2.0 Flash on BBH vs BBEH, Appendix B). Model names are
 * spelled as in the table headers; task rows are keyed by the canonical names of
 * `tasks.ts`. Rows are kept in the paper's layout (display name, then one value per column) so
 * the transcription can be read against the paper line by line.
 *
 * Known inconsistencies in the paper (see `tests/bbeh_published.test.ts`): Table 4's 12.5 for
 * Qwen-2.5-7B-Instruct is the arithmetic mean of its Table 2 row (12.47), not the micro average
 * (12.08); Table 10's "BBEH" row mixes metrics (BBH 85.2 = arithmetic mean of the 23 BBH
 * numbers, BBEH 23.90 = micro average of Table 4); Section 5.2 says o3-mini (high) exceeds 70%
 * on 4 of 23 tasks, Table 2 shows 5.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { BBEH_TABLE2, BBEH_TABLE4 } from "@runlens/benchmarks/bbeh/published.ts";
 * assert.equal(BBEH_TABLE2.bbeh["o3-mini (high)"], 44.8);
 * assert.equal(BBEH_TABLE2.accuracy["GPT4o"]["nycc"], 23.0);
 * assert.equal(BBEH_TABLE4.values["Gemini 2.0 Flash"], 23.9);
 * ```
 * @module
 */
import { BBEH_TASK_NAMES, canonicalBbehTask } from "./tasks.ts";

/** The paper this module transcribes. */
export const BBEH_PAPER = {
  citation: "Kazemi et al. 2025",
  title: "BIG-Bench Extra Hard",
  arxiv: "2502.19187",
  url: "https://arxiv.org/abs/2502.19187",
} as const;

/** How the paper groups a model (Section 5.2: general-purpose vs reasoning-specialized). */
export type PublishedModelKind = "general" | "reasoning" | "baseline";

/** A model column of the paper's tables. */
export interface PublishedModel {
  /** Name exactly as in the paper's table headers. */
  model: string;
  /** A lowercase slug for file names and joins. */
  short: string;
  /** General, reasoning or baseline model. */
  kind: PublishedModelKind;
}

/** The 13 columns of Tables 2 and 4, in the paper's order (Random first). */
export const BBEH_PUBLISHED_MODELS: readonly PublishedModel[] = [
  { model: "Random", short: "random", kind: "baseline" },
  { model: "Qwen-2.5-7B-Instruct", short: "qwen2.5-7b-instruct", kind: "general" },
  { model: "Llama 3.1 8b Instruct", short: "llama3.1-8b-instruct", kind: "general" },
  { model: "Gemma2 27b IT", short: "gemma2-27b-it", kind: "general" },
  { model: "Gemma3 4b", short: "gemma3-4b", kind: "general" },
  { model: "Gemma3 12b", short: "gemma3-12b", kind: "general" },
  { model: "Gemma3 27b", short: "gemma3-27b", kind: "general" },
  { model: "Gemini 2.0 Flash-Lite", short: "gemini-2.0-flash-lite", kind: "general" },
  { model: "Gemini 2.0 Flash", short: "gemini-2.0-flash", kind: "general" },
  // Section 5.2: "the latest version, 2024-11-20, at the time of the experiments".
  { model: "GPT4o", short: "gpt-4o-2024-11-20", kind: "general" },
  { model: "Distill R1 Qwen 32b", short: "deepseek-r1-distill-qwen-32b", kind: "reasoning" },
  { model: "DeepSeek R1", short: "deepseek-r1", kind: "reasoning" },
  { model: "o3-mini (high)", short: "o3-mini-high", kind: "reasoning" },
];

function modelKey(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/**
 * The published model for a name or slug, tolerant of case, spaces and punctuation; null when
 * the paper has no such column.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(publishedModel("Qwen 2.5 7b Instruct")?.model, "Qwen-2.5-7B-Instruct");
 * assert.equal(publishedModel("o3-mini-high")?.kind, "reasoning");
 * ```
 */
export function publishedModel(name: string): PublishedModel | null {
  const key = modelKey(name);
  const hit = BBEH_PUBLISHED_MODELS.find((m) => [m.model, m.short].map(modelKey).includes(key));
  return hit ?? null;
}

/** A per-task table: accuracy (%) per model and task, plus the table's overall row. */
export interface PublishedTaskTable {
  /** Citation, e.g. "Kazemi et al. 2025, BBEH paper, Table 2". */
  source: string;
  /** What the overall row (`bbeh`) measures. */
  metric: string;
  /** Column names in the paper's order. */
  models: readonly string[];
  /** accuracy[model][canonical task] in percent, as printed (one decimal). */
  accuracy: Record<string, Record<string, number>>;
  /** The paper's "BBEH" row per model. */
  bbeh: Record<string, number>;
}

/** A one-row table: one number per model. */
export interface PublishedScoreTable {
  /** Where in the paper the numbers are. */
  source: string;
  /** What the numbers measure. */
  metric: string;
  /** The models, in the table's order. */
  models: readonly string[];
  /** Model → its number. */
  values: Record<string, number>;
}

type Row = readonly [display: string, ...values: number[]];

function canonical(display: string): string {
  const name = canonicalBbehTask(display);
  if (name === null) throw new Error(`published.ts: no BBEH task for paper row "${display}"`);
  return name;
}

function taskTable(
  source: string,
  metric: string,
  models: readonly string[],
  rows: readonly Row[],
  overall: readonly number[],
): PublishedTaskTable {
  const accuracy: Record<string, Record<string, number>> = {};
  for (const m of models) accuracy[m] = {};
  for (const [display, ...values] of rows) {
    if (values.length !== models.length) {
      throw new Error(`published.ts: row "${display}" has ${values.length} values`);
    }
    values.forEach((v, j) => accuracy[models[j]][canonical(display)] = v);
  }
  for (const m of models) {
    if (Object.keys(accuracy[m]).length !== BBEH_TASK_NAMES.length) {
      throw new Error(`published.ts: column "${m}" does not cover the 23 tasks`);
    }
  }
  return { source, metric, models, accuracy, bbeh: scoreRecord(models, overall) };
}

function scoreRecord(models: readonly string[], values: readonly number[]): Record<string, number> {
  if (values.length !== models.length) throw new Error("published.ts: column count mismatch");
  return Object.fromEntries(models.map((m, j) => [m, values[j]]));
}

const TABLE2_MODELS = BBEH_PUBLISHED_MODELS.map((m) => m.model);

/**
 * Table 2: accuracy (%) of 12 models and the random baseline on each BBEH task, and the BBEH
 * row: the adjusted harmonic mean (1 added to every accuracy, nothing subtracted afterwards).
 * The Random column holds chance rates, not counts.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(BBEH_TABLE2.accuracy["DeepSeek R1"]["boardgame_qa"], 75.5);
 * ```
 */
export const BBEH_TABLE2: PublishedTaskTable = taskTable(
  `${BBEH_PAPER.citation}, BBEH paper (arXiv:${BBEH_PAPER.arxiv}), Table 2`,
  "harmonic mean of (per-task accuracy % + 1)",
  TABLE2_MODELS,
  // Random | Qwen-2.5-7B-Instruct | Llama 3.1 8b Instruct | Gemma2 27b IT | Gemma3 4b |
  // Gemma3 12b | Gemma3 27b | Gemini 2.0 Flash-Lite | Gemini 2.0 Flash | GPT4o |
  // Distill R1 Qwen 32b | DeepSeek R1 | o3-mini (high)
  // deno-fmt-ignore
  [
    ["BoardgameQA", 33.3, 31.0, 31.5, 39.5, 34.5, 33.0, 37.0, 29.5, 42.5, 41.0, 36.0, 75.5, 53.0],
    ["Boolean Expressions", 20.0, 22.0, 18.0, 25.0, 23.0, 25.5, 22.0, 24.0, 27.0, 22.5, 17.5, 55.5, 67.0],
    ["Buggy Tables", 0.0, 1.5, 0.0, 0.5, 0.5, 0.0, 0.0, 1.5, 3.5, 0.5, 0.5, 4.5, 59.5],
    ["Causal Understanding", 38.0, 40.0, 37.0, 45.5, 46.0, 49.0, 51.5, 52.5, 52.0, 54.0, 54.5, 54.5, 54.0],
    ["DisambiguationQA", 21.0, 34.2, 36.7, 45.0, 33.3, 41.7, 49.2, 50.0, 48.3, 51.7, 52.5, 50.0, 58.3],
    ["Dyck Languages", 1.4, 1.0, 4.5, 2.0, 3.5, 8.5, 4.5, 6.5, 14.0, 8.0, 18.0, 56.0, 55.0],
    ["Geometric Shapes", 6.2, 41.5, 25.5, 31.0, 18.0, 32.5, 26.5, 30.0, 35.0, 22.5, 4.5, 1.5, 52.5],
    ["Hyperbaton", 0.0, 0.5, 2.0, 4.0, 2.0, 2.5, 3.5, 6.5, 4.5, 7.5, 3.0, 6.0, 32.0],
    ["Linguini", 0.0, 2.5, 3.0, 7.0, 1.0, 6.0, 9.0, 12.5, 15.5, 15.5, 6.0, 19.5, 17.0],
    ["Movie Recommendation", 10.0, 24.5, 30.0, 40.0, 35.0, 44.5, 55.0, 51.5, 59.5, 61.0, 46.0, 59.5, 84.0],
    ["Multistep Arithmetic", 0.0, 0.0, 0.5, 0.0, 0.0, 0.5, 1.5, 7.5, 9.5, 5.5, 36.0, 46.5, 73.0],
    ["NYCC", 10.0, 13.0, 13.0, 13.5, 7.0, 11.5, 15.0, 13.5, 11.0, 23.0, 10.5, 20.0, 16.0],
    ["Object Counting", 0.0, 0.0, 0.0, 0.0, 0.0, 0.5, 0.0, 4.0, 11.0, 6.5, 4.0, 76.5, 90.0],
    ["Object Properties", 1.6, 0.0, 0.5, 0.0, 0.5, 1.5, 0.5, 0.5, 1.5, 0.0, 0.0, 0.0, 56.5],
    ["SARC Triples", 12.5, 17.5, 16.5, 21.0, 14.0, 26.0, 24.0, 27.0, 37.5, 38.5, 22.0, 28.5, 24.0],
    ["Shuffled Objects", 14.3, 8.0, 9.5, 12.0, 1.0, 7.0, 5.0, 15.0, 9.0, 14.0, 2.0, 6.0, 49.5],
    ["Spatial Reasoning", 5.2, 0.0, 1.0, 7.0, 4.0, 10.5, 13.0, 10.5, 18.5, 14.0, 14.5, 37.0, 48.5],
    ["SportQA", 0.0, 5.0, 1.5, 10.0, 2.5, 12.5, 20.0, 18.5, 23.0, 25.0, 19.5, 29.0, 26.5],
    ["Temporal Sequences", 0.0, 0.5, 9.5, 1.5, 1.0, 0.0, 1.5, 1.0, 0.5, 0.0, 0.5, 0.0, 68.5],
    ["Time Arithmetic", 0.5, 18.5, 4.0, 15.5, 9.5, 23.5, 46.5, 45.0, 48.0, 45.5, 56.5, 77.0, 76.5],
    ["Web of Lies", 5.5, 2.5, 5.5, 6.5, 12.0, 22.0, 21.0, 14.0, 18.5, 14.5, 13.0, 29.5, 43.0],
    ["Word Sorting", 4.3, 4.0, 2.5, 3.5, 4.5, 6.0, 7.5, 12.5, 26.0, 22.0, 36.0, 68.0, 77.5],
    ["Zebra Puzzles", 15.4, 19.0, 2.5, 23.0, 10.0, 19.5, 30.0, 32.0, 44.5, 32.0, 1.5, 8.0, 67.5],
  ],
  // The "BBEH" row.
  [2.4, 3.0, 3.6, 4.0, 3.4, 4.5, 4.9, 8.0, 9.8, 6.0, 5.2, 6.8, 44.8],
);

const TABLE3_MODELS = TABLE2_MODELS.filter((m) => m !== "Random" && m !== "Qwen-2.5-7B-Instruct");

/**
 * Table 3: micro-average accuracy (%) on BBEH Mini (460 examples) for 11 models; the paper
 * prints no Random or Qwen-2.5-7B-Instruct column here.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(BBEH_TABLE3.values["o3-mini (high)"], 56.7);
 * ```
 */
export const BBEH_TABLE3: PublishedScoreTable = {
  source: `${BBEH_PAPER.citation}, BBEH paper (arXiv:${BBEH_PAPER.arxiv}), Table 3`,
  metric: "BBEH Mini micro average (% of the 460 examples)",
  models: TABLE3_MODELS,
  values: scoreRecord(
    TABLE3_MODELS,
    [11.5, 15.0, 13.3, 14.3, 17.4, 22.2, 27.0, 23.5, 15.4, 37.2, 56.7],
  ),
};

/**
 * Table 4 (Appendix): micro-average accuracy (%) on the full BBEH, same 13 columns as Table 2.
 * Caveat: the Qwen-2.5-7B-Instruct value (12.5) does not follow from its Table 2 row (micro
 * 12.08); it matches the arithmetic mean of the 23 task accuracies (12.47).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(BBEH_TABLE4.values["DeepSeek R1"], 34.9);
 * ```
 */
export const BBEH_TABLE4: PublishedScoreTable = {
  source: `${BBEH_PAPER.citation}, BBEH paper (arXiv:${BBEH_PAPER.arxiv}), Table 4`,
  metric: "BBEH micro average (% of the 4,520 examples)",
  models: TABLE2_MODELS,
  values: scoreRecord(
    TABLE2_MODELS,
    [8.4, 12.5, 10.6, 14.8, 11.0, 16.3, 18.8, 19.7, 23.9, 22.3, 19.2, 34.9, 54.2],
  ),
};

/** Table 10: one model's accuracy on each BBH task and on the BBEH task that replaces it. */
export interface PublishedBbhVsBbeh {
  /** Where in the paper the numbers are. */
  source: string;
  /** The model. */
  model: string;
  /** "zero-shot" for both benchmarks (Appendix B). */
  setting: string;
  /** "Old task from BBH" column, keyed by the canonical name of the BBEH task replacing it. */
  bbh: Record<string, number>;
  /** "New task in BBEH" column (equal to Table 2's column for the model). */
  bbeh: Record<string, number>;
  /**
   * The row the paper labels "BBEH". Not one metric: `bbh` (85.2) is the arithmetic mean of
   * the 23 BBH numbers above, `bbeh` (printed "23.90") is the micro average of Table 4 (the
   * harmonic mean would be 9.8).
   */
  overall: { bbh: number; bbeh: number };
}

const TABLE10_ROWS: readonly Row[] = [
  // Task in BBEH | Old task from BBH | New task in BBEH  (the paper's row order)
  ["BoardgameQA", 88.0, 42.5],
  ["Boolean Expressions", 97.6, 27.0],
  ["Causal Understanding", 65.2, 52.0],
  ["DisambiguationQA", 42.0, 48.3],
  ["Dyck Languages", 65.2, 14.0],
  ["Geometric Shapes", 73.6, 35.0],
  ["Hyperbaton", 94.8, 4.5],
  ["SARC Triples", 86.0, 37.5],
  ["Linguini", 62.8, 15.5],
  ["Movie Recommendation", 66.4, 59.5],
  ["Multistep Arithmetic", 99.6, 9.5],
  ["NYCC", 81.2, 11.0],
  ["Object Properties", 96.8, 1.5],
  ["Object Counting", 97.6, 11.0],
  ["Shuffled Objects", 100.0, 9.0],
  ["Spatial Reasoning", 97.6, 18.5],
  ["SportQA", 89.6, 23.0],
  ["Buggy Tables", 98.6, 3.5],
  ["Temporal Sequences", 98.8, 0.5],
  ["Time Arithmetic", 92.0, 48.0],
  ["Web of Lies", 94.8, 18.5],
  ["Word Sorting", 84.8, 26.0],
  ["Zebra Puzzles", 87.6, 44.5],
];

/**
 * Table 10 (Appendix B): Gemini 2.0 Flash, zero-shot, on each BBH task vs its BBEH replacement.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(BBEH_TABLE10.bbh["hyperbaton"], 94.8);
 * assert.equal(BBEH_TABLE10.overall.bbeh, 23.9);
 * ```
 */
export const BBEH_TABLE10: PublishedBbhVsBbeh = {
  source: `${BBEH_PAPER.citation}, BBEH paper (arXiv:${BBEH_PAPER.arxiv}), Table 10`,
  model: "Gemini 2.0 Flash",
  setting: "zero-shot",
  bbh: Object.fromEntries(TABLE10_ROWS.map(([d, old]) => [canonical(d), old])),
  bbeh: Object.fromEntries(TABLE10_ROWS.map(([d, , neu]) => [canonical(d), neu])),
  overall: { bbh: 85.2, bbeh: 23.9 },
};

/**
 * Numbers the paper states only in prose (Section 5.2): the harmonic mean of its
 * reasoning-specialized reference model, Gemini-2.0-Flash-Thinking-Exp-01-21, which has no
 * column in the tables.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(BBEH_TEXT_CLAIMS.thinkingReferenceHarmonicMean.value, 20.2);
 * ```
 */
export const BBEH_TEXT_CLAIMS = {
  thinkingReferenceHarmonicMean: {
    model: "Gemini-2.0-Flash-Thinking-Exp-01-21",
    value: 20.2,
    source: `${BBEH_PAPER.citation}, BBEH paper (arXiv:${BBEH_PAPER.arxiv}), Section 5.2`,
  },
} as const;
