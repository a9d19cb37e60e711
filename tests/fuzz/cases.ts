/**
 * The fuzz case registry: every class of hostile input (line-level, containers, file system,
 * mutations of real logs), and {@link generateCases}, which builds the full suite (~2,000
 * cases) or the CI subset (~300: the first cases of every class, so the subset is stratified
 * and each of its cases is also in the full suite) from a seed.
 *
 * @example
 * ```ts ignore
 * import { generateCases } from "./cases.ts";
 * const cases = generateCases("/work/shared/data", { seed: 1, size: "ci" });
 * cases.length; // ~300
 * ```
 * @module
 */
import type { FuzzCase } from "./case.ts";
import { loadMaterial } from "./data.ts";
import { CONTAINER_CLASSES } from "./gen_containers.ts";
import { FILE_CLASSES } from "./gen_files.ts";
import { LINE_CLASSES } from "./gen_lines.ts";
import type { ClassDef } from "./registry_types.ts";
import { hashSeed, Rng } from "./rng.ts";

/** Every class, in report order. */
export const CLASSES: ClassDef[] = [...LINE_CLASSES, ...CONTAINER_CLASSES, ...FILE_CLASSES];

/** The default seed of the suite. */
export const DEFAULT_SEED = 20260415;

/** What to generate. */
export interface GenerateOptions {
  seed?: number;
  /** `full` (every class's `full` cases) or `ci` (its first `ci` cases). */
  size?: "full" | "ci";
  /** Only classes whose name matches. */
  classes?: RegExp;
  /** Only the case with this id (a reproduction). */
  id?: string;
  /**
   * With `size: "ci"`: take `round(ci × scale)` cases of each class (at least 1), e.g. 0.5 for a
   * faster CI; the first cases of each class, so still stratified.
   */
  scale?: number;
}

/** A case not yet built: enough to name, count and build it. */
export interface CaseRef {
  id: string;
  cls: string;
  variant: string;
  k: number;
}

/**
 * The cases of the suite, not built (cheap): ids in class order.
 *
 * @example
 * ```ts ignore
 * listCases({ size: "ci" }).length; // ~300
 * ```
 */
export function listCases(options: GenerateOptions = {}): CaseRef[] {
  const out: CaseRef[] = [];
  for (const cls of CLASSES) {
    if (options.classes && !options.classes.test(cls.name)) continue;
    const count = options.size === "ci"
      ? Math.max(1, Math.round(cls.ci * (options.scale ?? 1)))
      : cls.full;
    for (let k = 0; k < count; k++) {
      const variant = cls.variants[k % cls.variants.length];
      const id = `${cls.name}/${variant}/${k}`;
      if (options.id && options.id !== id) continue;
      out.push({ id, cls: cls.name, variant, k });
    }
  }
  return out;
}

/**
 * Build one case (deterministic for the seed and the data directory).
 *
 * @example
 * ```ts ignore
 * buildCase(dataDir, listCases()[0]).expect;
 * ```
 */
export function buildCase(dataDir: string, ref: CaseRef, seed = DEFAULT_SEED): FuzzCase {
  const cls = CLASSES.find((c) => c.name === ref.cls);
  if (!cls) throw new Error(`fuzz: no class ${ref.cls}`);
  const rng = new Rng(hashSeed(`${seed}/${ref.cls}/${ref.k}`));
  const body = cls.gen({ m: loadMaterial(dataDir), rng, k: ref.k }, ref.variant);
  return { id: ref.id, cls: ref.cls, variant: ref.variant, ...body };
}

/**
 * Generate the cases at once (deterministic for a seed and data directory). Holds every case's
 * bytes: the runner builds them one at a time instead ({@link listCases}, {@link buildCase}).
 *
 * @example
 * ```ts ignore
 * generateCases(dataDir, { size: "ci", classes: /^gzip/ }).map((c) => c.id);
 * ```
 */
export function generateCases(dataDir: string, options: GenerateOptions = {}): FuzzCase[] {
  return listCases(options).map((ref) => buildCase(dataDir, ref, options.seed));
}
