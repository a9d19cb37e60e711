/**
 * How to tell the subsets inside BBEH tasks apart: one declarative rule per (task, kind).
 *
 * The release has no subset field (apart from `subtask: "tree/cousin"` on 29 spatial items), so
 * labels come from the question text, the target, or the position in task.json, following the
 * BBEH paper (Kazemi et al. 2025, Appendix A) and the project notes ("Subsets inside tasks").
 * Patterns are polars (Rust) regular expressions; a text rule's patterns must be mutually
 * exclusive, and without an `otherwise` label exactly one of them must match every example
 * ({@link bbehSubsets} checks both). BoardgameQA depth is not recoverable from the text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SUBSET_RULES, subsetRule } from "@runlens/benchmarks/bbeh/subsets/rules.ts";
 * import { ruleLabels } from "@runlens/benchmarks/bbeh/subsets/rules.ts";
 * assert.equal(ruleLabels(subsetRule("spatial_reasoning", "direction")).length, 2);
 * assert.equal(SUBSET_RULES.length, 13);
 * ```
 * @module
 */

/** A rule that reads the label from the question text or from the target. */
export interface TextSubsetRule {
  task: string;
  kind: string;
  /** Column the patterns are matched against. */
  source: "input" | "target";
  /** `[label, pattern]` pairs; at most one pattern may match an example. */
  patterns: readonly (readonly [label: string, pattern: string])[];
  /** Label for examples no pattern matches; without it every example must match one. */
  otherwise?: string;
  /** How the label is recognised, for documentation. */
  how: string;
}

/** A rule that reads the label from the position: consecutive blocks of `blockSize` examples. */
export interface BlockSubsetRule {
  task: string;
  kind: string;
  source: "position";
  blockSize: number;
  /** Label of block 0, 1, … in file order. */
  blocks: readonly string[];
  how: string;
}

/** One (task, subset kind) rule. */
export type SubsetRule = TextSubsetRule | BlockSubsetRule;

/** All labels of a rule, in their documented order. */
export function ruleLabels(rule: SubsetRule): string[] {
  if (rule.source === "position") return [...rule.blocks];
  const labels = rule.patterns.map(([label]) => label);
  return rule.otherwise ? [...labels, rule.otherwise] : labels;
}

const THE_TABLE_WAS = "The table was";
const CODE_WAS_BUGGY = "However, the code to (?:convert|save) the table [^.]*?was buggy and";

