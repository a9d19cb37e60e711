/**
 * Labels of figures (issue 24, item 4): no two text labels of a committed figure overlap or
 * crowd each other, none is cut off, and the boxes the check computes are the ones resvg draws
 * (its own bounds of each text, rendered alone), in every committed figure and in hand-written
 * SVGs that use what the committed ones do not (baselines, tspans, nested viewports, units).
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Resvg } from "@resvg/resvg-js";
import { REPO_ROOT } from "@runlens/core/data_dir.ts";
import { labelProblems, type Point, textBoxes } from "@runlens/render/figure/labels.ts";
import { plotDocument } from "@runlens/render/figure/dom.ts";
import { resvgFonts } from "@runlens/render/figure/png.ts";

const FIGURES = join(REPO_ROOT, "figures");
const committed = [...Deno.readDirSync(FIGURES)].map((e) => e.name)
  .filter((n) => n.endsWith(".svg")).sort();

/** The bounds resvg gives the `index`-th `<text>` of an SVG drawn alone (every other shape gone). */
function resvgTextBounds(svg: string, index: number): [number, number, number, number] | null {
  const win = plotDocument().defaultView!;
  const doc = new win.DOMParser().parseFromString(svg, "image/svg+xml");
  const target = doc.querySelectorAll("text")[index];
  const drawn = "path,rect,line,circle,ellipse,polyline,polygon,image,use,text";
  for (const el of [...doc.querySelectorAll(drawn)]) if (el !== target) el.remove();
  const alone = new win.XMLSerializer().serializeToString(doc);
  const b = new Resvg(alone, { font: resvgFonts() }).getBBox();
  return b ? [b.x, b.y, b.x + b.width, b.y + b.height] : null;
}

