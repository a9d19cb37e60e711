/**
 * Point labels that do not collide: each label of a scatter plot goes to the first place around
 * its point — above, below, right, left, the diagonals, then further out on rings — where its
 * box touches no label placed before it, no point, and stays inside the plot frame. Labels are
 * placed in a fixed order (points top to bottom, then left to right), so the same points always
 * give the same layout. A label set away from its point is marked `moved` (draw a leader line).
 * {@link pointLabels} turns the layout into Plot marks for a plot already drawn once.
 *
 * Boxes are measured with the DejaVu advance widths and the ink height of Sans text (0.77 em
 * above the baseline, 0.24 em below), with a 1.5 px margin, so placed labels keep the clearance
 * the label check (`labels.ts`) asks for.
 *
 * @module
 */
import * as Plot from "@observablehq/plot";
import { textWidth } from "./fonts.ts";

/** A point to label, in px of the plot. */
export interface LabelPoint {
  x: number;
  y: number;
  text: string;
}

/** Where a label goes: its anchor point (vertical centre of the text) and `text-anchor`. */
export interface PlacedLabel {
  x: number;
  y: number;
  anchor: "start" | "middle" | "end";
  /** Set away from its point (beyond the first ring): draw a leader line to it. */
  moved: boolean;
  /** The label's box with its margin, [left, top, right, bottom] px (filled in when placed). */
  box?: Box;
}

/** Options of {@link placeLabels}. */
export interface LabelLayoutOptions {
  /** Font size of the labels, px. */
  fontSize: number;
  /** Radius of the points' dots, px. */
  radius: number;
  /** The plot frame labels stay in: [left, top, right, bottom], px. */
  frame: readonly [number, number, number, number];
}

/** A box [left, top, right, bottom], px. */
export type Box = [number, number, number, number];

const PAD = 1.5;

/**
 * A place for every label (in the order of `points`), none overlapping another or a point when
 * the frame has room; otherwise the place of least overlap.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const points = [
 *   { x: 100, y: 100, text: "Geometric Shapes" },
 *   { x: 110, y: 104, text: "Web of Lies" },
 * ];
 * const [a, b] = placeLabels(points, { fontSize: 9, radius: 4, frame: [0, 0, 300, 200] });
 * assert.deepEqual([a.anchor, a.y < 100], ["middle", true]); // above its point
 * assert.ok(b.y > 104); // the other one goes below its point
 * ```
 */
export function placeLabels(
  points: readonly LabelPoint[],
  opts: LabelLayoutOptions,
): PlacedLabel[] {
  const dots: Box[] = points.map(({ x, y }) => [
    x - opts.radius,
    y - opts.radius,
    x + opts.radius,
    y + opts.radius,
  ]);
  const placed: Box[] = [];
  const out: PlacedLabel[] = new Array(points.length);
  const order = points.map((_, i) => i).sort((i, j) =>
    points[i].y - points[j].y || points[i].x - points[j].x
  );
  for (const i of order) {
    const p = points[i];
    const w = textWidth(p.text, opts.fontSize);
    let best: { label: PlacedLabel; box: Box; cost: number } | undefined;
    for (const label of candidates(p, opts)) {
      const box = boxOf(label, w, opts.fontSize);
      const cost = outside(box, opts.frame) * 1e6 + overlap(box, [...placed, ...dots]) +
        ambiguity(box, i, points);
      if (!best || cost < best.cost) best = { label, box, cost };
      if (cost === 0) break;
    }
    placed.push(best!.box);
    out[i] = { ...best!.label, box: best!.box };
  }
  return out;
}

/** Places around a point, nearest first: the first ring touches the dot, later rings move out. */
function* candidates(p: LabelPoint, o: LabelLayoutOptions): Generator<PlacedLabel> {
  const half = o.fontSize * 0.5 + PAD;
  for (let ring = 0; ring < 8; ring++) {
    const d = o.radius + 2 + ring * o.fontSize;
    const moved = ring > 0;
    yield { x: p.x, y: p.y - d - half, anchor: "middle", moved };
    yield { x: p.x, y: p.y + d + half, anchor: "middle", moved };
    yield { x: p.x + d, y: p.y, anchor: "start", moved };
    yield { x: p.x - d, y: p.y, anchor: "end", moved };
    for (const [sx, sy] of [[1, -1], [-1, -1], [1, 1], [-1, 1]] as const) {
      yield {
        x: p.x + sx * d * 0.7,
        y: p.y + sy * (d * 0.7 + half),
        anchor: sx > 0 ? "start" : "end",
        moved,
      };
    }
  }
}

/** The label's ink box with its margin: centred at `y` as Plot's `lineAnchor: "middle"` sets it. */
function boxOf(l: PlacedLabel, w: number, size: number): Box {
  const x0 = l.anchor === "start" ? l.x : l.anchor === "middle" ? l.x - w / 2 : l.x - w;
  const baseline = l.y + 0.32 * size;
  return [x0 - PAD, baseline - 0.77 * size - PAD, x0 + w + PAD, baseline + 0.24 * size + PAD];
}

