import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import type { Account } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { devAccount } from "../../chain/deployUsdc.ts";
import { audit } from "../../faults/audit.ts";
import { type LoadResult, startLoad } from "../../faults/load.ts";
import { waitFor } from "../../internal/process.ts";
import { newMnemonic } from "../../keys/hdWallet.ts";
import type { IndexerBuildsReport, PruneResult } from "../../platform/indexerUpgrade.ts";
import { runCli } from "../cli/run.ts";
import { useChainForFile } from "../helpers/chain.ts";
import { startCountingRpc } from "../helpers/countingRpc.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import {
  type Settings,
  startApi,
  startIndexer,
  startWorker,
  type TestProcess,
} from "../helpers/processes.ts";
import { waitForInvoiceStatus } from "../helpers/serviceInvoice.ts";
import { EVENT_MS } from "../helpers/waits.ts";
import { startWebhookReceiver } from "../helpers/webhookReceiver.ts";

/**
 * Two releases whose indexers are different builds. In production the schema's name is a hash
 * of what shapes the index (platform/indexerSchema.ts: the indexer's sources, Ponder's version,
 * its settings), so a release that changes any of it writes a schema of its own; here each
 * release is given its schema's name, the new one's Ponder reaching the chain through a proxy
 * that can hold its backfill.
 */
const OLD = "idx_release_1";
const NEW = "idx_release_2";

/**
 * An upgrade as docs/operations.md ("Upgrades") tells an operator to run it: the new release's
 * indexer started beside the running release on the same database builds its own schema while
 * the old one serves; `remit indexer wait` returns once it has taken over (Ponder points the
 * `indexer` views at it); the new API and worker start, the old release stops, `remit indexer
 * prune` drops the old build. Invoices are paid before, during the new build's backfill, while
 * both releases run (two indexers write, two triggers queue reconciles) and after: each is
 * counted once, with one event, one webhook delivery and one merchant email.
 */
