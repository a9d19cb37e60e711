/**
 * 2D affine transforms of SVG geometry: parse a `transform` attribute, compose, apply.
 * A matrix `[a, b, c, d, e, f]` maps (x, y) to (a·x + c·y + e, b·x + d·y + f), as in SVG.
 *
 * @module
 */

/** An SVG transform matrix `[a, b, c, d, e, f]`. */
export type Matrix = readonly [number, number, number, number, number, number];

/** A point (x, y). */
export type Point = readonly [number, number];

/** The identity transform. */
export const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/**
 * `m` followed by `n` (the matrix of `transform="m n"`: `n` applies first to a point).
 *
 * @example
 * ```ts
 * multiply([1, 0, 0, 1, 10, 0], [2, 0, 0, 2, 0, 0]); // [2, 0, 0, 2, 10, 0]: scale, then move
 * ```
 */
export function multiply(m: Matrix, n: Matrix): Matrix {
  return [
    m[0] * n[0] + m[2] * n[1],
    m[1] * n[0] + m[3] * n[1],
    m[0] * n[2] + m[2] * n[3],
    m[1] * n[2] + m[3] * n[3],
    m[0] * n[4] + m[2] * n[5] + m[4],
    m[1] * n[4] + m[3] * n[5] + m[5],
  ];
}

/**
 * Where `m` takes point `p`.
 *
 * @example
 * ```ts
 * apply([0, 1, -1, 0, 5, 0], [1, 0]); // [5, 1]: rotate 90°, then move right by 5
 * ```
 */
export function apply(m: Matrix, [x, y]: Point): Point {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

/**
 * The matrix of an SVG `transform` attribute (translate, scale, rotate with or without a
 * centre, skewX, skewY, matrix; in order, the last applying first to a point). An unknown
 * function throws: a label checker must not silently misplace text.
 *
 * @example
 * ```ts
 * parseTransform("translate(10,20) rotate(90)"); // ≈ [0, 1, -1, 0, 10, 20]
 * parseTransform(null); // [1, 0, 0, 1, 0, 0]
 * ```
 */
export function parseTransform(attr: string | null): Matrix {
  let m = IDENTITY;
  for (const [, fn, args] of (attr ?? "").matchAll(/([a-zA-Z]+)\s*\(([^)]*)\)/g)) {
    const v = args.split(/[\s,]+/).filter(Boolean).map(Number);
    m = multiply(m, step(fn, v));
  }
  return m;
}

function step(fn: string, v: number[]): Matrix {
  const rad = ((v[0] ?? 0) * Math.PI) / 180;
  switch (fn) {
    case "translate":
      return [1, 0, 0, 1, v[0] ?? 0, v[1] ?? 0];
    case "scale":
      return [v[0] ?? 1, 0, 0, v[1] ?? v[0] ?? 1, 0, 0];
    case "rotate": {
      const [cx, cy] = [v[1] ?? 0, v[2] ?? 0];
      const r: Matrix = [Math.cos(rad), Math.sin(rad), -Math.sin(rad), Math.cos(rad), 0, 0];
      return multiply(multiply([1, 0, 0, 1, cx, cy], r), [1, 0, 0, 1, -cx, -cy]);
    }
    case "skewX":
      return [1, 0, Math.tan(rad), 1, 0, 0];
    case "skewY":
      return [1, Math.tan(rad), 0, 1, 0, 0];
    case "matrix":
      if (v.length === 6) return v as unknown as Matrix;
  }
  throw new Error(`unsupported SVG transform ${fn}(${v.join(",")})`);
}

/**
 * The depth by which two convex polygons overlap (separating axis theorem): the smallest
 * overlap of their projections over the polygons' edge normals; ≤ 0 when they do not overlap.
 *
 * @example
 * ```ts
 * const square = (x: number, y: number): Point[] => [[x, y], [x + 10, y], [x + 10, y + 10], [x, y + 10]];
 * overlapDepth(square(0, 0), square(8, 3)); // 2: they share a 2 px wide strip
 * overlapDepth(square(0, 0), square(12, 0)) <= 0; // true: 2 px apart
 * ```
 */
export function overlapDepth(a: readonly Point[], b: readonly Point[]): number {
  let depth = Infinity;
  for (const poly of [a, b]) {
    for (let i = 0; i < poly.length; i++) {
      const [x0, y0] = poly[i], [x1, y1] = poly[(i + 1) % poly.length];
      const len = Math.hypot(x1 - x0, y1 - y0);
      if (len === 0) continue;
      const axis: Point = [(y0 - y1) / len, (x1 - x0) / len];
      const [amin, amax] = project(a, axis), [bmin, bmax] = project(b, axis);
      depth = Math.min(depth, Math.min(amax, bmax) - Math.max(amin, bmin));
    }
  }
  return depth;
}

function project(poly: readonly Point[], [ax, ay]: Point): [number, number] {
  let min = Infinity, max = -Infinity;
  for (const [x, y] of poly) {
    const p = x * ax + y * ay;
    (min = Math.min(min, p)), (max = Math.max(max, p));
  }
  return [min, max];
}
