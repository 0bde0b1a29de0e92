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
    // A file's beforeAll starts a whole stack (database, migrations, API, worker, Ponder). With
    // two files at once on two cores that took more than 60 s in CI once (webhookDelivery): a
    // hook's time is set-up, not a figure; start-up speed is measured in bench/startup.ts.
    hookTimeout: 180_000,
  },
});
