/**
 * Write a report document as files: `report.html` (one self-contained page), `report.md`
 * (the same tables; figures as SVG files beside it, linked) and `tables/<name>.tex` (every table
 * as booktabs LaTeX). Returns the files written, relative to `dir`, sorted. The folder's old
 * `tables/` and figure files are replaced, so the output is exactly the document's.
 *
 * @example
 * ```ts
 * import { syntheticReportDocument } from "@runlens/bench/synthetic_report.ts";
 * const dir = Deno.makeTempDirSync();
 * const files = writeReport(syntheticReportDocument({ runs: 2 }), dir);
 * files.includes("report.html") && files.includes("report.md"); // true
 * Deno.removeSync(dir, { recursive: true });
 * ```
 * @module
 */
import { join } from "node:path";
import type { ReportFigure } from "../render/document.ts";
import type { ReportDocument } from "./html/document.ts";
import { renderReportMarkdown, reportLatexTables } from "./html/markdown.ts";
import { type HtmlOptions, renderReportHtml } from "./html/render.ts";

/** Write the report of `doc` under `dir` (created when missing). */
export function writeReport(doc: ReportDocument, dir: string, opts: HtmlOptions = {}): string[] {
  Deno.mkdirSync(dir, { recursive: true });
  for (const sub of ["tables", "figures"]) {
    try {
      Deno.removeSync(join(dir, sub), { recursive: true });
    } catch {
      // not there
    }
  }
  const files: string[] = [];
  const write = (name: string, text: string) => {
    Deno.mkdirSync(join(dir, name, ".."), { recursive: true });
    Deno.writeTextFileSync(join(dir, name), text);
    files.push(name);
  };
  write("report.html", renderReportHtml(doc, opts));
  const figureLink = (f: ReportFigure, id: string) => {
    const name = `figures/${id}.svg`;
    write(name, f.svg);
    return name;
  };
  write("report.md", renderReportMarkdown(doc, { figureLink }));
  for (const t of reportLatexTables(doc)) write(`tables/${t.name}.tex`, t.tex);
  return files.sort();
}
