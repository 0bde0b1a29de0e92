import path from "node:path";
import { expect, test } from "vitest";
import { projectRoot } from "../internal/projectRoot.ts";
import { npmStartNodeArgs } from "./startCommand.ts";

test("benchmarks start the service with package.json's own start arguments", () => {
  const args = npmStartNodeArgs();
  // The bundling launcher, not TypeScript through tsx: nothing is compiled on the start path.
  expect(args.at(-1)).toBe(path.join(projectRoot, "platform/launch.mjs"));
  expect(args).not.toContain("tsx");
  // The supervisor's V8 flag (docs/operations.md, "Memory") reaches the benchmarked process.
  expect(args.some((arg) => arg.startsWith("--max-semi-space-size="))).toBe(true);
});