function bounds(points: Point[]): [number, number, number, number] {
  const xs = points.map(([x]) => x), ys = points.map(([, y]) => y);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

/** Per `<text>`: the largest distance between our bounds and resvg's, and whether it is rotated. */
function compareWithResvg(svg: string): { text: string; diff: number; rotated: boolean }[] {
  const boxes = textBoxes(svg);
  const elements = [...new Set(boxes.map((b) => b.element))];
  return elements.map((i) => {
    const lines = boxes.filter((b) => b.element === i);
    const ours = bounds(lines.flatMap((b) => b.corners));
    const theirs = resvgTextBounds(svg, i);
    const [[x0, y0], [x1, y1]] = lines[0].corners;
    const rotated = Math.abs(y1 - y0) > 1e-6 || x1 < x0;
    const text = lines.map((l) => l.text).join(" / ");
    if (!theirs) return { text, diff: Infinity, rotated };
    // a rotated box's corners reach beyond the rotated glyphs: ours must contain resvg's
    const diff = rotated
      ? Math.max(ours[0] - theirs[0], ours[1] - theirs[1], theirs[2] - ours[2], theirs[3] - ours[3])
      : Math.max(...ours.map((v, k) => Math.abs(v - theirs[k])));
    return { text, diff, rotated };
  });
}

Deno.test("no committed figure has labels that overlap, crowd each other or are cut off", () => {
  assert.ok(committed.length >= 20, `only ${committed.length} SVGs in figures/`);
  const found = committed.flatMap((name) =>
    labelProblems(Deno.readTextFileSync(join(FIGURES, name))).map((p) => `${name}: ${p.message}`)
  );
  assert.deepEqual(found, []);
});

Deno.test("the label boxes of every committed figure are where resvg draws the text", () => {
  let texts = 0, rotated = 0;
  for (const name of committed) {
    for (const t of compareWithResvg(Deno.readTextFileSync(join(FIGURES, name)))) {
      texts++, t.rotated && rotated++;
      assert.ok(
        t.diff <= 0.3,
        `${name}: "${t.text}" is ${t.diff.toFixed(2)} px off resvg's bounds`,
      );
    }
  }
  assert.ok(texts > 500, `only ${texts} texts compared`);
  assert.ok(rotated > 0, "no rotated label compared"); // the heat map's tick labels
});

const FRAME = (inner: string, space = "preserve") =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300" font-family="DejaVu Sans" ` +
  `font-size="10" xml:space="${space}">${inner}</svg>`;

/** Hand-written SVGs exercising what the check models, each compared text by text with resvg. */
const CASES: Record<string, string> = {
  anchors: FRAME(
    '<text x="200" y="20" text-anchor="start" dx="4">start + dx</text>' +
      '<text x="200" y="40" text-anchor="middle">Middle (kerned AVATAR To)</text>' +
      '<text x="200" y="60" text-anchor="end" dx="-3">end − 10 ↑ gain</text>' +
      '<g text-anchor="end"><text x="300" y="80" dy="0.32em">inherited end</text></g>',
  ),
  baselines: FRAME(
    ["middle", "central", "hanging", "text-before-edge", "mathematical", "ideographic"]
      .map((b, i) =>
        `<g dominant-baseline="${b}"><text x="20" y="${30 + 30 * i}">H ${b} g</text></g>`
      )
      .join("") + '<text x="250" y="40" alignment-baseline="middle">aligned middle</text>',
  ),
  fontSizes: FRAME(
    '<g font-size="12pt"><text x="10" y="30">12pt</text>' +
      '<text x="10" y="60" font-size="1.5em">1.5em of 12pt</text>' +
      '<text x="10" y="100" font-size="150%">150%</text></g>' +
      '<text x="10" y="140" style="font-size: 14px; font-weight: bold">bold in style</text>' +
      '<text x="10" y="170" font-style="italic">oblique DejaVu</text>' +
      '<text x="10" y="200" font-family="DejaVu Sans Mono, monospace">Mono 0123</text>' +
      '<text x="10" y="230" font-family="\'DejaVu Serif\'">Serif text</text>' +
      '<text x="200" y="230" font-family="ui-monospace, monospace">generic: resvg uses Sans</text>',
  ),
  tspans: FRAME(
    '<text x="20" y="30">A <tspan font-weight="bold">bold</tspan> word</text>' +
      '<text x="200" y="60" text-anchor="middle"><tspan x="200" dy="0">first line</tspan>' +
      '<tspan x="200" dy="1.2em">second, longer line</tspan></text>' +
      '<text x="20" y="120" dy="-0.71em" font-size="12">dy in em <tspan dx="10" ' +
      'font-size="8">small</tspan></text>' +
      '<text x="20" y="160">   collapsed    spaces   </text>',
    "default",
  ),
  viewports: FRAME(
    '<svg x="50" y="20" width="200" height="100" viewBox="0 0 100 50">' +
      '<text x="10" y="20">scaled ×2</text></svg>' +
      '<svg x="20" y="150" width="300" height="100" viewBox="0 0 300 200">' +
      '<text x="150" y="100" text-anchor="middle">meet: centred</text></svg>',
  ),
  transforms: FRAME(
    '<g transform="translate(100,100) scale(1.5)"><text>scaled</text></g>' +
      '<text transform="rotate(30, 200, 150)" x="200" y="150">rotated about a centre</text>' +
      '<g transform="matrix(0.8,-0.6,0.6,0.8,250,250)"><text text-anchor="end">matrix</text></g>' +
      '<g transform="translate(50,250) rotate(-90)"><text>up the axis</text></g>',
  ),
};

Deno.test("label boxes agree with resvg on anchors, baselines, units, tspans, viewports, transforms", () => {
  for (const [name, svg] of Object.entries(CASES)) {
    const compared = compareWithResvg(svg);
    assert.ok(compared.length >= 2, name);
    for (const t of compared) {
      assert.ok(
        t.diff <= 0.3,
        `${name}: "${t.text}" is ${t.diff.toFixed(2)} px off resvg's bounds`,
      );
    }
  }
});

Deno.test("overlapping labels are named, closer than the gap too; lines of one label are not", () => {
  const svg = FRAME(
    '<text x="10" y="20">Geometric Shapes</text><text x="60" y="24">Web of Lies</text>' +
      '<g font-size="9"><text x="200" y="20">Buggy Tables</text>' +
      '<text x="200" y="29.4">Object Properties</text></g>' +
      '<text x="10" y="100"><tspan x="10">line one</tspan><tspan x="10" dy="0.8em">line two</tspan>' +
      "</text>",
  );
  const found = labelProblems(svg);
  assert.deepEqual(found.map((p) => [p.kind, ...p.labels]), [
    ["overlap", "Geometric Shapes", "Web of Lies"],
    ["overlap", "Buggy Tables", "Object Properties"],
  ]);
  assert.ok(found[0].px > 3 && found[1].px < 0 && found[1].px > -1);
  assert.deepEqual(labelProblems(svg, { gap: 0 }).map((p) => p.labels[0]), ["Geometric Shapes"]);
});

Deno.test("rotated tick labels side by side do not collide though their upright bounds would", () => {
  const ticks = ["Gemini 2.0 Flash", "Gemini 2.0 Flash-Lite", "o3-mini (high)"]
    .map((t, i) =>
      `<g transform="translate(${
        100 + 16 * i
      },150) rotate(-60)"><text text-anchor="end">${t}</text></g>`
    ).join("");
  const boxes = textBoxes(FRAME(ticks));
  const [a, b] = boxes.map((box) => bounds(box.corners));
  assert.ok(a[2] > b[0], "the upright bounds of neighbours overlap");
  assert.deepEqual(labelProblems(FRAME(ticks)), []);
  const crowded = ticks.replaceAll("rotate(-60)", "rotate(-10)");
  const pairs = labelProblems(FRAME(crowded)).map((p) => p.labels.join(" & "));
  assert.ok(pairs.includes("Gemini 2.0 Flash & Gemini 2.0 Flash-Lite"), pairs.join("; "));
  assert.ok(pairs.includes("Gemini 2.0 Flash-Lite & o3-mini (high)"), pairs.join("; "));
});

Deno.test("a label cut off by the figure or the plot's own svg is reported; hidden text is not", () => {
  const svg = FRAME(
    '<svg x="100" y="0" width="200" height="100"><text x="-30" y="50">meta-llama__Llama</text>' +
      "</svg>" +
      '<svg x="100" y="100" width="200" height="100" overflow="visible">' +
      '<text x="-30" y="50">visible overflow</text></svg>' +
      '<text x="390" y="200">edge</text>' +
      '<text x="10" y="250" display="none">hidden</text>' +
      '<g visibility="hidden"><text x="12" y="250">also hidden</text></g>',
  );
  // how far resvg's own bounds of each text pass the edge that clips it
  const cut = [-(resvgTextBounds(svg, 0)![0] - 100), resvgTextBounds(svg, 2)![2] - 400];
  assert.deepEqual(labelProblems(svg).map((p) => [p.kind, p.labels[0], p.px.toFixed(1)]), [
    ["clipped", "meta-llama__Llama", cut[0].toFixed(1)],
    ["clipped", "edge", cut[1].toFixed(1)],
  ]);
});
