/**
 * Lossless rewrites of a table that make it narrower, each leaving a sentence for the note:
 * **folding** columns that hold one value on every row (or repeat an earlier column) into the
 * note, **short names** (`R1`, `R2`, … for run names, with a legend), and **transposing** a
 * wide, short table of numbers (the BBEH paper's Table 2 shape: tasks as rows, models as
 * columns). `layout.ts` tries them in that order, only when a table does not fit.
 *
 * @example
 * ```ts
 * import { foldColumns } from "@runlens/render/latex/grid.ts";
 * const g = { columns: ["run", "scorer", "acc"], numeric: [false, false, true], rows: [["a", "s", "1"], ["b", "s", "2"]] };
 * foldColumns(g).notes; // ["Same on every row: scorer = s."]
 * ```
 * @module
 */

/** A table with every cell formatted (`null`: missing). */
export interface LatexGrid {
  /** Column headers. */
  columns: string[];
  /** Whether each column holds numbers (right-aligned). */
  numeric: boolean[];
  /** Cells, row by row. */
  rows: (string | null)[][];
}

/** A grid and the sentences a reader needs to read it (folded columns, legends). */
export interface Rewritten {
  grid: LatexGrid;
  notes: string[];
  /** Columns (by header) holding names not yet abbreviated: they wrap to two lines at most. */
  names: Set<string>;
}

/**
 * Columns holding names (runs, models) that may be replaced by short codes with a legend
 * when a table is too wide.
 */
export interface ShortNames {
  /** Headers of the columns holding such names (e.g. `["run", "Run", "A", "B"]`). */
  columns: string[];
  /** Code prefix: `R` gives `R1`, `R2`, … */
  prefix: string;
  /** The legend's title, e.g. `Runs`. */
  what: string;
  /** Fixed codes by name (e.g. shared by every table of a report); others are numbered on. */
  codes?: Record<string, string>;
}

/** Run and model columns, by their usual headers. */
export const DEFAULT_SHORT_NAMES: ShortNames[] = [
  { columns: ["run", "Run"], prefix: "R", what: "Runs" },
  { columns: ["model", "Model"], prefix: "M", what: "Models" },
];

/** The text of a missing value in notes. */
const NONE = "none";

const same = (a: (string | null)[], b: (string | null)[]) => a.every((x, i) => x === b[i]);

/**
 * Drop the columns that hold one value on every row, and text columns equal to an earlier
 * column on every row (a model named as its run), saying so in a note. Only with two rows or more; the first column and at least
 * two columns always stay. `which: "text"` folds text columns only.
 */
export function foldColumns(
  g: LatexGrid,
  which: "all" | "text" = "all",
): { grid: LatexGrid; notes: string[] } {
  if (g.rows.length < 2 || g.columns.length <= 2) return { grid: g, notes: [] };
  const col = (j: number) => g.rows.map((r) => r[j]);
  const constant: number[] = [];
  const copies: [number, number][] = [];
  for (let j = 1; j < g.columns.length; j++) {
    if (which === "text" && g.numeric[j]) continue;
    const values = col(j);
    if (values.every((v) => v === values[0])) constant.push(j);
    else if (!g.numeric[j]) {
      // Text only: two columns of numbers that agree on a few rows agree by chance.
      const earlier = [...Array(j).keys()].find((i) =>
        !constant.includes(i) && !copies.some(([c]) => c === i) && same(col(i), values)
      );
      if (earlier !== undefined) copies.push([j, earlier]);
    }
  }
  const dropped = new Set([...constant, ...copies.map(([j]) => j)]);
  if (dropped.size === 0 || g.columns.length - dropped.size < 2) return { grid: g, notes: [] };
  const keep = g.columns.map((_, j) => j).filter((j) => !dropped.has(j));
  const notes: string[] = [];
  if (constant.length) {
    const parts = constant.map((j) => `${g.columns[j]} = ${g.rows[0][j] ?? NONE}`);
    notes.push(`Same on every row: ${parts.join("; ")}.`);
  }
  for (const [j, i] of copies) notes.push(`${g.columns[j]} equals ${g.columns[i]} on every row.`);
  return {
    grid: {
      columns: keep.map((j) => g.columns[j]),
      numeric: keep.map((j) => g.numeric[j]),
      rows: g.rows.map((r) => keep.map((j) => r[j])),
    },
    notes,
  };
}

