import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { WEBHOOK_EVENT_FILTERS } from "../../domain/webhookEndpoints.ts";
import { projectRoot } from "../../internal/projectRoot.ts";

/**
 * Every event type an example of the docs names in `--events …` (the CLI) or in an `"events"`
 * array (the API) is one the API takes: docs/cli.md once showed `--events invoice.paid,link.paid`,
 * which the API refuses (there is no `link.paid`; a link's is `link.confirmed`).
 */
test("the docs' examples name only event types the API takes", () => {
  const files = [
    path.join(projectRoot, "README.md"),
    path.join(projectRoot, "clients/typescript/README.md"),
    ...readdirSync(path.join(projectRoot, "docs"))
      .filter((name) => name.endsWith(".md"))
      .map((name) => path.join(projectRoot, "docs", name)),
  ];
  const named: { file: string; type: string }[] = [];
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    for (const [, list = ""] of text.matchAll(/--events[ =]([a-z_]+\.[a-z_.*,]+)/g))
      for (const type of list.split(","))
        named.push({ file: path.relative(projectRoot, file), type });
    for (const [, array = ""] of text.matchAll(/"events"\s*:\s*\[([^\]]*)\]/g))
      for (const [, type = ""] of array.matchAll(/"([^"]+)"/g))
        named.push({ file: path.relative(projectRoot, file), type });
  }
  // The scan finds the examples it judges.
  expect(named.some((n) => n.file === "docs/cli.md")).toBe(true);
  const allowed = new Set<string>(WEBHOOK_EVENT_FILTERS);
  expect(named.filter((n) => !allowed.has(n.type))).toEqual([]);
});
