/**
 * Table writers: CSV quoting, LaTeX escaping, digits, nulls, Markdown alignment; the expected
 * strings are written by hand.
 *
 * @module
 */
import { deepStrictEqual, strictEqual } from "node:assert";
import { join } from "node:path";
import pl from "nodejs-polars";
import {
  csvTable,
  formatTable,
  latexEscape,
  latexTable,
  markdownTable,
  tableBundle,
  writeTable,
} from "@runlens/render/table.ts";
import { latexLabel } from "@runlens/render/latex/label.ts";

const ROWS = [
  { task: "dyck_languages", acc: 0.51234, n: 200, note: 'said "hi", twice' },
  { task: "100% & more", acc: null, n: 7, note: "two\nlines" },
];

Deno.test("csv: RFC 4180 quoting of commas, quotes and newlines; nulls empty; \\n endings", () => {
  strictEqual(
    csvTable(ROWS, { digits: 2 }),
    "task,acc,n,note\n" +
      'dyck_languages,0.51,200,"said ""hi"", twice"\n' +
      '100% & more,,7,"two\nlines"\n',
  );
  strictEqual(csvTable([{ "a,b": "x", c: "\r" }]), '"a,b",c\nx,"\r"\n');
});

Deno.test("digits: one number for non-integer columns, or per column; no negative zero", () => {
  const rows = [{ a: 0.125, b: -0.0001, n: 3 }, { a: 2, b: 1.5, n: 10 }];
  deepStrictEqual(formatTable(rows).rows, [["0.125", "0.000", "3"], ["2.000", "1.500", "10"]]);
  deepStrictEqual(formatTable(rows, { digits: 1 }).rows, [["0.1", "0.0", "3"], [
    "2.0",
    "1.5",
    "10",
  ]]);
  deepStrictEqual(formatTable(rows, { digits: { a: 0, n: 2 } }).rows, [
    ["0", "0.000", "3.00"],
    ["2", "1.500", "10.00"],
  ]);
  deepStrictEqual(formatTable([{ x: NaN, y: true, z: "s" }]).rows, [["NaN", "true", "s"]]);
});

Deno.test("latex: escaping of & % $ # _ { } ~ ^ \\ and | < >", () => {
  strictEqual(
    latexEscape("a_b & 50% $x# {y} ~z^ \\w"),
    "a\\_b \\& 50\\% \\$x\\# \\{y\\} \\textasciitilde{}z\\textasciicircum{} \\textbackslash{}w",
  );
  strictEqual(latexEscape("a|b <c>"), "a\\textbar{}b \\textless{}c\\textgreater{}");
});

Deno.test("latex: booktabs table with caption, label, note, right-aligned numbers, null --", () => {
  const tex = latexTable(ROWS, {
    caption: "Accuracy (%)",
    label: "tab:acc",
    note: "n_items scored",
    digits: 2,
  });
  strictEqual(
    tex,
    [
      "% Packages: booktabs",
      "% (in the preamble: \\usepackage{booktabs})",
      "\\begin{table}[htbp]",
      "\\centering",
      "\\caption{Accuracy (\\%)}",
      "\\label{tab:acc}",
      "\\begin{tabular}{@{}lrrl@{}}",
      "\\toprule",
      "task & acc & n & note \\\\",
      "\\midrule",
      "dyck\\_languages & 0.51 & 200 & said ``hi'', twice \\\\",
      "100\\% \\& more & -- & 7 & two lines \\\\",
      "\\bottomrule",
      "\\end{tabular}",
      "\\par\\smallskip{\\footnotesize\\raggedright n\\_items scored\\par}",
      "\\end{table}",
      "",
    ].join("\n"),
  );
  strictEqual(latexTable([{ a: 1 }]).includes("\\caption"), false);
});

Deno.test("latex: ASCII only — minus signs, dashes, quotes, accents, Greek; the rest as code points", () => {
  strictEqual(latexEscape("A − B = −1.5"), "A $-$ B = $-$1.5");
  strictEqual(latexEscape("-3 and x-3, [-0.5, 2]"), "$-$3 and x-3, [$-$0.5, 2]");
  strictEqual(latexEscape("a--b – c — d"), "a-{}-b -- c --- d");
  strictEqual(latexEscape('“q” ‘s’ "t" it\'s'), "``q'' `s' ``t'' it's");
  strictEqual(
    latexEscape("Café naïve Łódź straße"),
    "Caf\\'{e} na\\\"{\\i{}}ve \\L{}\\'{o}d\\'{z} stra\\ss{}e",
  );
  strictEqual(latexEscape("α ≤ 2×"), "$\\alpha$ $\\le$ 2$\\times$");
  strictEqual(latexEscape("模型 🚀"), "[U+6A21][U+578B] [U+1F680]");
  strictEqual(latexEscape("bell\u0007 zero\u200Bwidth"), "bell[U+0007] zerowidth");
  strictEqual(latexEscape("`x` ~^"), "\\`{}x\\`{} \\textasciitilde{}\\textasciicircum{}");
  const hostile = latexEscape("\\input{/etc/passwd} ½ € ﬁ \uD800");
  strictEqual(hostile, "\\textbackslash{}input\\{/etc/passwd\\} 1/2 EUR fi [U+D800]");
});

Deno.test("latex: labels of at most 40 characters, deterministic and distinct", () => {
  strictEqual(latexLabel("tab:acc"), "tab:acc");
  strictEqual(latexLabel("tab:runs summary/α"), "tab:runs-summary--");
  const a = latexLabel(`tab:pair-${"x".repeat(80)}-vs-a`);
  const b = latexLabel(`tab:pair-${"x".repeat(80)}-vs-b`);
  strictEqual(a.length, 40);
  strictEqual(a, latexLabel(`tab:pair-${"x".repeat(80)}-vs-a`));
  strictEqual(a === b, false);
  strictEqual(a.slice(0, 33), b.slice(0, 33));
});

