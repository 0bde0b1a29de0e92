import path from "node:path";
import { expect, test } from "vitest";
import { projectRoot } from "../internal/projectRoot.ts";
import { npmStartNodeArgs } from "./startCommand.ts";

test("benchmarks start the service with package.json's own start arguments", () => {
  const args = npmStartNodeArgs();
  expect(args.at(-1)).toBe(path.join(projectRoot, "platform/start.ts"));
  expect(args).toContain("tsx");
  // The supervisor's V8 flag (docs/operations.md, "Memory") reaches the benchmarked process.
  expect(args.some((arg) => arg.startsWith("--max-semi-space-size="))).toBe(true);
});
