/**
 * Text to ASCII-only LaTeX that compiles in a plain `article` (OT1 Computer Modern, no
 * `inputenc`, no `fontenc`, no `textcomp` glyphs — those would fall back to bitmap fonts).
 *
 * Text is cut into **atoms**: the LaTeX for one visible glyph (or a ligature such as `--`), with
 * the key of its width in `metrics.ts`. The ten special characters are escaped (`\_`, `\%`, …);
 * a minus sign (U+2212, or `-` starting a number) becomes `$-$`; dashes, quotes, accented
 * letters, Greek letters and common symbols become LaTeX commands; anything else is written as
 * its code point (`[U+4E2D]`), never dropped and never passed through raw.
 *
 * @example
 * ```ts
 * import { latexEscape } from "@runlens/render/latex/text.ts";
 * latexEscape("Café − 50% of a_b"); // "Caf\\'{e} $-$ 50\\% of a\\_b"
 * ```
 * @module
 */

/** One glyph of LaTeX output: its source and the key of its width in the metrics table. */
export interface Atom {
  /** LaTeX source. */
  tex: string;
  /** Width key (the atom's source, or the base letter of an accented one). */
  key: string;
}

/** ASCII characters that need a command (OT1 has no glyph, or TeX gives them a meaning). */
const ASCII_ESCAPES: Record<string, string> = {
  "\\": "\\textbackslash{}",
  "&": "\\&",
  "%": "\\%",
  "$": "\\$",
  "#": "\\#",
  "_": "\\_",
  "{": "\\{",
  "}": "\\}",
  "~": "\\textasciitilde{}",
  "^": "\\textasciicircum{}",
  "|": "\\textbar{}",
  "<": "\\textless{}",
  ">": "\\textgreater{}",
  "`": "\\`{}",
};

/** The minus sign. */
export const LATEX_MINUS = "$-$";

/** Non-ASCII characters written as one LaTeX glyph (a command, math symbol or ligature). */
const GLYPHS: Record<string, string> = {
  "\u2212": LATEX_MINUS,
  "\u2012": "--",
  "\u2013": "--",
  "\u2014": "---",
  "\u2015": "---",
  "\u2018": "`",
  "\u2019": "'",
  "\u201B": "`",
  "\u201C": "``",
  "\u201D": "''",
  "\u201F": "``",
  "\u00AB": "``",
  "\u00BB": "''",
  "\u2039": "`",
  "\u203A": "'",
  "\u2026": "\\ldots{}",
  "\u2022": "$\\bullet$",
  "\u00B7": "$\\cdot$",
  "\u22C5": "$\\cdot$",
  "\u00B0": "$^\\circ$",
  "\u2032": "$'$",
  "\u2033": "$''$",
  "\u00D7": "$\\times$",
  "\u00F7": "$\\div$",
  "\u00B1": "$\\pm$",
  "\u2213": "$\\mp$",
  "\u2264": "$\\le$",
  "\u2265": "$\\ge$",
  "\u2260": "$\\ne$",
  "\u2248": "$\\approx$",
  "\u2261": "$\\equiv$",
  "\u223C": "$\\sim$",
  "\u221D": "$\\propto$",
  "\u221E": "$\\infty$",
  "\u221A": "$\\surd$",
  "\u2211": "$\\sum$",
  "\u220F": "$\\prod$",
  "\u222B": "$\\int$",
  "\u2202": "$\\partial$",
  "\u2207": "$\\nabla$",
  "\u2208": "$\\in$",
  "\u2209": "$\\notin$",
  "\u2282": "$\\subset$",
  "\u2286": "$\\subseteq$",
  "\u222A": "$\\cup$",
  "\u2229": "$\\cap$",
  "\u2227": "$\\wedge$",
  "\u2228": "$\\vee$",
  "\u00AC": "$\\neg$",
  "\u2200": "$\\forall$",
  "\u2203": "$\\exists$",
  "\u2205": "$\\emptyset$",
  "\u2192": "$\\rightarrow$",
  "\u2190": "$\\leftarrow$",
  "\u2194": "$\\leftrightarrow$",
  "\u21D2": "$\\Rightarrow$",
  "\u21D0": "$\\Leftarrow$",
  "\u21D4": "$\\Leftrightarrow$",
  "\u2191": "$\\uparrow$",
  "\u2193": "$\\downarrow$",
  "\u2217": "$\\ast$",
  "\u2218": "$\\circ$",
  "\u2295": "$\\oplus$",
  "\u2297": "$\\otimes$",
  "\u2020": "$\\dagger$",
  "\u2021": "$\\ddagger$",
  "\u00B5": "$\\mu$",
  "\u00A7": "\\S{}",
  "\u00B6": "\\P{}",
  "\u00A9": "\\copyright{}",
  "\u00A3": "\\pounds{}",
  "\u00A1": "!`",
  "\u00BF": "?`",
  "\u00DF": "\\ss{}",
  "\u00E6": "\\ae{}",
  "\u00C6": "\\AE{}",
  "\u0153": "\\oe{}",
  "\u0152": "\\OE{}",
  "\u00F8": "\\o{}",
  "\u00D8": "\\O{}",
  "\u0142": "\\l{}",
  "\u0141": "\\L{}",
  "\u0131": "\\i{}",
  "\u0237": "\\j{}",
  "\u00B9": "$^1$",
  "\u00B2": "$^2$",
  "\u00B3": "$^3$",
};