/** Codes for names: the fixed ones, then `prefix1`, `prefix2`, … in order of appearance. */
class Codes {
  #codes = new Map<string, string>();
  #taken: Set<string>;
  #next = 1;
  constructor(readonly spec: ShortNames) {
    this.#taken = new Set(Object.values(spec.codes ?? {}));
  }
  code(name: string): string {
    let c = this.#codes.get(name) ?? this.spec.codes?.[name];
    if (c === undefined) {
      do c = `${this.spec.prefix}${this.#next++}`; while (this.#taken.has(c));
      this.#taken.add(c);
    }
    this.#codes.set(name, c);
    return c;
  }
  /** `Runs: R1 = a; R2 = b.` for the names coded so far, in code order. */
  legend(): string {
    const entries = [...this.#codes].sort((a, b) => codeOrder(a[1], b[1]));
    return `${this.spec.what}: ${entries.map(([n, c]) => `${c} = ${n}`).join("; ")}.`;
  }
}

/** `R2` before `R10`. */
function codeOrder(a: string, b: string): number {
  const [, pa, na] = /^(.*?)(\d*)$/.exec(a)!;
  const [, pb, nb] = /^(.*?)(\d*)$/.exec(b)!;
  return pa < pb ? -1 : pa > pb ? 1 : Number(na) - Number(nb) || (a < b ? -1 : a > b ? 1 : 0);
}

/** The text columns of `g` that `spec` names. */
function nameColumns(g: LatexGrid, spec: ShortNames): number[] {
  return g.columns.map((_, j) => j).filter((j) =>
    !g.numeric[j] && spec.columns.includes(g.columns[j])
  );
}

/** The headers of the name columns of `g` (they wrap to two lines at most). */
export function nameColumnHeaders(g: LatexGrid, specs: readonly ShortNames[]): Set<string> {
  return new Set(specs.flatMap((s) => nameColumns(g, s).map((j) => g.columns[j])));
}

/** Replace the names in the name columns by codes; a legend per kind of name. */
export function shortenNames(g: LatexGrid, specs: readonly ShortNames[]): Rewritten {
  const rows = g.rows.map((r) => [...r]);
  const notes: string[] = [];
  for (const spec of specs) {
    const cols = nameColumns(g, spec);
    if (cols.length === 0) continue;
    const codes = new Codes(spec);
    for (const r of rows) for (const j of cols) if (r[j] !== null) r[j] = codes.code(r[j]!);
    notes.push(codes.legend());
  }
  return { grid: { ...g, rows }, notes, names: new Set() };
}

/**
 * Tables of numbers wider than long, turned: the leading text columns (the key, e.g. model and
 * source) become the column headers, every number column a row. Null when `g` is not such a
 * table (no leading text column, a text column after the key, or more rows than columns).
 * With `short`, the new headers are codes with a legend.
 */
export function transposed(
  g: LatexGrid,
  specs: readonly ShortNames[],
  short: boolean,
): Rewritten | null {
  const key = g.numeric.findIndex((n) => n);
  if (key <= 0 || g.numeric.slice(key).some((n) => !n) || g.rows.length === 0) return null;
  if (g.columns.length - key <= g.rows.length) return null;
  const headers = g.rows.map((r) => r.slice(0, key).map((v) => v ?? NONE).join(", "));
  const notes: string[] = [];
  let columns = headers;
  if (short) {
    const first = g.columns[0];
    const spec = specs.find((s) => s.columns.includes(first));
    const what = g.columns.slice(0, key).join(", ");
    const codes = new Codes(
      key === 1 && spec ? spec : {
        columns: [],
        prefix: (/[A-Za-z]/.exec(first)?.[0] ?? "C").toUpperCase(),
        what: what[0].toUpperCase() + what.slice(1),
      },
    );
    columns = headers.map((h) => codes.code(h));
    notes.push(codes.legend());
  }
  return {
    grid: {
      columns: ["", ...columns],
      numeric: [false, ...columns.map(() => true)],
      rows: g.columns.slice(key).map((c, i) => [c, ...g.rows.map((r) => r[key + i])]),
    },
    notes,
    names: new Set(),
  };
}
