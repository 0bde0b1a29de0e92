import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    globalSetup: ["./test/globalSetup.ts"],
    include: ["**/*.test.ts"],
    // test/postgres/ needs Debian's Postgres tools and PgBouncer: `npm run test:postgres` runs it.
    exclude: ["node_modules/**", ".data/**", "faults/**", "test/postgres/**"],
    // One anvil per worker (test/globalSetup.ts): the count must match.
    maxWorkers: 2,
    pool: "forks",
    // An upper bound, not a figure: a test waits for events (a block, a sweep, an email), and on
    // a machine of this kind 3× slower and loaded a stack test took over 60 s (every figure of
    // speed is measured in bench/, never here).
    testTimeout: 180_000,
    // A file's beforeAll starts a whole stack (database, migrations, API, worker, Ponder). With
    // two files at once on two cores that took more than 60 s in CI once (webhookDelivery): a
    // hook's time is set-up, not a figure; start-up speed is measured in bench/startup.ts.
    hookTimeout: 180_000,
    // `expect.poll` waits for an event a browser or a stack produces (a form's answer, a page's
    // script). Vitest's default of 1 s failed CI once on a loaded machine (a dashboard form's
    // POST took longer); the bound is test/helpers/waits.ts's EVENT_MS, polled every 50 ms.
    expect: { poll: { timeout: 120_000, interval: 50 } },
  },
});