/** Greek letters in math mode (the capitals that look Latin are transliterated below). */
const GREEK = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi o pi " +
  "rho varsigma sigma tau upsilon phi chi psi omega";
const GREEK_CAPITALS: Record<string, string> = {
  "\u0393": "Gamma",
  "\u0394": "Delta",
  "\u0398": "Theta",
  "\u039B": "Lambda",
  "\u039E": "Xi",
  "\u03A0": "Pi",
  "\u03A3": "Sigma",
  "\u03A5": "Upsilon",
  "\u03A6": "Phi",
  "\u03A8": "Psi",
  "\u03A9": "Omega",
};
for (const [i, name] of GREEK.split(" ").entries()) {
  GLYPHS[String.fromCodePoint(0x3B1 + i)] = name === "o" ? "o" : `$\\${name}$`;
}
for (const [c, name] of Object.entries(GREEK_CAPITALS)) GLYPHS[c] = `$\\${name}$`;

/** Characters written as plain ASCII text (escaped like any other text). */
const TRANSLITERATIONS: Record<string, string> = {
  "\u0110": "D",
  "\u0111": "d",
  "\u00D0": "D",
  "\u00F0": "d",
  "\u00DE": "Th",
  "\u00FE": "th",
  "\u014A": "Ng",
  "\u014B": "ng",
  "\u0126": "H",
  "\u0127": "h",
  "\u20AC": "EUR",
  "\u2010": "-",
  "\u2011": "-",
  "\u2044": "/",
  "\u2215": "/",
  "\u00BC": "1/4",
  "\u00BD": "1/2",
  "\u00BE": "3/4",
  "\u201A": ",",
  "\u201E": ",,",
  "\u2122": "TM",
  "\u00AE": "(R)",
};
const GREEK_LATIN = "ABEZHIKMNOPTX";
for (
  const [i, c] of [
    ..."\u0391\u0392\u0395\u0396\u0397\u0399\u039A\u039C\u039D\u039F\u03A1\u03A4\u03A7",
  ].entries()
) {
  TRANSLITERATIONS[c] = GREEK_LATIN[i];
}

/** Combining marks after NFD → the OT1 accent command (ogonek has none: the mark is dropped). */
const ACCENTS: Record<string, string> = {
  "\u0300": "`",
  "\u0301": "'",
  "\u0302": "^",
  "\u0303": "~",
  "\u0304": "=",
  "\u0306": "u",
  "\u0307": ".",
  "\u0308": '"',
  "\u030A": "r",
  "\u030B": "H",
  "\u030C": "v",
  "\u0323": "d",
  "\u0327": "c",
  "\u0331": "b",
};

/** Invisible characters: dropped. */
const INVISIBLE = /^[\u00AD\u200B-\u200D\u2060\uFEFF\u180E]$/;

/** A code point as ASCII text, e.g. `[U+4E2D]`. */
function codePointText(c: string): string {
  return `[U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}]`;
}

