/**
 * The options every figure function shares. Figure functions follow Observable Plot's marks:
 * data first, then one options object, `xFigure(data, { title?, subtitle?, caption?, … })`,
 * returning the element `Plot.plot` draws. Each figure's own options extend
 * {@link FigureOptions}; a figure with a default title or caption uses it when the option is
 * left out.
 *
 * @module
 */

/**
 * Headings and caption of a figure (each optional; Plot draws only those given).
 *
 * @example
 * ```ts
 * interface BarFigureOptions extends FigureOptions {
 *   measure: string;
 * }
 * const opts: BarFigureOptions = { measure: "accuracy", title: "Accuracy by model" };
 * ```
 */
export interface FigureOptions {
  /** The heading above the figure. */
  title?: string;
  /** A smaller line under the title. */
  subtitle?: string;
  /** A note under the figure (data source, what the bars and rules show). */
  caption?: string;
}