describe("an upgrade whose indexer builds beside the running one", () => {
  const chain = useChainForFile();
  let database: TestDatabase;
  let dataDir: string;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let newRpc: Awaited<ReturnType<typeof startCountingRpc>>;
  const running = new Set<TestProcess>();
  const started = <T extends TestProcess>(process: T): T => {
    running.add(process);
    return process;
  };
  const stop = async (process: TestProcess) => {
    await process.stop();
    running.delete(process);
  };

  beforeAll(async () => {
    await chain.snapshot();
    database = await createTestDatabase();
    dataDir = await mkdtemp(path.join(tmpdir(), "remit-upgrade-"));
    receiver = await startWebhookReceiver();
    newRpc = await startCountingRpc(chain.url);
  });
  afterAll(async () => {
    await Promise.all([...running].map((process) => process.stop()));
    await receiver?.stop();
    await newRpc?.stop();
    await database?.drop();
    await chain.revert();
    await rm(dataDir, { recursive: true, force: true });
  });

  const indexerCli = async <T>(...args: string[]): Promise<T> => {
    const result = await runCli(["indexer", ...args, "--database-url", database.url]);
    expect(result.code, result.stderr).toBe(0);
    return JSON.parse(result.stdout) as T;
  };
  const status = () => indexerCli<IndexerBuildsReport>("status");
  const build = (report: IndexerBuildsReport, schema: string) =>
    report.builds.find((b) => b.schema === schema);

  test("every payment before, during and after it is detected exactly once", async () => {
    const merchantEmail = `upgrade-${randomUUID()}@example.com`;
    const mnemonic = newMnemonic();
    // The API and the worker as the runtime role, the indexer as the owner (docs/operations.md).
    const release = (indexerSchema: string, rpcUrl = chain.url): Settings => ({
      databaseUrl: database.runtimeUrl,
      rpcUrl,
      mnemonic,
      indexerSchema,
      env: { DATA_DIR: dataDir, SWEEP: "off" },
    });
    const startRelease = async (indexerSchema: string) => {
      const settings = release(indexerSchema);
      const api = started(await startApi({ ...settings, keepManagedWallets: false }));
      // Its emails go to its API's capture endpoint; both APIs write to DATA_DIR's one outbox.
      const worker = started(
        startWorker({
          ...settings,
          env: {
            ...settings.env,
            PORT: String(api.port),
            OPS_PORT: String(api.opsPort),
            BASE_URL: api.url,
            PAY_URL: api.url,
          },
        }),
      );
      // Its trigger on its build's table queues a reconcile for every transfer indexed there.
      // (Not its start-up catch-up's log: the catch-up job has one key for every worker, and
      // the old release's worker may take it; it then catches up its own build.)
      await waitFor(
        "the worker's trigger on its build",
        async () =>
          (
            await sql<{ n: number }>`
              select count(*)::int as n from pg_trigger t join pg_class c on c.oid = t.tgrelid
              join pg_namespace n on n.oid = c.relnamespace
              where n.nspname = ${indexerSchema} and c.relname = 'usdc_transfer'
                and t.tgname = 'remit_reconcile'`.execute(database.db)
          ).rows[0]?.n === 1,
        { timeoutMs: EVENT_MS },
      );
      return { api, worker };
    };

    const loads: LoadResult[] = [];
    /** Invoices created through `apiUrls` and paid by `payer`; resolves once each is paid. */
    const payInvoices = async (apiUrls: string[], payer: Account) => {
      const load = startLoad({
        apiUrls,
        chain,
        merchantEmail,
        webhookUrl: receiver.url,
        payers: [payer],
        creators: 1,
      });
      await load.created(2);
      const result = await load.stop();
      loads.push(result);
      for (const invoice of result.invoices)
        await waitForInvoiceStatus(apiUrls[0] ?? "", invoice.invoiceId, "paid", EVENT_MS);
      return result;
    };

    // The running release.
    const oldIndexer = started(await startIndexer({ ...release(OLD), databaseUrl: database.url }));
    const old = await startRelease(OLD);
    await payInvoices([old.api.url], devAccount(1));

    // The new release's indexer, beside it, held in its backfill (its eth_getLogs unanswered).
    const releaseBackfill = newRpc.hold((call) => call.method === "eth_getLogs");
    const newIndexerStarting = startIndexer({
      ...release(NEW, newRpc.url),
      databaseUrl: database.url,
    });
    try {
      await waitFor("the new build's backfill", async () => newRpc.calls("eth_getLogs") > 0, {
        timeoutMs: EVENT_MS,
      });
      const during = await payInvoices([old.api.url], devAccount(2));
      // Detected by the old release while the new build was still backfilling, which had
      // taken nothing from it: the views still on the old build, both builds held.
      const building = await status();
      expect(building.views).toBe(OLD);
      expect(build(building, OLD)).toMatchObject({ current: true, ready: true, live: true });
      expect(build(building, NEW)).toMatchObject({ current: false, ready: false, live: true });
      expect(during.payments.length).toBeGreaterThan(0);
    } finally {
      releaseBackfill();
    }
    started(await newIndexerStarting);

    // Ponder points the views at the new build at the end of its backfill; `wait` returns once
    // it has also indexed as far as the old one.
    const switched = await indexerCli<IndexerBuildsReport>("wait", NEW, "--timeout", "300");
    expect(switched.views).toBe(NEW);

    // Both releases run: two indexers write the payments, two triggers queue their reconciles.
    const next = await startRelease(NEW);
    const both = await payInvoices([old.api.url, next.api.url], devAccount(3));
    for (const schema of [OLD, NEW]) {
      const { rows } = await sql<{ triggers: number; transfers: number }>`
        select (select count(*)::int from pg_trigger t join pg_class c on c.oid = t.tgrelid
                join pg_namespace n on n.oid = c.relnamespace
                where n.nspname = ${schema} and c.relname = 'usdc_transfer'
                  and t.tgname = 'remit_reconcile') as triggers,
               (select count(*)::int from ${sql.table(`${schema}.usdc_transfer`)}
                where tx_hash = any(${both.payments.map((p) => p.txHash.toLowerCase())})) as transfers`.execute(
        database.db,
      );
      expect(rows[0], schema).toEqual({ triggers: 1, transfers: both.payments.length });
    }

    // The old release stops; the new one carries on alone.
    await Promise.all([old.worker, old.api, oldIndexer].map(stop));
    await payInvoices([next.api.url], devAccount(4));

    const load: LoadResult = {
      invoices: loads.flatMap((l) => l.invoices),
      payments: loads.flatMap((l) => l.payments),
      retries: loads.reduce((n, l) => n + l.retries, 0),
      errors: {},
    };
    const figures = await audit({
      scenario: "upgrade beside the running release",
      databaseUrl: database.url,
      dataDir,
      merchantEmail,
      load,
      webhooks: receiver.received,
      timeoutMs: EVENT_MS,
    });
    expect(figures.problems).toEqual([]);
    expect(figures.duplicates).toBe(0);
    expect(figures.losses).toBe(0);
    expect(figures.payments_reflected).toBe(load.payments.length);
    expect(figures.webhook_redeliveries).toBe(0);
    expect(figures.emails_sent).toBe(load.invoices.length + figures.webhooks_delivered);
    // Both workers took reconciles: the exactly-once check is not vacuous.
    for (const worker of [old.worker, next.worker])
      expect(worker.output()).toMatch(/Completed task \d+ \(reconcile_deposit/);

    // The old build is dropped, the new one kept; the views point at it.
    const pruned = await indexerCli<PruneResult>("prune");
    expect(pruned.dropped).toEqual([OLD]);
    expect(pruned.kept).toEqual([
      { schema: NEW, reason: "current: the indexer views point at it" },
    ]);
    const after = await status();
    expect(after.views).toBe(NEW);
    expect(after.builds.map((b) => b.schema)).toEqual([NEW]);
    const { rows: watermarks } = await sql<{
      indexer_schema: string;
    }>`select indexer_schema from app.reconcile_watermarks`.execute(database.db);
    expect(watermarks.map((w) => w.indexer_schema)).not.toContain(OLD);
  }, 900_000);
});
