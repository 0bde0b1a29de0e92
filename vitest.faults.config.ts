import { defineConfig } from "vitest/config";

/** `npm run test:faults`: the fault suite (faults/), one scenario at a time. */
export default defineConfig({
  test: {
    globalSetup: ["./faults/report.ts"],
    include: ["faults/**/*.test.ts"],
    // Each scenario runs the whole service and a chain; in parallel they would time each other out.
    fileParallelism: false,
    maxWorkers: 1,
    pool: "forks",
    testTimeout: 600_000,
    hookTimeout: 120_000,
  },
});
