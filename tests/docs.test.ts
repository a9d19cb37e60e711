/**
 * The documentation holds together: every relative link of README.md and docs/*.md resolves (the
 * file exists; a `#anchor` is a heading of the target, by GitHub's slugs), every file of docs/
 * is reachable from README.md, every `runlens` command and `deno task main` is linked to its
 * section of the generated docs/cli.md from a written page, and every public entry of the
 * library is listed in docs/api.md. (That docs/cli.md documents every option of every command
 * is tests/cli_reference.test.ts's check.)
 *
 * @module
 */
import assert from "node:assert/strict";
import { dirname, join, normalize, relative } from "node:path";
import GithubSlugger from "github-slugger";
import { REPO_ROOT } from "@runlens/core/data_dir.ts";
import { type Command, invocationOf } from "@runlens/core/command.ts";
import { runlensCommands } from "@runlens/cli/runlens.ts";
import { mainCommand } from "@runlens/cli/main.ts";
import { repoDocEntries } from "@runlens/setup/api_doc.ts";

/** Markdown without its fenced code blocks (their lines become empty: line numbers stay). */
function withoutFences(markdown: string): string {
  let fence: string | null = null;
  return markdown.split("\n").map((line) => {
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === null && open) fence = open[0].repeat(open.length);
    else if (fence !== null && open?.startsWith(fence)) fence = null;
    else if (fence === null) return line;
    return "";
  }).join("\n");
}

/** The text GitHub renders for a heading's inline Markdown (links, code, emphasis). */
function headingText(inline: string): string {
  return inline
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/(`+)(.*?)\1/g, "$2")
    .replace(/\*\*|__|(?<![\w*])\*(?!\s)|(?<!\s)\*(?![\w*])/g, "")
    .trim();
}

/**
 * The anchors of a Markdown text's headings, as GitHub makes them: github-slugger's slug of the
 * rendered text, `-1`, `-2`, … for repeats.
 */
export function anchors(markdown: string): Set<string> {
  const slugger = new GithubSlugger();
  const found = new Set<string>();
  for (const line of withoutFences(markdown).split("\n")) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading !== undefined) found.add(slugger.slug(headingText(heading)));
  }
  return found;
}

/** The link targets of a Markdown text (links and images), outside code blocks and spans. */
export function linkTargets(markdown: string): string[] {
  const text = withoutFences(markdown).replace(/(`+)[^`]*?\1/g, "code");
  return [...text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) =>
    m[1]
  );
}

/** Whether a target leaves the repository's files (a URL, a mail address). */
const external = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

/** A repository path and the anchor of a relative link found in `page`; null for a URL. */
export function resolveLink(
  page: string,
  target: string,
): { path: string; anchor: string | null } | null {
  if (external(target)) return null;
  const [file, anchor = null] = target.split(/#(.*)/s, 2);
  const path = file === "" ? page : normalize(join(dirname(page), decodeURIComponent(file)));
  return { path, anchor: anchor === null ? null : decodeURIComponent(anchor) };
}

/**
 * What is wrong with the relative links of `page` (a repository path) holding `markdown`: a
 * target that does not exist, or an anchor that is no heading of the target. `read` gives a
 * repository file's text (null: no such file; "" for a folder).
 */
export function brokenLinks(
  page: string,
  markdown: string,
  read: (path: string) => string | null,
): string[] {
  const problems: string[] = [];
  for (const target of linkTargets(markdown)) {
    const link = resolveLink(page, target);
    if (link === null) continue;
    const text = link.path.startsWith("..") ? null : read(link.path);
    if (text === null) problems.push(`${page}: ${target}: no file ${link.path}`);
    else if (link.anchor !== null && !anchors(text).has(link.anchor)) {
      problems.push(`${page}: ${target}: no heading #${link.anchor} in ${link.path}`);
    }
  }
  return problems;
}

/** A repository file's text, "" for a folder, null when there is none. */
function readRepo(path: string): string | null {
  try {
    const info = Deno.statSync(join(REPO_ROOT, path));
    if (info.isDirectory) return "";
    return path.endsWith(".md") ? Deno.readTextFileSync(join(REPO_ROOT, path)) : "";
  } catch {
    return null;
  }
}

/** README.md and every page of docs/ (not the generated API reference under docs/api/). */
function pages(): string[] {
  const docs = [...Deno.readDirSync(join(REPO_ROOT, "docs"))]
    .filter((e) => e.isFile && e.name.endsWith(".md"))
    .map((e) => `docs/${e.name}`)
    .sort();
  return ["README.md", ...docs];
}

