/**
 * What to say when a generic log's names give no response, or no question and no index
 * (issue 22, review finding 8): the fields its first records hold — nested ones as dotted
 * paths, which `--map` takes — and a `--map` built from the ones whose last name says
 * response, question or target. Added to the "missing …" reason of the records such a file
 * quarantines (`missing response`, `missing task`), so that a load where every record is
 * quarantined so names the remedy instead of only counting.
 * Polars-free.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const records = [{ id: "a-1", sample: { question: "Q?", gold: "(A)" },
 *   result: { text: "So the answer is (A).", model: "m" } }];
 * assert.equal(
 *   missingFieldsHint(records, {}),
 *   "fields seen: id, sample.question, sample.gold, result.text, result.model; name the " +
 *     "response and the input with --map, e.g. --map response=result.text," +
 *     "input=sample.question,target=sample.gold",
 * );
 * ```
 * @module
 */
import { FIELD_NAMES } from "../logs/sources/fields.ts";

/** Last names of a nested field that hold a response, most likely first. */
const RESPONSE_LEAVES = [...FIELD_NAMES.response, "text", "content", "answer", "reply"];

/** How deep nested objects are listed. */
const DEPTH = 3;
/** Fields listed at most. */
const MAX_LISTED = 30;

/**
 * The hint for records whose names give no response, or no question (`input`) and no index:
 * the fields seen and a `--map` (null when the records hold no field at all, or names give
 * both). `named` is what names already give (canonical field → key): not suggested again.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const records = [{ prompt_text: "Q?", completion: "A" }];
 * assert.equal(
 *   missingFieldsHint(records, { response: "completion" }),
 *   "fields seen: prompt_text, completion; name the input with --map, e.g. --map " +
 *     "input=KEY (KEY: a field above; a nested one as a.b)",
 * );
 * assert.equal(missingFieldsHint(records, { response: "completion", example_index: "i" }), null);
 * ```
 */
export function missingFieldsHint(
  records: readonly Record<string, unknown>[],
  named: Readonly<Record<string, unknown>>,
): string | null {
  const missing = ["response", "input"].filter((f) =>
    named[f] === undefined && (f === "response" || named.example_index === undefined)
  );
  const leaves = textLeaves(records);
  if (missing.length === 0 || leaves.size === 0) return null;
  const paths = [...leaves.keys()];
  const listed = paths.slice(0, MAX_LISTED).join(", ") +
    (paths.length > MAX_LISTED ? `, … (${paths.length - MAX_LISTED} more)` : "");
  const used = new Set(Object.values(named).filter((v) => typeof v === "string"));
  const pick = (names: readonly string[]) =>
    names.map((n) => paths.find((p) => !used.has(p) && lastName(p) === n && leaves.get(p)))
      .find((p) => p !== undefined);
  const spec: string[] = [];
  const leafNames = {
    response: RESPONSE_LEAVES,
    input: FIELD_NAMES.input,
    target: FIELD_NAMES.target,
  };
  for (const [f, names] of Object.entries(leafNames)) {
    const p = named[f] === undefined ? pick(names) : undefined;
    if (p !== undefined && !spec.some((s) => s.endsWith(`=${p}`))) spec.push(`${f}=${p}`);
  }
  const found = missing.some((f) => spec.some((s) => s.startsWith(`${f}=`)));
  const example = found
    ? `e.g. --map ${spec.join(",")}`
    : `e.g. --map ${missing[0]}=KEY (KEY: a field above; a nested one as a.b)`;
  return `fields seen: ${listed}; name the ${missing.join(" and the ")} with --map, ${example}`;
}

/**
 * The hint for a CSV file whose header is one column holding `;` or a tab: it is likely
 * separated by that character, which the file's first lines did not show consistently.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.match(separatorHint(["question;answer;gold"]) ?? "", /looks like a ;-separated file/);
 * assert.equal(separatorHint(["question", "answer"]), null);
 * ```
 */
export function separatorHint(header: readonly (string | null)[]): string | null {
  if (header.length !== 1 || header[0] === null) return null;
  const sep = header[0].includes(";") ? ";" : header[0].includes("\t") ? "tab" : null;
  if (sep === null) return null;
  return `the header is one column (${header[0].slice(0, 60)}): it looks like a ${sep}-` +
    "separated file whose lines do not all have the same number of fields; save it with " +
    "commas (or tabs as .tsv), or check its quoting";
}

/** The last name of a dotted path. */
const lastName = (path: string) => path.slice(path.lastIndexOf(".") + 1).toLowerCase();

/** Dotted paths of the records' leaves → whether one holds text, in the order first met. */
function textLeaves(records: readonly Record<string, unknown>[]): Map<string, boolean> {
  const out = new Map<string, boolean>();
  const walk = (v: unknown, path: string, depth: number) => {
    if (v !== null && typeof v === "object" && !Array.isArray(v) && depth < DEPTH) {
      for (const [k, x] of Object.entries(v)) walk(x, path === "" ? k : `${path}.${k}`, depth + 1);
      return;
    }
    if (path !== "") out.set(path, (out.get(path) ?? false) || typeof v === "string");
  };
  for (const r of records) walk(r, "", 0);
  return out;
}