/** Each box overlapped costs 100 plus the area shared (any overlap is worse than ambiguity). */
function overlap(b: Box, others: Box[]): number {
  let cost = 0;
  for (const o of others) {
    const w = Math.min(b[2], o[2]) - Math.max(b[0], o[0]);
    const h = Math.min(b[3], o[3]) - Math.max(b[1], o[1]);
    if (w > 0 && h > 0) cost += 100 + w * h;
  }
  return cost;
}

/** 10 for each other point at least as near to the label as its own: the reader may mistake it. */
function ambiguity(b: Box, own: number, points: readonly LabelPoint[]): number {
  const dist = (p: LabelPoint) =>
    Math.hypot(...leaderEnd([p.x, p.y], b).map((v, k) => v - [p.x, p.y][k]));
  const mine = dist(points[own]);
  return points.reduce((c, p, i) => c + (i !== own && dist(p) <= mine + 2 ? 10 : 0), 0);
}

function outside(b: Box, [l, t, r, bottom]: readonly [number, number, number, number]): number {
  return Math.max(0, l - b[0]) + Math.max(0, t - b[1]) + Math.max(0, b[2] - r) +
    Math.max(0, b[3] - bottom);
}

/**
 * The end of a leader line from a point to its label: the point of the label's box nearest to
 * the point.
 *
 * @example
 * ```ts
 * leaderEnd([0, 0], [10, -20, 50, -8]); // [10, -8]: the box's lower left corner
 * ```
 */
export function leaderEnd([x, y]: readonly [number, number], box: Box): [number, number] {
  return [Math.min(Math.max(x, box[0]), box[2]), Math.min(Math.max(y, box[1]), box[3])];
}

/** Fixed domains of a plot's x and y scales (to draw it again on the same scales). */
export interface ScaleDomains {
  x?: unknown[];
  y?: unknown[];
}

/** Channels of {@link pointLabels}: field names of the rows, the dot radius and font size. */
export interface PointLabelOptions {
  x: string;
  y: string;
  text: string;
  r: number;
  fontSize: number;
}

/**
 * Text marks (one per `text-anchor`) and grey leader lines that label the points of `rows`
 * without collisions, placed in px on the scales of `drawn` (the same plot drawn once without
 * them); draw the plot again with `domains` so the scales stay the same.
 *
 * @example
 * ```ts
 * import * as Plot from "@observablehq/plot";
 * import { plotDocument } from "./dom.ts";
 * const rows = [{ x: 1, y: 1, name: "Geometric Shapes" }, { x: 1.05, y: 1.02, name: "Web of Lies" }];
 * const plot = (marks: Plot.Markish[], d: ScaleDomains = {}) =>
 *   Plot.plot({ document: plotDocument(), x: { domain: d.x }, y: { domain: d.y }, marks });
 * const dots = [Plot.dot(rows, { x: "x", y: "y", r: 4 })];
 * const labels = pointLabels(rows, { x: "x", y: "y", text: "name", r: 4, fontSize: 9 }, plot(dots));
 * const el = plot([...labels.leaders, ...dots, ...labels.texts], labels.domains);
 * el.querySelectorAll("text").length > 2; // true: both labels, besides the tick labels
 * ```
 */
export function pointLabels(
  rows: readonly Record<string, unknown>[],
  o: PointLabelOptions,
  drawn: Element,
): { texts: Plot.Markish[]; leaders: Plot.Markish[]; domains: ScaleDomains } {
  const { x: sx, y: sy } = scalesOf(drawn);
  const [left, right] = sx.range as number[], [bottom, top] = sy.range as number[];
  const points = rows.map((r) => ({
    x: sx.apply!(r[o.x]) as number,
    y: sy.apply!(r[o.y]) as number,
    text: String(r[o.text]),
  }));
  const frame = [left, top, right, bottom] as const;
  const placed = placeLabels(points, { fontSize: o.fontSize, radius: o.r, frame });
  const at = ([px, py]: readonly [number, number]) => ({ x: sx.invert!(px), y: sy.invert!(py) });
  const labels = placed.map((l, i) => ({ ...at([l.x, l.y]), text: points[i].text, l }));
  const texts = (["start", "middle", "end"] as const).map((anchor) =>
    Plot.text(labels.filter((d) => d.l.anchor === anchor), {
      x: "x",
      y: "y",
      text: "text",
      textAnchor: anchor,
      fontSize: o.fontSize,
    })
  );
  const links = placed.flatMap((l, i) => {
    if (!l.moved) return [];
    const from = at([points[i].x, points[i].y]),
      to = at(leaderEnd([points[i].x, points[i].y], l.box!));
    return [{ x1: from.x, y1: from.y, x2: to.x, y2: to.y }];
  });
  const leaders = links.length
    ? [
      Plot.link(links, {
        x1: "x1",
        y1: "y1",
        x2: "x2",
        y2: "y2",
        stroke: "#9e9e9e",
        strokeWidth: 0.75,
      }),
    ]
    : [];
  return { texts, leaders, domains: { x: sx.domain as unknown[], y: sy.domain as unknown[] } };
}

function scalesOf(drawn: Element): { x: Plot.Scale; y: Plot.Scale } {
  const el = drawn as Element & { scale(name: "x" | "y"): Plot.Scale | undefined };
  const x = el.scale("x"), y = el.scale("y");
  if (!x?.apply || !x.invert || !y?.apply || !y.invert) {
    throw new Error("pointLabels needs a plot with continuous x and y scales");
  }
  return { x, y };
}
