import { defineConfig } from "vitest/config";
import base from "./vitest.config.ts";

/** The spec's groups of tests (invoice → paid → webhook → sweep; refunds; schedules). */
const groups = [
  "test/db/postgresServer.test.ts",
  "test/payments/invoicePayments.test.ts",
  "test/sweeps/sweeps.test.ts",
  "test/refunds/refunds.test.ts",
  "test/schedules/schedules.test.ts",
];

/**
 * `npm run test:postgres` (REMIT_TEST_POSTGRES=debian): the groups on Debian's packaged server
 * with the owner and runtime roles, the runtime role's security tests, the invoice search, and
 * test/postgres/ (the transaction pooler refused, backup and restore, connections per process),
 * which need Debian's tools. `npm run test:pooler` (REMIT_TEST_POOLER=pgbouncer too): the groups again,
 * every connection through PgBouncer in session mode.
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: process.env.REMIT_TEST_POOLER
      ? groups
      : [
          ...groups,
          "test/security/runtimeRoleRewritesInvoiceRecord.test.ts",
          "test/security/definerFunctionShadowedByTempView.test.ts",
          // The search reads the index's statistics through a SECURITY DEFINER function.
          "test/lists/invoiceSearch.test.ts",
          "test/postgres/**/*.test.ts",
        ],
    exclude: ["node_modules/**", ".data/**", "faults/**"],
  },
});
