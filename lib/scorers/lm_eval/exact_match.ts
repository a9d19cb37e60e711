/**
 * lm-evaluation-harness's `exact_match` metric (`exact_match_hf_evaluate` in
 * `lm_eval/api/metrics.py`, ported from HF `evaluate`), with the option sets tasks use; so far
 * those of the BBH tasks:
 *
 * - `bbh_cot_fewshot` (`lm_eval/tasks/bbh/cot_fewshot/_cot_fewshot_template_yaml`): no options,
 *   so a plain equality;
 * - `bbh_cot_zeroshot` (`lm_eval/tasks/bbh/cot_zeroshot/_cot_zeroshot_template_yaml`, commit
 *   dea7c92): `ignore_case: true` and `regexes_to_ignore: ["\\.$", ",", "\\\\", "\n", '"']`,
 *   applied with `re.sub` to the prediction AND the reference, in that order, then lower-cased.
 *
 * Python's `\.$` also matches a "." just before a final "\n". The comparison is numpy's on
 * fixed-width unicode arrays, which cannot see trailing NUL characters: they are ignored.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lmEvalZeroshotNormalize } from "@runlens/scorers/lm_eval/exact_match.ts";
 * assert.equal(lmEvalZeroshotNormalize('"Yes".'), "yes");
 * ```
 * @module
 */

/**
 * `regexes_to_ignore` + `ignore_case` of the cot_zeroshot template, then numpy's blindness to
 * trailing NULs.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(lmEvalZeroshotNormalize("1,000.\n"), "1000"); // "." before a final "\n" goes too
 * ```
 */
export function lmEvalZeroshotNormalize(s: string): string {
  return s.replace(/\.(\n?)$/u, "$1").replaceAll(",", "").replaceAll("\\", "")
    .replaceAll("\n", "").replaceAll('"', "").toLowerCase().replace(/\0+$/u, "");
}

/**
 * Plain numpy string equality (trailing NULs ignored): the cot_fewshot metric.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(lmEvalPlainEqual("(A)", "(A)\0"), true); // trailing NULs are invisible
 * assert.equal(lmEvalPlainEqual("(a)", "(A)"), false);
 * ```
 */
export function lmEvalPlainEqual(prediction: string, reference: string): boolean {
  return prediction.replace(/\0+$/u, "") === reference.replace(/\0+$/u, "");
}

/**
 * {@link lmEvalZeroshotNormalize} equality: the cot_zeroshot metric.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(lmEvalZeroshotEqual("YES.", "Yes"), true);
 * ```
 */
export function lmEvalZeroshotEqual(prediction: string, reference: string): boolean {
  return lmEvalZeroshotNormalize(prediction) === lmEvalZeroshotNormalize(reference);
}
