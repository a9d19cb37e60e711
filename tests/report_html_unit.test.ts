/**
 * The report document, its example payload and the HTML/Markdown/LaTeX renderers, without a
 * browser (see report_html_browser.test.ts for the page in Chromium).
 */
import assert from "node:assert/strict";
import { gunzipSync } from "node:zlib";
import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import type { ReportFigure } from "@runlens/render/document.ts";
import { type ReportDocument, validateReportDocument } from "@runlens/report/html/document.ts";
import { examplePayload, jsonScriptText, payloadBlocks } from "@runlens/report/html/examples.ts";
import { inlineSvg, renderReportHtml } from "@runlens/report/html/render.ts";
import { renderReportMarkdown, reportLatexTables } from "@runlens/report/html/markdown.ts";
import { syntheticReportDocument } from "@runlens/bench/synthetic_report.ts";

const XSS =
  `<script>alert(1)</script> </script><img src=x onerror=alert(2)> <!-- \u2028 \u2029 &amp;`;

/** A small synthetic document (3 runs × 120 invented examples, no figures), cloned per test. */
function smallDoc(): ReportDocument {
  return structuredClone(
    syntheticReportDocument({ runs: 3, examplesPerRun: 120, seed: 5, figures: false }),
  );
}

Deno.test("validateReportDocument accepts the synthetic document and lists every problem", () => {
  const doc = smallDoc();
  assert.equal(validateReportDocument(doc), doc);
  doc.analyses[0].items.push({
    kind: "table",
    title: "Bad",
    columns: [{ label: "a" }, { label: "a" }],
    rows: [[1]],
  });
  doc.examples.rows.push({ ...doc.examples.rows[0], example_index: 99999 });
  doc.examples.rows.push({ ...doc.examples.rows[1] });
  doc.runs[0].rows_in += 1;
  assert.throws(() => validateReportDocument(doc), (e: Error) => {
    for (
      const part of [
        'duplicate column "a"',
        "row 0 has 1 cells, expected 2",
        "no question bbeh/",
        "duplicate (synthetic-model-01",
        "rows_in",
      ]
    ) assert.ok(e.message.includes(part), `${part} in ${e.message}`);
    return true;
  });
});

Deno.test("validateReportDocument refuses SVG that could run code or load anything", () => {
  const fig = (svg: string): ReportFigure => ({ kind: "figure", title: "F", svg });
  const ok = [
    `<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><rect/></svg>`,
    `<svg><clipPath id="c"/><g clip-path="url(#c)"/><use href="#c"/></svg>`,
    `<svg><image xlink:href="data:image/png;base64,iVBORw0KGgo="/></svg>`,
  ];
  const bad = [
    `<svg><script>alert(1)</script></svg>`,
    `<svg onload="alert(1)"><rect/></svg>`,
    `<svg><a href="javascript:alert(1)"><text>x</text></a></svg>`,
    `<svg><image href="https://example.org/x.png"/></svg>`,
    `<svg><rect fill="url(https://example.org/p)"/></svg>`,
    `<svg><foreignObject><div/></foreignObject></svg>`,
    `<svg><style>@import "x.css";</style></svg>`,
    `<div>not svg</div>`,
  ];
  for (const svg of ok) {
    const doc = smallDoc();
    doc.analyses[0].items.push(fig(svg));
    validateReportDocument(doc);
  }
  for (const svg of bad) {
    const doc = smallDoc();
    doc.analyses[0].items.push(fig(svg));
    assert.throws(() => validateReportDocument(doc), /figure "F"/, svg);
  }
});

Deno.test("jsonScriptText: nothing can close the script block; JSON.parse gives the value back", () => {
  const value = { s: XSS, t: ["</SCRIPT >", "<!--<script>"] };
  const text = jsonScriptText(value);
  assert.ok(!text.includes("<"));
  assert.ok(!text.includes("\u2028") && !text.includes("\u2029"));
  assert.deepEqual(JSON.parse(text), value);
});

Deno.test("examplePayload stores each question once and keeps every row when under budget", () => {
  const doc = smallDoc();
  const p = examplePayload(doc.examples);
  assert.equal(p.sample, null);
  assert.equal(p.run.length, doc.examples.rows.length);
  assert.equal(p.q_text.length, 120); // 3 runs share 120 questions
  doc.examples.rows.forEach((r, i) => {
    assert.equal(p.runs[p.run[i]], r.run);
    assert.equal(p.tasks[p.q_task[p.q[i]]][1], r.task);
    assert.equal(p.q_index[p.q[i]], r.example_index);
    assert.equal(p.correct[i], r.verdict === "correct" ? 1 : 0);
    assert.equal(p.targets[p.target[i]], r.target);
    assert.equal(p.extracted[i], r.extracted);
    assert.equal(p.response[i], r.response);
    assert.equal(p.subset[i] === -1 ? null : p.subsets[p.subset[i]], r.subset);
    assert.equal(p.failure[i] === -1 ? null : p.failures[p.failure[i]], r.failure);
    assert.equal(p.disagree[i] === -1 ? null : p.disagree[i] === 1, r.disagreement);
  });
});

