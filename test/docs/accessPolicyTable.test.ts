import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { policyTableMarkdown } from "../../domain/accessPolicy.ts";
import { projectRoot } from "../../internal/projectRoot.ts";

/** A table's rows with each cell's padding collapsed: an editor re-aligning columns changes nothing. */
const rows = (markdown: string) =>
  markdown
    .trim()
    .split("\n")
    .map((line) =>
      line
        .split("|")
        .map((cell) => cell.trim().replace(/^-+$/, "---"))
        .join("|"),
    );

test("docs/api.md's 'Who may call what' table is the declared policy (domain/accessPolicy.ts)", () => {
  const doc = readFileSync(path.join(projectRoot, "docs/api.md"), "utf8");
  const start = doc.indexOf("<!-- policy table");
  const end = doc.indexOf("<!-- end of policy table -->");
  expect(start).toBeGreaterThan(0);
  expect(end).toBeGreaterThan(start);
  const table = doc.slice(doc.indexOf("\n", start) + 1, end);
  expect(rows(table)).toEqual(rows(policyTableMarkdown()));
});
