/**
 * Test helper of the layer test: a small TypeScript lexer that tells code, comments and
 * literals apart, and a word splitter for identifiers and literal text.
 *
 * {@link lex} blanks comments (`//`, `/* *\/`, JSDoc) and the bodies of string, template and
 * regex literals in a copy of the source (same length, newlines kept, so offsets and line
 * numbers still hold) and returns the literals beside it. A regex literal misread as a
 * division stays code, so its words are still seen: a mistake errs on the side of finding a
 * name.
 * @module
 */

/** A string, template or regex literal of the source. */
export interface Literal {
  /** Offset of the opening delimiter. */
  start: number;
  kind: "string" | "template" | "regex";
  /** The raw text between the delimiters (a template's `${…}` parts as `${}`). */
  text: string;
  /** A template with `${…}` parts: its value is known only at run time. */
  computed: boolean;
}

/** The source with comments and literal bodies blanked, and the literals. */
export interface Lexed {
  code: string;
  literals: Literal[];
}

/** Words after which a `/` starts a regex literal, not a division. */
const BEFORE_REGEX = new Set([
  "return",
  "typeof",
  "instanceof",
  "in",
  "of",
  "new",
  "delete",
  "void",
  "throw",
  "case",
  "do",
  "else",
  "yield",
  "await",
]);

/** The characters that may start a comment or literal, or close a template's `${…}`. */
const SPECIAL = /[\/"'`{}]/g;

/** `s` with every character but newlines turned into a space. */
const blank = (s: string) =>
  s.includes("\n")
    ? s.split("\n").map((l) => " ".repeat(l.length)).join("\n")
    : " ".repeat(s.length);

/** Split `source` into code, comments and literals (see the module doc). */
export function lex(source: string): Lexed {
  const out: string[] = [];
  const literals: Literal[] = [];
  const templates: { literal: Literal; depth: number }[] = []; // open `${…}` parts
  let depth = 0; // open braces in code
  let last = ""; // the last significant code character, or word
  let i = 0;
  const n = source.length;

  // Reads template text from `i` up to its end or to the next `${`; `literal` collects it.
  const templateText = (literal: Literal) => {
    const from = i;
    while (i < n && source[i] !== "`" && !(source[i] === "$" && source[i + 1] === "{")) {
      i += source[i] === "\\" ? 2 : 1;
    }
    literal.text += source.slice(from, i);
    out.push(blank(source.slice(from, i)));
    if (source[i] === "`") {
      out.push("`");
      i++;
      last = "`";
    } else if (i < n) {
      literal.computed = true;
      literal.text += "${}";
      out.push("${");
      i += 2;
      templates.push({ literal, depth: ++depth });
      last = "{";
    }
  };

  while (i < n) {
    const c = source[i];
    const next = source[i + 1];
    if (c === "/" && next === "/") {
      const end = source.indexOf("\n", i);
      const stop = end < 0 ? n : end;
      out.push(blank(source.slice(i, stop)));
      i = stop;
    } else if (c === "/" && next === "*") {
      const end = source.indexOf("*/", i + 2);
      const stop = end < 0 ? n : end + 2;
      out.push(blank(source.slice(i, stop)));
      i = stop;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < n && source[j] !== c && source[j] !== "\n") j += source[j] === "\\" ? 2 : 1;
      literals.push({ start: i, kind: "string", text: source.slice(i + 1, j), computed: false });
      out.push(c + blank(source.slice(i + 1, j)) + (source[j] === c ? c : ""));
      i = source[j] === c ? j + 1 : j;
      last = c;
    } else if (c === "`") {
      const literal: Literal = { start: i, kind: "template", text: "", computed: false };
      literals.push(literal);
      out.push("`");
      i++;
      templateText(literal);
    } else if (c === "/" && regexMayStart(last)) {
      let j = i + 1;
      let inClass = false;
      while (j < n && source[j] !== "\n" && (inClass || source[j] !== "/")) {
        if (source[j] === "[") inClass = true;
        else if (source[j] === "]") inClass = false;
        j += source[j] === "\\" ? 2 : 1;
      }
      literals.push({ start: i, kind: "regex", text: source.slice(i + 1, j), computed: false });
      out.push("/" + blank(source.slice(i + 1, j)));
      i = j;
      if (source[i] === "/") {
        out.push("/");
        i++;
      }
      last = "a"; // a `/` after a regex literal divides
    } else if (c === "}" && templates.length > 0 && templates.at(-1)!.depth === depth) {
      depth--;
      out.push("}");
      i++;
      templateText(templates.pop()!.literal);
    } else if (c === "{" || c === "}") {
      depth += c === "{" ? 1 : -1;
      out.push(c);
      i++;
      last = c;
    } else {
      // plain code up to the next character that may open or close something
      SPECIAL.lastIndex = i + 1;
      const stop = SPECIAL.exec(source)?.index ?? n;
      const chunk = source.slice(i, stop);
      out.push(chunk);
      i = stop;
      const trimmed = chunk.trimEnd();
      if (trimmed !== "") last = /[A-Za-z0-9_$]+$/.exec(trimmed)?.[0] ?? trimmed.at(-1)!;
    }
  }
  return { code: out.join(""), literals };
}

/** Whether a `/` after `last` (a code character or word) starts a regex literal. */
function regexMayStart(last: string): boolean {
  if (last === "") return true;
  if (/^[A-Za-z0-9_$]/.test(last)) return BEFORE_REGEX.has(last);
  return !")]}\"'`".includes(last);
}

/**
 * The lower-cased words of `text`: split on anything not a letter or digit, on case changes
 * and between letters and digits (`loadBbehDataset` → load bbeh dataset, `gsm8k` → gsm 8 k).
 */
export function words(text: string): string[] {
  return (text.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g) ?? []).map((w) => w.toLowerCase());
}