Deno.test("examplePayload samples whole examples, deterministically, within the budget", () => {
  const doc = smallDoc();
  const total = doc.examples.rows.reduce((s, r) => s + r.response.length, 0);
  const budget = Math.floor(total / 3);
  const a = examplePayload(doc.examples, { budgetChars: budget });
  const b = examplePayload(doc.examples, { budgetChars: budget });
  assert.deepEqual(a, b);
  const s = a.sample!;
  assert.ok(s !== null);
  assert.equal(s.rows_total, doc.examples.rows.length);
  assert.equal(s.rows_kept, a.run.length);
  assert.equal(s.response_chars_total, total);
  assert.ok(s.response_chars_kept <= budget && s.response_chars_kept > budget * 0.8);
  assert.equal(a.response.reduce((n, r) => n + r.length, 0), s.response_chars_kept);
  // Whole examples: every kept question has one row per run.
  assert.equal(a.run.length, 3 * a.q_text.length);
  assert.equal(s.examples_kept, a.q_text.length);
  // Another seed samples other examples.
  const c = examplePayload(doc.examples, { budgetChars: budget, seed: 2 });
  assert.notDeepEqual(c.q_text, a.q_text);
});

Deno.test("payloadBlocks: texts as JSON or deterministic gzip+base64 of the same JSON", () => {
  const doc = smallDoc();
  doc.examples.rows[0].response = XSS;
  const p = examplePayload(doc.examples);
  const plain = payloadBlocks(p, "json");
  const gz = payloadBlocks(p, "gzip-base64");
  assert.equal(plain.encoding, "json");
  assert.equal(gz.encoding, "gzip-base64");
  assert.equal(plain.index, gz.index);
  assert.equal(gunzipSync(Buffer.from(gz.texts, "base64")).toString("utf8"), plain.texts);
  assert.equal(payloadBlocks(p, "gzip-base64").texts, gz.texts);
  assert.match(gz.texts, /^[A-Za-z0-9+/]+=*$/);
  const index = JSON.parse(plain.index);
  assert.equal(index.q_text, undefined);
  assert.equal(index.response, undefined);
  assert.equal(JSON.parse(plain.texts).response[0], XSS);
  assert.equal(payloadBlocks(p, "auto").encoding, "json"); // small
});

