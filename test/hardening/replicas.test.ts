import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { devAccount } from "../../chain/deployUsdc.ts";
import { audit } from "../../faults/audit.ts";
import { startLoad } from "../../faults/load.ts";
import { newMnemonic } from "../../keys/hdWallet.ts";
import { useChainForFile } from "../helpers/chain.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { startApi, startIndexer, startWorker, type TestProcess } from "../helpers/processes.ts";
import { startWebhookReceiver } from "../helpers/webhookReceiver.ts";

/**
 * Scale-out: two API processes and two workers on one Postgres (and the single indexer).
 * Invoices are created through both APIs at once and paid; every email and webhook goes out
 * exactly once, and invoice numbers stay unique and gap-free.
 */
describe("two API and two worker replicas on one database", () => {
  const chain = useChainForFile();
  let database: TestDatabase;
  let dataDir: string;
  const processes: TestProcess[] = [];
  let apis: (TestProcess & { url: string; port: number })[] = [];
  let workers: TestProcess[] = [];
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

  beforeAll(async () => {
    await chain.snapshot();
    database = await createTestDatabase();
    dataDir = await mkdtemp(path.join(tmpdir(), "remit-replicas-"));
    receiver = await startWebhookReceiver();
    const base = {
      databaseUrl: database.url,
      rpcUrl: chain.url,
      mnemonic: newMnemonic(),
      env: { DATA_DIR: dataDir },
    };
    const indexer = await startIndexer(base);
    processes.push(indexer);
    apis = await Promise.all([startApi(base), startApi(base)]);
    processes.push(...apis);
    // Both workers send emails through the first API's capture endpoint (one outbox).
    const [first] = apis;
    workers = [1, 2].map(() =>
      startWorker({
        ...base,
        env: { ...base.env, PORT: String(first?.port), BASE_URL: first?.url, PAY_URL: first?.url },
      }),
    );
    processes.push(...workers);
  });
  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await receiver?.stop();
    await database?.drop();
    await chain.revert();
    await rm(dataDir, { recursive: true, force: true });
  });

  test("no double-sends, no gaps: each email and webhook exactly once", async () => {
    const merchantEmail = `replicas-${randomUUID()}@example.com`;
    const load = startLoad({
      apiUrls: apis.map((api) => api.url),
      chain,
      merchantEmail,
      webhookUrl: receiver.url,
      payers: [devAccount(1), devAccount(2), devAccount(3)],
      creators: 4,
    });
    await load.created(16);
    const result = await load.stop();
    const figures = await audit({
      scenario: "2 APIs + 2 workers",
      databaseUrl: database.url,
      dataDir,
      merchantEmail,
      load: result,
      webhooks: receiver.received,
      timeoutMs: 150_000,
    });
    expect(figures.problems).toEqual([]);
    expect(figures.duplicates).toBe(0);
    expect(figures.losses).toBe(0);
    expect(figures.webhook_redeliveries).toBe(0);
    expect(figures.emails_sent).toBe(result.invoices.length + figures.webhooks_delivered);
    // Both workers took jobs: the double-send check is not vacuous.
    for (const worker of workers)
      expect(worker.output()).toMatch(/Completed task \d+ \(send_email/);
  }, 200_000);
});
