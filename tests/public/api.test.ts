/**
 * The public surface of runlens, reviewed: every entry of deno.json's `exports` (tests/public/
 * _entries.ts).
 *
 * - What each entry exports (`deno doc --json`, sorted, with each name's kind; a benchmark
 *   namespace with its members) equals tests/public/api.txt. An API change that nobody
 *   reviewed fails here; the diff of api.txt is the review. Regenerate it with
 *   deno test --allow-all tests/public/api.test.ts -- --update
 * - `deno doc --lint` of each entry: JSDoc on every export and member, explicit types, and no
 *   exported type that refers to a private one (which is what keeps internal files private).
 *   Its findings are only those counted in tests/public/doc_lint_allowed.txt (per file and
 *   rule), which only shrinks: a file with fewer findings must lower its count. Types of other packages
 *   (nodejs-polars' `DataFrame`) are not findings (denoland/deno#27364).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { docLint, entries, exportedNames, foreignTypeRef, libSource, REPO } from "./_entries.ts";

const UPDATE = "deno test --allow-all tests/public/api.test.ts -- --update";
const API = join(REPO, "tests/public/api.txt");
const LINT_ALLOWED = join(REPO, "tests/public/doc_lint_allowed.txt");

/** api.txt's text: per entry a `runlens/x (lib/x.ts)` line, then its names indented. */
function apiText(): string {
  return entries().map((e) =>
    [`${e.name} (${e.file})`, ...exportedNames(e.file).map((n) => `  ${n}`)].join("\n") + "\n"
  ).join("\n");
}

/** Every finding of `deno doc --lint` over all entries, once each: `file:line: rule: message`. */
function lintFindings(): string[] {
  const src = libSource();
  const problems = docLint(entries().map((e) => e.file)).filter((p) => !foreignTypeRef(p, src));
  return [...new Set(problems.map((p) => `${p.at}: ${p.rule}: ${p.message}`))].sort();
}

/**
 * Findings counted by file and rule (`<file> <rule>` → count): line numbers move with every
 * edit, the count of a file's findings only when its documentation changes.
 */
function countByFile(findings: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const f of findings) {
    const [at, rule] = f.split(": ");
    const key = `${at.replace(/:\d+:\d+$/, "")} ${rule}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** doc_lint_allowed.txt: `<count> <file> <rule>` lines. */
function readAllowed(): Map<string, number> {
  const lines = Deno.readTextFileSync(LINT_ALLOWED).split("\n");
  return new Map(
    lines.filter((l) => /^\d+ /.test(l)).map((l) => {
      const [n, ...key] = l.split(" ");
      return [key.join(" "), Number(n)];
    }),
  );
}

const generated = apiText();
const findings = lintFindings();
const found = countByFile(findings);
if (Deno.args.includes("--update")) {
  Deno.writeTextFileSync(API, generated);
  // the allowed findings only shrink: an update lowers counts, never raises or adds one
  const allowed = readAllowed();
  const kept = [...allowed].map(([key, n]) => [key, Math.min(n, found.get(key) ?? 0)] as const)
    .filter(([, n]) => n > 0);
  Deno.writeTextFileSync(
    LINT_ALLOWED,
    [
      "# deno doc --lint findings of the public entries not fixed yet, by file and rule (count,",
      "# file, rule). The list only shrinks: `-- --update` lowers the counts of fixed files.",
      ...kept.map(([key, n]) => `${n} ${key}`),
    ].join("\n") + "\n",
  );
}

Deno.test(`tests/public/api.txt is what the entries export (else review and: ${UPDATE})`, () => {
  const committed = Deno.readTextFileSync(API);
  if (committed === generated) return;
  const [was, is] = [new Set(committed.split("\n")), new Set(generated.split("\n"))];
  const added = [...is].filter((l) => !was.has(l));
  const removed = [...was].filter((l) => !is.has(l));
  assert.fail(`the public API changed:\n+ ${added.join("\n+ ")}\n- ${removed.join("\n- ")}`);
});

Deno.test("api.txt: each entry exports something, and no name of the union is lost", () => {
  const all = entries();
  for (const e of all) assert.ok(exportedNames(e.file).length > 0, `${e.name} exports nothing`);
  const topLevel = (file: string) => exportedNames(file).filter((n) => !/^\S*\./.test(n));
  const union = new Set(topLevel("lib/mod.ts"));
  const parts = all.filter((e) => e.file !== "lib/mod.ts").flatMap((e) => topLevel(e.file));
  assert.deepEqual(
    parts.filter((n) => !union.has(n)),
    [],
    "names of an entry missing from runlens",
  );
});

Deno.test("deno doc --lint: the entries' findings are only the listed ones, which shrink", () => {
  const allowed = readAllowed();
  const over = [...found].filter(([key, n]) => n > (allowed.get(key) ?? 0)).map(([key]) => key);
  assert.deepEqual(
    findings.filter((f) => over.includes([...countByFile([f]).keys()][0])),
    [],
    "new deno doc --lint findings (document the symbol; export the type it refers to)",
  );
  const fewer = [...allowed].filter(([key, n]) => (found.get(key) ?? 0) < n).map(([k]) => k);
  assert.deepEqual(fewer, [], `fixed findings still counted in doc_lint_allowed.txt: ${UPDATE}`);
});

Deno.test("deno doc --lint finds a missing JSDoc and a private type in a planted entry", () => {
  const dir = Deno.makeTempDirSync({ dir: join(REPO, ".runlens") });
  try {
    const file = join(dir, "entry.ts");
    Deno.writeTextFileSync(
      file,
      "/** A module. @module */\ninterface Hidden {\n  x: number;\n}\n" +
        "/** Public. */\nexport function f(): Hidden {\n  return { x: 1 };\n}\n" +
        "export const g = 1;\n",
    );
    const rules = docLint([file]).map((p) => p.rule).sort();
    assert.deepEqual(rules, ["missing-jsdoc", "private-type-ref"]);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