Deno.test("renderReportHtml is deterministic and self-contained, with the script allowed by hash", () => {
  const doc = syntheticReportDocument({ runs: 3, examplesPerRun: 90, seed: 9 });
  doc.examples.rows[4].response = XSS;
  doc.examples.rows[5].extracted = "<b>bold</b>";
  const html = renderReportHtml(doc);
  assert.equal(renderReportHtml(structuredClone(doc)), html);
  assert.ok(html.startsWith('<!DOCTYPE html>\n<html lang="en">'));
  // No reference leaves the file: no src/href/url() to anything but #fragments and data:image.
  const refs = [...html.matchAll(/\b(?:src|href)\s*=\s*["']([^"']*)["']|url\(\s*["']?([^)"']*)/g)]
    .map((m) => m[1] ?? m[2]);
  assert.ok(refs.length > 0);
  for (const r of refs) assert.match(r, /^(#|data:image\/png;base64,)/, r);
  // Data is never markup: the XSS strings appear only escaped.
  assert.ok(!html.includes("<script>alert(1)"));
  assert.ok(!html.includes("<img src=x"));
  assert.ok(!html.includes("<b>bold</b>"));
  assert.equal((html.match(/<script\b/g) ?? []).length, 3); // index, texts, page script
  // The CSP allows exactly the page script, by its sha256.
  const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)![1];
  assert.match(csp, /default-src 'none'/);
  const script = /<script>([\s\S]*?)<\/script>\n<\/body>/.exec(html)![1];
  const hash = createHash("sha256").update(script).digest("base64");
  assert.ok(csp.includes(`script-src 'sha256-${hash}'`), csp);
  assert.ok(!csp.includes("unsafe-inline'; script") && !/script-src[^;]*unsafe/.test(csp));
  // Table of contents points at sections that exist.
  const toc = /<nav class="toc"[\s\S]*?<\/nav>/.exec(html)![0];
  for (const [, id] of toc.matchAll(/href="#([^"]+)"/g)) assert.ok(html.includes(`id="${id}"`), id);
  // Every figure is inlined with an accessible name.
  assert.equal((html.match(/<svg role="img" aria-label=/g) ?? []).length, 2);
  // No wall-clock date unless given.
  assert.ok(!/\b20\d\d-\d\d-\d\d\b/.test(html.replace(/\d{8}/g, "")));
  const dated = renderReportHtml({ ...doc, provenance: { ...doc.provenance, date: "2026-11-02" } });
  assert.ok(dated.includes("2026-11-02"));
});

Deno.test("renderReportHtml says on the page when it sampled, and how", () => {
  const doc = smallDoc();
  const total = doc.examples.rows.reduce((s, r) => s + r.response.length, 0);
  const html = renderReportHtml(doc, { budgetChars: Math.floor(total / 4) });
  const note = /<p class="notice" id="ex-sample-note"[\s\S]*?<\/p>/.exec(html)?.[0];
  assert.ok(note, "sample note");
  assert.match(note, /Sampled:/);
  assert.match(note, /of 360 rows/);
  assert.match(note, /seeded FNV-1a hash/);
  assert.ok(!renderReportHtml(doc).includes("ex-sample-note"));
});

Deno.test("inlineSvg prefixes ids and their references so figures cannot clash", () => {
  const svg =
    `<?xml version="1.0"?><!-- c --><svg width="1"><defs><clipPath id="clip1"><rect/></clipPath>` +
    `<linearGradient id="g"/></defs><g clip-path="url(#clip1)" fill="url('#g')"><use xlink:href="#clip1"/></g></svg>`;
  assert.equal(
    inlineSvg(svg, "f2-", `A "fig" <1>`),
    `<svg role="img" aria-label="A &quot;fig&quot; &lt;1&gt;" width="1"><defs><clipPath id="f2-clip1"><rect/></clipPath>` +
      `<linearGradient id="f2-g"/></defs><g clip-path="url(#f2-clip1)" fill="url('#f2-g')"><use xlink:href="#f2-clip1"/></g></svg>`,
  );
});

Deno.test("renderReportMarkdown has the page's tables, escapes untrusted text, is deterministic", () => {
  const doc = smallDoc();
  doc.runs[0].run = "<img src=x> run|1";
  const md = renderReportMarkdown(doc);
  assert.equal(renderReportMarkdown(structuredClone(doc)), md);
  for (
    const h of [
      "# runlens report (synthetic data)",
      "## Runs",
      "## Leaderboard",
      "## Paired comparisons",
      "### Paired differences, overall",
      "### synthetic-model-01 vs synthetic-model-02 by task",
      "## Analyses",
      "### Failure classes",
      "## Examples",
      "## Provenance",
    ]
  ) assert.ok(md.includes(`\n${h}\n`) || md.startsWith(`${h}\n`), h);
  assert.ok(md.includes("&lt;img src=x&gt; run\\|1"));
  assert.ok(!md.includes("<img"));
  assert.match(md, /\| synthetic-model-02 \| +120 \| +1 \|/); // rows by run
  const linked = renderReportMarkdown(
    syntheticReportDocument({ runs: 2, examplesPerRun: 30, seed: 3 }),
    { figureLink: (_f, id) => `figures/${id}.svg` },
  );
  assert.match(linked, /!\[Leaderboard with error bars\]\(figures\/leaderboard-figure\.svg\)/);
});

Deno.test("reportLatexTables writes every table as booktabs LaTeX with unique names", () => {
  const doc = smallDoc();
  const tables = reportLatexTables(doc);
  const names = tables.map((t) => t.name);
  assert.equal(new Set(names).size, names.length);
  assert.deepEqual(names.slice(0, 4), [
    "runs-summary",
    "run-codes",
    "leaderboard-tasks",
    "comparisons-overall",
  ]);
  // 3 runs: 3 pairs, each with a per-task table named by the runs' codes; one analysis table.
  assert.equal(tables.length, 1 + 1 + 1 + 1 + 3 + 1);
  const pairs = names.filter((n) => n.startsWith("pair-"));
  assert.deepEqual(pairs.map((n) => n.replace(/-[a-z]+$/, "")), [
    "pair-r1-vs-r2",
    "pair-r1-vs-r3",
    "pair-r2-vs-r3",
  ]);
  for (const t of tables) {
    assert.match(t.tex, /\\toprule[\s\S]*\\midrule[\s\S]*\\bottomrule/);
    assert.ok(t.tex.includes(`\\label{tab:${t.name}}`));
  }
});
