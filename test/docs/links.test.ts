import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * The README and docs/ link only inside the repository: every markdown link is a relative path
 * to a file that exists (and, with an anchor, to a heading that exists), never an external URL.
 * The README stays a short front door.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const MAX_README_LINES = 200;
/** A reference definition, `[label]: target`. */
const DEFINITION = /^\s{0,3}\[[^\]]+\]:\s*(\S+)/;

type Link = { line: number; target: string };

/**
 * The text outside fenced code blocks, line by line (blanked, not cut, so line numbers hold);
 * inline code spans are blanked too unless `keepCodeSpans`.
 */
function proseLines(markdown: string, keepCodeSpans = false): string[] {
  let fence: string | null = null;
  return markdown.split("\n").map((line) => {
    const opening = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== null) {
      if (opening !== undefined && opening[0] === fence[0] && opening.length >= fence.length) {
        fence = null;
      }
      return "";
    }
    if (opening !== undefined) {
      fence = opening;
      return "";
    }
    return keepCodeSpans ? line : line.replace(/(`+)[\s\S]*?\1/g, "");
  });
}

/** Inline links and images `[text](target)`, reference definitions `[x]: target`, autolinks. */
function findLinks(markdown: string): Link[] {
  const links: Link[] = [];
  proseLines(markdown).forEach((text, index) => {
    const line = index + 1;
    for (const match of text.matchAll(/\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ line, target: (match[1] ?? "").replace(/^<|>$/g, "") });
    }
    const definition = DEFINITION.exec(text)?.[1];
    if (definition !== undefined) links.push({ line, target: definition });
    for (const match of text.matchAll(/<((?:https?|mailto):[^>\s]+)>/g)) {
      links.push({ line, target: match[1] ?? "" });
    }
  });
  return links;
}

/** Bare URLs in prose, which GitHub turns into links too. */
function bareUrls(markdown: string): Link[] {
  const urls: Link[] = [];
  proseLines(markdown).forEach((text, index) => {
    if (DEFINITION.test(text)) return;
    const withoutLinks = text.replace(/\]\([^)]*\)/g, "]()").replace(/<[^>\s]*>/g, "");
    for (const match of withoutLinks.matchAll(/\b(?:https?:\/\/|www\.)[^\s<>)\]]+/gi)) {
      // As on GitHub, trailing punctuation ends the sentence, not the URL.
      urls.push({ line: index + 1, target: match[0].replace(/[.,:;!?'"]+$/, "") });
    }
  });
  return urls;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[`*]/g, "")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "")
    .replace(/ /g, "-");
}

function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const text of proseLines(markdown, true)) {
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(text)?.[1];
    if (heading === undefined) continue;
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

/** Every problem with the links of one markdown file, as readable strings (none: all good). */
function linkProblems(file: string, markdown: string, read: (file: string) => string): string[] {
  const where = (link: Link) => `${path.relative(root, file)}:${link.line}: ${link.target}`;
  const problems = bareUrls(markdown).map((url) => `${where(url)} is a bare external URL`);
  for (const link of findLinks(markdown)) {
    if (/^https?:/i.test(link.target)) {
      problems.push(`${where(link)} is an absolute http(s) URL`);
      continue;
    }
    if (/^[a-z][a-z0-9+.-]*:/i.test(link.target) || link.target.startsWith("/")) {
      problems.push(`${where(link)} is not a relative path`);
      continue;
    }
    const [pathPart = "", anchor] = link.target.split("#", 2);
    const target = pathPart === "" ? file : path.resolve(path.dirname(file), decodeURI(pathPart));
    if (target !== file && !existsSync(target)) {
      problems.push(`${where(link)} does not exist`);
      continue;
    }
    if (anchor !== undefined && anchor !== "" && target.endsWith(".md")) {
      const content = target === file ? markdown : read(target);
      if (!anchors(content).has(decodeURIComponent(anchor))) {
        problems.push(`${where(link)} names no heading of ${path.relative(root, target)}`);
      }
    }
  }
  return problems;
}

const readText = (file: string): string => readFileSync(file, "utf8");
const docsDir = path.join(root, "docs");
const documents = [
  path.join(root, "README.md"),
  ...readdirSync(docsDir)
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => path.join(docsDir, name)),
];

describe("README.md and docs/", () => {
  it("has documents to check", () => {
    expect(documents.length).toBeGreaterThan(1);
    expect(findLinks(readText(path.join(root, "README.md"))).length).toBeGreaterThan(0);
  });

  it.each(documents.map((file) => [path.relative(root, file), file]))(
    "%s links only to files and headings in the repository",
    (_name, file) => {
      expect(linkProblems(file, readText(file), readText)).toEqual([]);
    },
  );

  it(`README.md has at most ${MAX_README_LINES} lines`, () => {
    const lines = readText(path.join(root, "README.md")).replace(/\n$/, "").split("\n");
    expect(lines.length).toBeLessThanOrEqual(MAX_README_LINES);
  });
});

describe("the link check itself", () => {
  const file = path.join(docsDir, "example.md");
  const sample = [
    "# Example",
    "",
    "## Settlement (sweeps)",
    "",
    "[home](../README.md), [here](#settlement-sweeps), [folder](../test/), [self](#example)",
    "[gone](missing.md) and [bad anchor](../README.md#no-such-heading)",
    "[external](https://example.com/page) and [mail](mailto:a@example.com)",
    "Bare: https://example.org/x, and in code: `https://pay.example.com/w.js`",
    "```html",
    '<script src="https://pay.example.com/w.js"></script> [in code](nowhere.md)',
    "```",
    "[ref]: https://example.net",
  ].join("\n");

  it("accepts good links and reports each broken or external one", () => {
    expect(linkProblems(file, sample, readText)).toEqual([
      "docs/example.md:8: https://example.org/x is a bare external URL",
      "docs/example.md:6: missing.md does not exist",
      "docs/example.md:6: ../README.md#no-such-heading names no heading of README.md",
      "docs/example.md:7: https://example.com/page is an absolute http(s) URL",
      "docs/example.md:7: mailto:a@example.com is not a relative path",
      "docs/example.md:12: https://example.net is an absolute http(s) URL",
    ]);
  });

  it("derives GitHub's anchors from headings", () => {
    expect([
      ...anchors("# A `code` title\n## Start-up: what `npm start` does\n## A\n## A"),
    ]).toEqual(["a-code-title", "start-up-what-npm-start-does", "a", "a-1"]);
  });
});
