import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    globalSetup: ["./test/globalSetup.ts"],
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**", ".data/**", "faults/**"],
    // One anvil per worker (test/globalSetup.ts): the count must match.
    maxWorkers: 2,
    pool: "forks",
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
