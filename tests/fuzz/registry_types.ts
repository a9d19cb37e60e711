/**
 * The type of one fuzz class: its name, what it covers, how many cases the full suite and the
 * CI subset take, its variants (case `k` gets variant `k mod n`) and its generator.
 *
 * @example
 * ```ts ignore
 * import type { ClassDef } from "./registry_types.ts";
 * const c: ClassDef = { name: "x", about: "…", full: 10, ci: 2, variants: ["a"], gen: (g) => body };
 * ```
 * @module
 */
import type { CaseBody, Gen } from "./gen_common.ts";

/** One class of hostile input. */
export interface ClassDef {
  /** Class name (report key). */
  name: string;
  /** What the class covers (one line, for the report). */
  about: string;
  /** Cases in the full suite (`deno task fuzz`). */
  full: number;
  /** Cases in the CI subset (the first `ci` of the full ones). */
  ci: number;
  /** Variants, cycled over the case numbers. */
  variants: string[];
  /** Build the case body of `variant` for case `g.k`. */
  gen(g: Gen, variant: string): CaseBody;
}