/** The rules, in task order; tasks with several kinds have several rules. */
export const SUBSET_RULES: readonly SubsetRule[] = [
  {
    task: "buggy_tables",
    kind: "bug",
    source: "input",
    patterns: [
      ["null_values_dropped", `${CODE_WAS_BUGGY} failed to save the null values`],
      ["error_values", `${CODE_WAS_BUGGY} mistakenly replaced some values with "ERROR"`],
      ["merged_rows", `${CODE_WAS_BUGGY} mistakenly merged every two rows`],
      ["rows_rotated", `${CODE_WAS_BUGGY}[^.]*the values in the i-th row were rotated`],
      ["columns_rotated", `${CODE_WAS_BUGGY}[^.]*the values in the i-th column were rotated`],
      [
        "random_values_appended_to_columns",
        `${CODE_WAS_BUGGY} after saving each column, it appe\\w+ some random values`,
      ],
      [
        "random_values_appended_to_rows",
        `${CODE_WAS_BUGGY} after saving each row, it appe\\w+ some random values`,
      ],
    ],
    how: 'the bug sentence "However, the code … was buggy and …"',
  },
  {
    task: "buggy_tables",
    kind: "format",
    source: "input",
    patterns: [
      ["markdown", `${THE_TABLE_WAS} converted to markdown format`],
      ["row_major", `${THE_TABLE_WAS} saved in a row-major format`],
      ["column_major", `${THE_TABLE_WAS} saved in a column-major format`],
    ],
    how: '"The table was converted to markdown / saved in a row-major / column-major format"',
  },
  {
    task: "causal_understanding",
    kind: "variant",
    source: "input",
    patterns: [
      ["causal_judgement", "based on the answer the majority of people would give"],
      ["necessary", "a necessary cause"],
      // index 197 spells it "sufficeint"
      ["sufficient", "a suffic\\w* cause"],
    ],
    how:
      'instruction "majority of people" (MoCa causal judgement) vs "a necessary/sufficient cause"',
  },
  {
    task: "geometric_shapes",
    kind: "intersect_breaks",
    source: "position",
    blockSize: 50,
    blocks: [
      "no_intersect/few_breaks",
      "no_intersect/many_breaks",
      "intersect/few_breaks",
      "intersect/many_breaks",
    ],
    how: "blocks of 50 in file order (checked against the SVG geometry: subsets/geometry.ts)",
  },
  {
    task: "object_counting",
    kind: "variant",
    source: "input",
    patterns: [
      ["sum", "What is the sum of the total number of"],
      ["absolute_difference", "What is the absolute difference of the total number of"],
    ],
    how: 'question "What is the sum of …" vs "What is the absolute difference of …"',
  },
  {
    task: "object_properties",
    kind: "variant",
    source: "input",
    patterns: [
      ["either", "have the following attributes: either "],
      ["neither", "have the following attributes: [a-z]+ is not "],
    ],
    how: 'question "either color is …, or …" vs "color is not …, and … is not …" (neither)',
  },
  {
    task: "shuffled_objects",
    kind: "variant",
    source: "input",
    patterns: [["named_actions", "\\(let's call it Action \\d+\\)"]],
    otherwise: "no_op_switches",
    how:
      'named switches "(let\'s call it Action k)" … "Action k repeats"; else no-op switches only',
  },
  {
    task: "spatial_reasoning",
    kind: "direction",
    source: "input",
    patterns: [["backward", "you jump to a random vertex"]],
    otherwise: "forward",
    how: 'backward items jump to "a random vertex V" and must be reasoned back to',
  },
  {
    task: "spatial_reasoning",
    kind: "shape",
    source: "input",
    patterns: [
      ["circular", "^You have been given a circular (?:path|grid)"],
      ["hexagonal", "^You have been given a pointy-topped regular hexagonal tile map"],
      ["rhombus", "^You have been given a 3 by 3 pointy-topped regular rhombus tile map"],
      ["triangular", "^You have been given an equilateral triangular tile map"],
      ["diamond", "^You have been given a diamond tile map"],
      ["tree", "^You have been given a tree structure"],
    ],
    how: 'the first sentence "You have been given a <shape> …"',
  },
  {
    task: "time_arithmetic",
    kind: "answer_kind",
    source: "target",
    patterns: [
      ["unanswerable", "^unanswerable$"],
      ["list", "^\\[.*\\]$"],
    ],
    otherwise: "other",
    how: 'target "unanswerable", a list "[…]", or anything else',
  },
  {
    task: "web_of_lies",
    kind: "variant",
    source: "input",
    patterns: [
      ["livebench", " is at the "],
      ["cyclic", "\\bunknown\\b"],
    ],
    how: 'LiveBench items place people ("X is at the …"); the new cyclic ones allow "unknown"',
  },
  {
    task: "word_sorting",
    kind: "variant",
    source: "input",
    patterns: [
      ["mistake_finding", "Is there a mistake in this sequence"],
      ["new_alphabet_sorting", "^Consider a new alphabet"],
    ],
    how:
      'BIG-Bench Mistake traces ("Is there a mistake in this sequence") vs "Consider a new alphabet"',
  },
  {
    task: "zebra_puzzles",
    kind: "size",
    source: "input",
    patterns: [
      ["5x5", "^There are 5 people"],
      ["6x6", "^There are 6 people"],
      ["7x7", "^There are 7 people"],
      ["8x8", "^There are 8 people"],
    ],
    how: '"There are N people" (distractor clues for 5–7 only)',
  },
];

/** The rule for a task and kind; throws listing the known ones otherwise. */
export function subsetRule(task: string, kind: string): SubsetRule {
  const rule = SUBSET_RULES.find((r) => r.task === task && r.kind === kind);
  if (!rule) {
    const known = SUBSET_RULES.map((r) => `${r.task}/${r.kind}`).join(", ");
    throw new Error(`no subset rule for ${task}/${kind}; known: ${known}`);
  }
  return rule;
}