/** Every file of docs/ (pages and pictures), not docs/api/. */
function docFiles(): string[] {
  return [...Deno.readDirSync(join(REPO_ROOT, "docs"))]
    .filter((e) => e.isFile).map((e) => `docs/${e.name}`).sort();
}

Deno.test("the link checker finds a missing file, a missing anchor, and nothing in code", () => {
  const target = "# Title\n\n## Your own rule\n\n## Your own rule\n\n### `deno task main`\n";
  const read = (path: string) => path === "docs/t.md" ? target : null;
  const page = [
    "[ok](t.md#your-own-rule) [ok](t.md#your-own-rule-1) [ok](t.md#deno-task-main)",
    "[ok](#here) [url](https://example.org/x.md) ![pic](t.md)",
    "## Here",
    "```sh",
    "[in a fence](nowhere.md)",
    "```",
    "`[in a span](nowhere.md)`",
  ].join("\n");
  assert.deepEqual(brokenLinks("docs/p.md", page, (p) => p === "docs/p.md" ? page : read(p)), []);
  assert.deepEqual(
    brokenLinks("docs/p.md", "[a](gone.md) [b](t.md#your-rule) [c](#nowhere)", read),
    [
      "docs/p.md: gone.md: no file docs/gone.md",
      "docs/p.md: t.md#your-rule: no heading #your-rule in docs/t.md",
      "docs/p.md: #nowhere: no file docs/p.md",
    ],
  );
  assert.deepEqual(brokenLinks("README.md", "[up](../outside.md)", () => ""), [
    "README.md: ../outside.md: no file ../outside.md",
  ]);
});

Deno.test("anchors are GitHub's: code, links and punctuation dropped, repeats numbered", () => {
  const md = "## The `lenient` scorer: answer types\n## [Link](x.md) and *it*\n## A\n## A\n" +
    "### `deno run --allow-all lib/cli/make_manifest.ts`\n```\n## not a heading\n```\n";
  assert.deepEqual([...anchors(md)], [
    "the-lenient-scorer-answer-types",
    "link-and-it",
    "a",
    "a-1",
    "deno-run---allow-all-libclimake_manifestts",
  ]);
});

Deno.test("every relative link of README.md and docs/*.md resolves, anchors included", () => {
  const problems = pages().flatMap((page) => brokenLinks(page, readRepo(page)!, readRepo));
  assert.deepEqual(problems, []);
});

Deno.test("every file of docs/ is reachable from README.md", () => {
  const seen = new Set<string>(["README.md"]);
  const queue = ["README.md"];
  while (queue.length > 0) {
    const page = queue.shift()!;
    for (const target of linkTargets(readRepo(page) ?? "")) {
      const path = resolveLink(page, target)?.path;
      if (path === undefined || seen.has(path)) continue;
      seen.add(path);
      if (path.endsWith(".md")) queue.push(path);
    }
  }
  const orphans = docFiles().filter((f) => !seen.has(f));
  assert.deepEqual(orphans, [], "link each from README.md or a page it reaches");
});

/** The anchor of a command's section in docs/cli.md. */
function cliAnchor(command: Command<unknown>): string {
  return new GithubSlugger().slug(invocationOf(command));
}

Deno.test("every runlens command and deno task main is linked to its docs/cli.md section", async () => {
  const linked = new Set<string>();
  for (const page of pages().filter((p) => p !== "docs/cli.md")) {
    for (const target of linkTargets(readRepo(page)!)) {
      const link = resolveLink(page, target);
      if (link?.path === "docs/cli.md" && link.anchor) linked.add(link.anchor);
    }
  }
  const commands = [...await runlensCommands(), mainCommand as Command<unknown>];
  const missing = commands.filter((c) => !linked.has(cliAnchor(c))).map(invocationOf);
  assert.deepEqual(missing, [], "link each from docs/guide.md's table of commands");
});

Deno.test("every public entry of the library is listed in docs/api.md", () => {
  const api = readRepo("docs/api.md")!;
  const entries = repoDocEntries();
  assert.ok(entries.length > 0);
  for (const entry of entries) assert.ok(api.includes(`\`${entry}\``), `docs/api.md: ${entry}`);
});

Deno.test("the checks see the real pages: README links into docs/, relative to the repository", () => {
  const targets = linkTargets(readRepo("README.md")!);
  assert.ok(targets.includes("docs/cli.md#deno-task-runlens-score"));
  assert.equal(relative(REPO_ROOT, join(REPO_ROOT, "docs", "..", "README.md")), "README.md");
});