Deno.test("latex: a table too wide wraps, folds, abbreviates or transposes — never overflows", () => {
  // Two rows of thirty tasks: tasks as rows, the runs as columns.
  const runs = ["first-run", "second-run"];
  const board = runs.map((run, i) => ({
    run,
    ...Object.fromEntries(Array.from({ length: 30 }, (_, j) => [`task_${j}`, i + j / 10])),
  }));
  const turned = latexTable(board, { digits: 1 });
  strictEqual(turned.includes(" & first-run & second-run \\\\\n"), true);
  strictEqual(turned.includes("\ntask\\_29 & 2.9 & 3.9 \\\\\n"), true);
  // A scorer on every row goes to the note; long free text wraps in a p{} column.
  const rows = [0, 1].map((i) => ({
    task: `task_${i}`,
    scorer: "bbeh-official",
    response: "word ".repeat(80 + i),
  }));
  const wrapped = latexTable(rows);
  strictEqual(wrapped.includes("Same on every row: scorer = bbeh-official."), true);
  strictEqual(/p\{[\d.]+pt\}/.test(wrapped), true);
  strictEqual(wrapped.startsWith("% Packages: booktabs, array\n"), true);
  // Long run names become R1, R2 with a legend when the table needs the room.
  const names = [0, 1, 2].map((i) =>
    `organisation__model-name-${i}-instruct,dtype=bfloat16,revision=main`
  );
  const coded = latexTable(names.map((run, i) => ({
    run,
    ...Object.fromEntries(Array.from({ length: 8 }, (_, j) => [`metric_${j}`, i * j + 0.5])),
  })));
  const legend = coded.replaceAll("\\allowbreak{}", ""); // long words may break anywhere
  strictEqual(legend.includes("Runs: R1 = organisation\\_\\_model-name-0-instruct"), true);
  strictEqual(/^R2 & /m.test(coded), true);
  // More than a page of rows: a longtable.
  const long = latexTable(Array.from({ length: 120 }, (_, i) => ({ i, x: i / 3 })));
  strictEqual(long.includes("\\begin{longtable}"), true);
  strictEqual(long.includes("longtable"), long.startsWith("% Packages: booktabs, longtable\n"));
});

Deno.test("markdown: padded pipe table, numbers right-aligned, caption above, note below", () => {
  strictEqual(
    markdownTable(ROWS, { caption: "Accuracy", note: "Note: n items.", digits: 2 }),
    [
      "Accuracy",
      "",
      "| task           |  acc |   n | note             |",
      "| :------------- | ---: | --: | :--------------- |",
      '| dyck_languages | 0.51 | 200 | said "hi", twice |',
      "| 100% & more    |    – |   7 | two<br>lines     |",
      "",
      "Note: n items.",
      "",
    ].join("\n"),
  );
  strictEqual(
    markdownTable([{ m: "a|b", x: 1 }]),
    "| m    |   x |\n| :--- | --: |\n| a\\|b |   1 |\n",
  );
});

Deno.test("polars DataFrame: dtypes decide integer vs float columns", () => {
  const df = pl.DataFrame({ m: ["a", "b"], x: [1, 2.5], k: [3, 4] })
    .withColumns(pl.col("k").cast(pl.Int64));
  strictEqual(csvTable(df), "m,x,k\na,1.000,3\nb,2.500,4\n");
  strictEqual(
    markdownTable(df, { digits: 1 }),
    "| m   |   x |   k |\n| :-- | --: | --: |\n| a   | 1.0 |   3 |\n| b   | 2.5 |   4 |\n",
  );
  // A float column whose values are all whole numbers still gets digits.
  strictEqual(
    csvTable(pl.DataFrame({ x: [1, 2] }).withColumns(pl.col("x").cast(pl.Float64))),
    [
      "x",
      "1.000",
      "2.000",
      "",
    ].join("\n"),
  );
});

Deno.test("writeTable writes .csv/.md/.tex; tableBundle displays in notebooks", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const opts = { caption: "C", label: "tab:c", digits: 2 };
    const paths = writeTable(ROWS, join(dir, "sub"), "acc", opts);
    deepStrictEqual(paths, {
      csv: join(dir, "sub", "acc.csv"),
      md: join(dir, "sub", "acc.md"),
      tex: join(dir, "sub", "acc.tex"),
    });
    strictEqual(Deno.readTextFileSync(paths.csv), csvTable(ROWS, opts));
    strictEqual(Deno.readTextFileSync(paths.md), markdownTable(ROWS, opts));
    strictEqual(Deno.readTextFileSync(paths.tex), latexTable(ROWS, opts));
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
  const bundle = tableBundle([{ a: "<b>", x: 0.5 }], { digits: 1 });
  const mime = (bundle as unknown as Record<symbol, () => Record<string, string>>)[
    Symbol.for("Jupyter.display")
  ]();
  deepStrictEqual(Object.keys(mime), ["text/html", "text/markdown", "text/plain"]);
  strictEqual(mime["text/markdown"], "| a   |   x |\n| :-- | --: |\n| <b> | 0.5 |\n");
  strictEqual(mime["text/html"].includes("<td>&lt;b&gt;</td>"), true);
  strictEqual(mime["text/html"].includes('<td style="text-align: right">0.5</td>'), true);
});
