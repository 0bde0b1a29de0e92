import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import type { Anvil } from "../../chain/anvil.ts";
import { freePort } from "../../internal/freePort.ts";
import { stopProcess } from "../../internal/process.ts";
import type { IndexerBuildsReport, PruneResult } from "../../platform/indexerUpgrade.ts";
import { runCli } from "../cli/run.ts";
import { createChain, devAccount } from "../helpers/chain.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { type SendGridStandIn, startSendGridStandIn } from "../helpers/sendGridStandIn.ts";
import {
  exitCode,
  logLines,
  privatePorts,
  type Service,
  startService,
  waitForLine,
} from "../helpers/service.ts";
import { createInvoiceOn, waitForInvoiceStatus } from "../helpers/serviceInvoice.ts";
import { mainnetSettings, startUpstreamBase } from "../helpers/upstreamBase.ts";
import { EVENT_MS } from "../helpers/waits.ts";
import { startWebhookReceiver } from "../helpers/webhookReceiver.ts";

/**
 * docs/operations.md "Upgrades" with `npm start` itself (mainnet mode, anvil A playing Base):
 * the new release differs from the running one by an indexer setting (PONDER_POLLING_INTERVAL,
 * part of the build's hash like its sources and Ponder's version), so its `PROCESSES=indexer npm
 * start` beside the running release names another schema and builds it there; nothing in its
 * start-up touches the running build (still live, current until the switch, and serving); then
 * `remit indexer wait`, the new release's `PROCESSES=api,worker npm start` on the same schema, the
 * old release stopped, and `remit indexer prune`. test/hardening/upgradeWithoutGap.test.ts pays
 * invoices throughout, the new backfill held.
 */
describe("an upgrade with npm start: PROCESSES=indexer beside the running release", () => {
  let dir: string;
  let upstream: Anvil;
  let sendGrid: SendGridStandIn;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let database: TestDatabase;
  const services: Service[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "remit-upgrade-npm-"));
    upstream = await startUpstreamBase({
      genesisFile: inject("usdcGenesisFile"),
      dataDir: path.join(dir, "upstream"),
      port: await freePort(),
      blockTime: 1,
    });
    sendGrid = await startSendGridStandIn(path.join(dir, "sendgrid"));
    receiver = await startWebhookReceiver();
    database = await createTestDatabase();
  });
  afterAll(async () => {
    for (const service of services) await stopProcess(service.child, "SIGKILL");
    await receiver?.stop();
    await sendGrid?.stop();
    await upstream?.stop();
    await database?.drop();
    await rm(dir, { recursive: true, force: true });
  });

  const start = async (name: string, env: NodeJS.ProcessEnv) => {
    const { env: ports, apiUrl } = await privatePorts();
    const service = startService({ ...ports, DATA_DIR: path.join(dir, name), ...env });
    services.push(service);
    return { service, apiUrl, ports };
  };
  const schemaOf = async (service: Service) => {
    await waitForLine(service, /"msg":"indexer schema"/, EVENT_MS);
    return String(logLines(service.output()).find((line) => line.msg === "indexer schema")?.schema);
  };
  const stop = async (service: Service) => {
    service.child.kill("SIGINT");
    expect(await exitCode(service)).toBe(0);
  };

  test("the new build indexes beside the old one, takes over, and the old one is dropped", async () => {
    const chain = createChain(upstream.url);
    // Both releases on one Postgres of their own (the database's owner runs everything here;
    // docs/operations.md's two roles are tested in test/modes/mainnetMode.test.ts).
    const ownerUrl = database.url;
    const settings = {
      ...mainnetSettings(upstream.url, 0n, sendGrid.apiUrl),
      DATABASE_URL: ownerUrl,
      ALLOW_DATABASE_OWNER: "true",
    };
    const old = await start("old", { ...settings, PONDER_POLLING_INTERVAL: "250" });
    await waitForLine(old.service, /healthy in/, EVENT_MS);
    const oldSchema = await schemaOf(old.service);
    const indexerCli = async <T>(...args: string[]): Promise<T> => {
      const result = await runCli(["indexer", ...args, "--database-url", ownerUrl]);
      expect(result.code, result.stderr).toBe(0);
      return JSON.parse(result.stdout) as T;
    };
    const pay = async (apiUrl: string) => {
      const invoice = await createInvoiceOn(apiUrl, receiver.url);
      await chain.payUsdc(devAccount(2), invoice.deposit_address, 150_000_000n);
      await waitForInvoiceStatus(apiUrl, invoice.invoice_id, "paid", EVENT_MS);
      return invoice;
    };
    const before = await pay(old.apiUrl);

    // The new release: the same settings but one, on the running release's database.
    const next = { ...settings, PONDER_POLLING_INTERVAL: "300" };
    const newIndexer = await start("new-indexer", { ...next, PROCESSES: "indexer" });
    const newSchema = await schemaOf(newIndexer.service);
    expect(newSchema).not.toBe(oldSchema);
    await waitForLine(newIndexer.service, /running indexer/, EVENT_MS);
    // The old release serves on, its build untouched.
    const during = await pay(old.apiUrl);
    const building = await indexerCli<IndexerBuildsReport>("status");
    expect(building.builds.find((b) => b.schema === oldSchema)).toMatchObject({
      ready: true,
      live: true,
    });

    const switched = await indexerCli<IndexerBuildsReport>("wait", newSchema, "--timeout", "300");
    expect(switched.views).toBe(newSchema);
    expect(switched.builds.find((b) => b.schema === oldSchema)).toMatchObject({
      current: false,
      live: true,
    });

    const newApp = await start("new-app", { ...next, PROCESSES: "api,worker" });
    await waitForLine(newApp.service, /healthy in/, EVENT_MS);
    expect(await schemaOf(newApp.service)).toBe(newSchema);
    await stop(old.service);
    for (const invoice of [before, during])
      await waitForInvoiceStatus(newApp.apiUrl, invoice.invoice_id, "paid", EVENT_MS);
    await pay(newApp.apiUrl);

    const pruned = await indexerCli<PruneResult>("prune");
    expect(pruned.dropped).toEqual([oldSchema]);
    const after = await indexerCli<IndexerBuildsReport>("status");
    expect(after.views).toBe(newSchema);
    expect(after.builds.map((b) => b.schema)).toEqual([newSchema]);
    const events = new pg.Client({ connectionString: ownerUrl });
    await events.connect();
    try {
      const { rows } = await events.query<{ invoice_id: string; n: number }>(
        "select invoice_id, count(*)::int as n from app.payment_events group by invoice_id",
      );
      expect(rows.map((row) => row.n)).toEqual([1, 1, 1]);
    } finally {
      await events.end();
    }
    for (const service of [newApp.service, newIndexer.service]) await stop(service);
  }, 600_000);
});
