/**
 * Colour for people, none for programs: bold headings, red errors and yellow warnings when the
 * stream is a terminal, and plain text when it is a pipe or a file, or when `NO_COLOR` is set
 * to anything but the empty string (https://no-color.org; Deno reads it into `Deno.noColor`).
 * Each stream is decided on its own: `runlens score … > out.txt` on a terminal keeps colour in
 * its messages on stderr and none in the file.
 *
 * Twenty lines of ANSI codes rather than a dependency (JSR's `@std/fmt/colors` is not
 * reachable from here, and three styles do not need an npm package).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const plain = stylesFor({ isTerminal: () => false });
 * assert.equal(plain.red("error"), "error"); // a pipe: no codes
 * const tty = stylesFor({ isTerminal: () => true }, false);
 * assert.equal(tty.bold("usage:"), "\x1b[1musage:\x1b[22m");
 * ```
 * @module
 */

/** The styles a command's output uses; each returns its text unchanged when colour is off. */
export interface Styles {
  /** Headings of the help. */
  bold(text: string): string;
  /** Errors. */
  red(text: string): string;
  /** Warnings. */
  yellow(text: string): string;
}

/** What a stream must tell: whether it is a terminal (`Deno.stdout`, `Deno.stderr`). */
export interface Stream {
  isTerminal(): boolean;
}

const sgr = (on: number, off: number) => (text: string) => `\x1b[${on}m${text}\x1b[${off}m`;
const same = (text: string) => text;

/** No colour. */
export const PLAIN: Styles = { bold: same, red: same, yellow: same };

/** ANSI colour. */
const COLOUR: Styles = { bold: sgr(1, 22), red: sgr(31, 39), yellow: sgr(33, 39) };

/** The styles for writing to `stream`: colour only on a terminal, and never with `NO_COLOR`. */
export function stylesFor(stream: Stream, noColor: boolean = Deno.noColor): Styles {
  return !noColor && stream.isTerminal() ? COLOUR : PLAIN;
}

/**
 * Print an error on stderr, `<prefix>: <message>`, red on a terminal.
 *
 * @example
 * ```ts
 * printError("runlens score", "no run logs given"); // stderr: runlens score: no run logs given
 * ```
 */
export function printError(prefix: string, message: string): void {
  console.error(stylesFor(Deno.stderr).red(`${prefix}: ${message}`));
}

/**
 * Print a warning on stderr, `<prefix>: <message>`, yellow on a terminal: the command goes on.
 *
 * @example
 * ```ts
 * printWarning("runlens analyze", "the first-mistake analysis needs big-bench-mistake/");
 * ```
 */
export function printWarning(prefix: string, message: string): void {
  console.error(stylesFor(Deno.stderr).yellow(`${prefix}: ${message}`));
}
