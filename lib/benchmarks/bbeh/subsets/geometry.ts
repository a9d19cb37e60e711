/**
 * A geometric check of the BBEH geometric_shapes subsets, computed from the SVG path itself.
 *
 * The task file carries no subset field: the four subsets (paper Appendix A.7: few vs many line
 * breaks × shapes formed with vs without intersecting extra lines) are blocks of 50 in file
 * order. This module re-derives both axes from the drawing, to check that order:
 * - intersect: two segments cross at a point inside both (a proper crossing, not a shared
 *   endpoint or a T-junction at an endpoint);
 * - many breaks: at least half of the segments end at a "break point", a point where two
 *   collinear segments meet end to end — i.e. the straight lines are drawn in two or more
 *   pieces on average (break points B = segments S − lines L, so B/S ≥ ½ ⇔ S ≥ 2L).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { geometricShapesCheck } from "@runlens/benchmarks/bbeh/subsets/geometry.ts";
 * // one straight line drawn in two pieces: one break point
 * const g = geometricShapesCheck("… this SVG path element: M 0,0 L 1,0 L 2,0 . Out of …");
 * assert.deepEqual(g, {
 *   segments: 2,
 *   breakPoints: 1,
 *   crossings: 0,
 *   intersect: false,
 *   manyBreaks: true,
 * });
 * ```
 * @module
 */

type Point = readonly [number, number];
type Segment = readonly [Point, Point];

/** What {@link geometricShapesCheck} finds in one SVG path. */
export interface GeometricCheck {
  /** Line segments drawn (each `L` command). */
  segments: number;
  /** Points where two collinear segments meet end to end. */
  breakPoints: number;
  /** Pairs of segments that cross at a point interior to both. */
  crossings: number;
  /** `crossings > 0`. */
  intersect: boolean;
  /** `breakPoints / segments ≥ 0.5`. */
  manyBreaks: boolean;
}

/** Sine of the largest angle treated as "collinear". */
const COLLINEAR_SIN = 1e-3;
/** Coordinates are rounded to 5 decimals in the task; points closer than this coincide. */
const SNAP = 1e3;

/**
 * The line segments of the SVG path in a geometric_shapes question (`M x,y` moves, `L x,y`
 * draws from the current point). Throws when the input holds no path.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const segments = parseSvgSegments("… path element: M 0,0 L 1,0 M 5,5 L 5,6 . Out of …");
 * assert.deepEqual(segments, [[[0, 0], [1, 0]], [[5, 5], [5, 6]]]);
 * ```
 */
export function parseSvgSegments(input: string): Segment[] {
  const path = /path element: (.*?) \. Out of/s.exec(input);
  if (!path) throw new Error("geometric_shapes input without an SVG path element");
  const segments: Segment[] = [];
  let current: Point | null = null;
  for (const m of path[1].matchAll(/([ML])\s*(-?\d+(?:\.\d+)?),\s*(-?\d+(?:\.\d+)?)/g)) {
    const p: Point = [Number(m[2]), Number(m[3])];
    if (m[1] === "L") {
      if (!current) throw new Error("SVG path draws a line before any move");
      segments.push([current, p]);
    }
    current = p;
  }
  return segments;
}

function cross(o: Point, a: Point, b: Point): number {
  return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

function length([a, b]: Segment): number {
  return Math.hypot(b[0] - a[0], b[1] - a[1]);
}

/** Whether the segments cross at a point strictly inside both (relative tolerance). */
function properlyCross(s: Segment, t: Segment): boolean {
  const [a, b] = s;
  const [c, d] = t;
  const tolS = COLLINEAR_SIN * length(s);
  const tolT = COLLINEAR_SIN * length(t);
  const d1 = cross(c, d, a);
  const d2 = cross(c, d, b);
  const d3 = cross(a, b, c);
  const d4 = cross(a, b, d);
  const straddles = (u: number, v: number, tol: number) =>
    (u > tol && v < -tol) || (u < -tol && v > tol);
  return straddles(d1, d2, tolT) && straddles(d3, d4, tolS);
}

function countBreakPoints(segments: Segment[]): number {
  const directions = new Map<string, Point[]>();
  const add = (at: Point, to: Point) => {
    const key = `${Math.round(at[0] * SNAP)},${Math.round(at[1] * SNAP)}`;
    const list = directions.get(key) ?? [];
    list.push([to[0] - at[0], to[1] - at[1]]);
    directions.set(key, list);
  };
  for (const [a, b] of segments) {
    add(a, b);
    add(b, a);
  }
  let breaks = 0;
  for (const dirs of directions.values()) {
    const opposite = dirs.some((u, i) =>
      dirs.slice(i + 1).some((v) => {
        const norm = Math.hypot(...u) * Math.hypot(...v);
        if (norm === 0) return false;
        const sin = (u[0] * v[1] - u[1] * v[0]) / norm;
        const cos = (u[0] * v[0] + u[1] * v[1]) / norm;
        return Math.abs(sin) < COLLINEAR_SIN && cos < 0;
      })
    );
    if (opposite) breaks++;
  }
  return breaks;
}

/**
 * Both difficulty axes of one geometric_shapes question, from its SVG path.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * // two segments crossing in an X: intersect, no breaks
 * const check = geometricShapesCheck("path element: M 0,0 L 2,2 M 0,2 L 2,0 . Out of");
 * assert.equal(check.intersect, true);
 * assert.equal(geometricShapesLabel(check), "intersect/few_breaks");
 * ```
 */
export function geometricShapesCheck(input: string): GeometricCheck {
  const segments = parseSvgSegments(input);
  let crossings = 0;
  for (let i = 0; i < segments.length; i++) {
    for (let j = i + 1; j < segments.length; j++) {
      if (properlyCross(segments[i], segments[j])) crossings++;
    }
  }
  const breakPoints = countBreakPoints(segments);
  return {
    segments: segments.length,
    breakPoints,
    crossings,
    intersect: crossings > 0,
    manyBreaks: segments.length > 0 && breakPoints / segments.length >= 0.5,
  };
}

/** The geometric_shapes subset label the check implies, e.g. `intersect/many_breaks`. */
export function geometricShapesLabel(check: GeometricCheck): string {
  return `${check.intersect ? "intersect" : "no_intersect"}/` +
    `${check.manyBreaks ? "many_breaks" : "few_breaks"}`;
}