/** Atoms of one ASCII character, given its neighbours (for ligatures, quotes and minus). */
function asciiAtom(c: string, prev: string, next: string, nextNext: string): Atom {
  if (c === "-") {
    const numberFollows = /\d/.test(next) || (next === "." && /\d/.test(nextNext));
    if (numberFollows && /^$|[\s[(,;:=]/.test(prev)) return { tex: LATEX_MINUS, key: LATEX_MINUS };
    return next === "-" ? { tex: "-{}", key: "-" } : { tex: "-", key: "-" };
  }
  if (c === '"') {
    const q = /^$|[\s([{]/.test(prev) ? "``" : "''";
    return { tex: q, key: q };
  }
  if (c === "'" && next === "'") return { tex: "'{}", key: "'" };
  // `!` and `?` before a backtick would make ¡ and ¿; the backtick is escaped, so no ligature.
  const esc = ASCII_ESCAPES[c];
  return esc ? { tex: esc, key: esc } : { tex: c, key: c };
}

/** An accented Latin letter (after NFD), or null when a mark has no OT1 accent. */
function accented(decomposed: string): Atom | null {
  const [base, ...marks] = [...decomposed];
  if (!/^[A-Za-z]$/.test(base)) return null;
  let tex = base, key = base;
  const dotless = base === "i" || base === "j";
  for (const m of marks) {
    const cmd = ACCENTS[m];
    if (m === "\u0328") continue; // ogonek: not in OT1
    if (!cmd) return null;
    const below = cmd === "c" || cmd === "d" || cmd === "b";
    if (tex === base && dotless && !below) tex = key = `\\${base}{}`;
    tex = `\\${cmd}{${tex}}`;
  }
  return { tex, key };
}

/** The atoms of one non-ASCII character. */
function unicodeAtoms(c: string): Atom[] {
  const glyph = GLYPHS[c];
  if (glyph !== undefined) return [{ tex: glyph, key: glyph }];
  const translit = TRANSLITERATIONS[c];
  if (translit !== undefined) return latexAtoms(translit);
  if (INVISIBLE.test(c)) return [];
  if (/^\p{Zs}$/u.test(c)) return latexAtoms(" ");
  const nfd = c.normalize("NFD");
  if (nfd !== c) {
    const a = accented(nfd);
    if (a) return [a];
  }
  const nfkd = c.normalize("NFKD");
  if (nfkd !== c && nfkd !== nfd && [...nfkd].every((x) => x.codePointAt(0)! < 0x80)) {
    return latexAtoms(nfkd);
  }
  return latexAtoms(codePointText(c));
}

/**
 * The atoms of a text: whitespace (line breaks included) collapsed to single spaces and trimmed;
 * a space is the atom `" "`.
 *
 * @example
 * ```ts
 * latexAtoms("a_−1").map((a) => a.tex); // ["a", "\\_", "$-$", "1"]
 * ```
 */
export function latexAtoms(text: string): Atom[] {
  const chars = [...text.replace(/\s+/g, " ").trim()];
  const out: Atom[] = [];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    const code = c.codePointAt(0)!;
    if (c === " ") out.push({ tex: " ", key: " " });
    else if (code >= 0x20 && code < 0x7F) {
      out.push(asciiAtom(c, chars[i - 1] ?? "", chars[i + 1] ?? "", chars[i + 2] ?? ""));
    } else if (code < 0xA0) out.push(...latexAtoms(codePointText(c)));
    else out.push(...unicodeAtoms(c));
  }
  return out;
}

/**
 * Text as LaTeX (see the module doc): ASCII only, specials escaped, Unicode mapped.
 *
 * @example
 * ```ts
 * latexEscape("50% of a_b"); // "50\\% of a\\_b"
 * latexEscape("A − B ≤ 2×"); // "A $-$ B $\\le$ 2$\\times$"
 * latexEscape("模型"); // "[U+6A21][U+578B]"
 * ```
 */
export function latexEscape(text: string): string {
  return latexAtoms(text).map((a) => a.tex).join("");
}

/**
 * Every distinct width key the atoms can have: printable ASCII (escaped) and every glyph of the
 * Unicode map. The metrics table (`metrics.ts`) has a width for each.
 *
 * @example
 * ```ts
 * latexWidthKeys().includes("$-$"); // true
 * ```
 */
export function latexWidthKeys(): string[] {
  const keys = new Set<string>([" ", "-", "-{}", "'", "``", "''", "\\i{}", "\\j{}"]);
  for (let c = 0x21; c < 0x7F; c++) {
    const ch = String.fromCharCode(c);
    if (ch !== '"') keys.add(ASCII_ESCAPES[ch] ?? ch);
  }
  keys.add(LATEX_MINUS);
  for (const g of Object.values(GLYPHS)) keys.add(g);
  keys.delete("-{}");
  return [...keys].sort();
}
