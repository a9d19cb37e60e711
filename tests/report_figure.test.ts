/**
 * Figure output: Plot figures (title + swatch legend, continuous ramp legend, bare svg) become
 * standalone, well-formed, deterministic SVGs, and PNGs of the expected size.
 *
 * @module
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert";
import { join } from "node:path";
import * as Plot from "@observablehq/plot";
import { JSDOM } from "jsdom";
import {
  figureBundle,
  fontFiles,
  plotDocument,
  saveFigure,
  svgToPng,
  toStandaloneSvg,
} from "@runlens/render/figure.ts";

const DATA = [
  { model: "model-a", task: "boolean expressions", acc: 0.61 },
  { model: "model-b", task: "boolean expressions", acc: 0.72 },
  { model: "model-a", task: "dyck languages", acc: 0.33 },
  { model: "model-c", task: "dyck languages", acc: 0.21 },
];

function barChart(): Element {
  return Plot.plot({
    document: plotDocument(),
    title: "Accuracy by model & task",
    subtitle: "toy data",
    caption: "Figure 1. <not html>",
    color: { legend: true },
    y: { domain: [0, 1], grid: true },
    clip: true, // clip ids come from a global counter in Plot
    marks: [Plot.barY(DATA, { x: "model", y: "acc", fill: "task" }), Plot.ruleY([0])],
  });
}

function rampChart(): Element {
  return Plot.plot({
    document: plotDocument(),
    title: "Continuous legend",
    color: { legend: true, type: "linear", label: "accuracy" },
    marks: [Plot.dot(DATA, { x: "model", y: "acc", fill: "acc", r: 6 })],
  });
}

/** Parse as XML (throws on malformed input) and return the root element. */
function parseXml(svg: string): Element {
  return new JSDOM(svg, { contentType: "image/svg+xml" }).window.document.documentElement;
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(png: Uint8Array): [number, number] {
  deepStrictEqual([...png.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10]);
  strictEqual(new TextDecoder().decode(png.subarray(12, 16)), "IHDR");
  const v = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return [v.getUint32(16), v.getUint32(20)];
}

function texts(root: Element): string[] {
  return [...root.querySelectorAll("text")].map((t) => t.textContent ?? "");
}

Deno.test("bar chart with title + swatch legend → one standalone SVG and a PNG", () => {
  const el = barChart();
  strictEqual(el.tagName.toLowerCase(), "figure");
  const svg = toStandaloneSvg(el);
  const root = parseXml(svg);
  strictEqual(root.localName, "svg");
  strictEqual(root.namespaceURI, "http://www.w3.org/2000/svg");
  ok(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"'));
  ok(svg.includes('xmlns:xlink="http://www.w3.org/1999/xlink"'));
  const t = texts(root);
  for (const s of ["Accuracy by model & task", "toy data", "Figure 1. <not html>"]) {
    ok(t.includes(s), s);
  }
  ok(t.includes("boolean expressions") && t.includes("dyck languages"));
  // swatches became rects with the scale's colours
  ok(root.querySelectorAll('rect[fill="#4269d0"]').length >= 3);
  for (const bad of ["<figure", "<h2", "<div", "<span", "<style", "system-ui", "plot-clip-"]) {
    ok(!svg.includes(bad), bad);
  }
  ok(!/\/(tmp|work|home)\//.test(svg));
  strictEqual(root.getAttribute("width"), "656"); // 640 + 2 × 8 padding
  const png = svgToPng(svg);
  deepStrictEqual(pngSize(png), [1312, 2 * Number(root.getAttribute("height"))]);
  strictEqual(pngSize(svgToPng(svg, { scale: 1 }))[0], 656);
});

Deno.test("continuous colour legend renders (canvas shim) with its ramp image kept", () => {
  const svg = toStandaloneSvg(rampChart());
  const root = parseXml(svg);
  ok(texts(root).includes("Continuous legend"));
  ok(texts(root).includes("accuracy"));
  const image = root.querySelector("svg image");
  ok(image, "ramp <image>");
  const href = image.getAttributeNS("http://www.w3.org/1999/xlink", "href") ?? "";
  ok(href.startsWith("data:image/png;base64,"));
  const ramp = Uint8Array.from(atob(href.slice(22)), (c) => c.charCodeAt(0));
  deepStrictEqual(pngSize(ramp), [256, 1]);
  strictEqual(pngSize(svgToPng(svg))[0], 1312);
});

Deno.test("same plot twice → identical SVG and PNG bytes", () => {
  for (const make of [barChart, rampChart]) {
    const [a, b] = [toStandaloneSvg(make()), toStandaloneSvg(make())];
    strictEqual(a, b);
    deepStrictEqual(svgToPng(a), svgToPng(b));
  }
});

Deno.test("a bare <svg> keeps its size plus padding; fonts resolve", () => {
  const el = Plot.plot({
    document: plotDocument(),
    width: 300,
    height: 200,
    marks: [Plot.lineY([1, 3, 2])],
  });
  strictEqual(el.tagName.toLowerCase(), "svg");
  const root = parseXml(toStandaloneSvg(el, { padding: 0 }));
  deepStrictEqual([root.getAttribute("width"), root.getAttribute("height")], ["300", "200"]);
  ok(fontFiles()[0].endsWith("DejaVuSans.ttf"));
});

Deno.test("saveFigure writes .svg + .png; figureBundle displays as image/svg+xml", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const paths = saveFigure(barChart(), join(dir, "figures"), "acc");
    deepStrictEqual(paths, {
      svg: join(dir, "figures", "acc.svg"),
      png: join(dir, "figures", "acc.png"),
    });
    const svg = Deno.readTextFileSync(paths.svg);
    strictEqual(svg, toStandaloneSvg(barChart()));
    deepStrictEqual(Deno.readFileSync(paths.png), svgToPng(svg));
    const bundle = figureBundle(svg) as unknown as Record<symbol, () => Record<string, string>>;
    deepStrictEqual(bundle[Symbol.for("Jupyter.display")](), { "image/svg+xml": svg });
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
