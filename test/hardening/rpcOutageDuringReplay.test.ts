import { randomUUID } from "node:crypto";
import { type Kysely, sql } from "kysely";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Database } from "../../db/database.ts";
import { jobKey } from "../../domain/jobs.ts";
import { startTcpProxy } from "../../faults/tcpProxy.ts";
import { waitFor } from "../../internal/process.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { EVENT_MS } from "../helpers/waits.ts";
import { startWebhookReceiver } from "../helpers/webhookReceiver.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";

type Json = Record<string, unknown>;

/**
 * After a restart the indexer replays its last blocks: it deletes their transfers and inserts
 * them again. A counted transfer missing from the index sends the reconcile job to the chain to
 * ask whether its transaction is gone. When the worker's RPC is down at that moment, silence
 * is not an answer: nothing may be reversed, and the job must fail so that it is retried.
 */
describe("an indexer replay while the worker's RPC is down", () => {
  const chain = useChainForFile();
  let stack: TestStack;
  let rpc: Awaited<ReturnType<typeof startTcpProxy>>;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

  beforeAll(async () => {
    await chain.snapshot();
    receiver = await startWebhookReceiver();
    const { hostname, port } = new URL(chain.url);
    rpc = await startTcpProxy({ host: hostname, port: Number(port) });
    // The indexer follows the chain directly; only the worker's RPC goes through the proxy.
    stack = await startStack({
      worker: true,
      indexer: true,
      workerRpcUrl: rpc.url,
      env: { SWEEP: "off" },
    });
  });
  afterAll(async () => {
    if (process.env.DEBUG_STACK) console.log("WORKER\n", stack?.worker?.output());
    await stack?.stop();
    await rpc?.stop();
    await receiver?.stop();
    await chain.revert();
  });

  const status = async (id: string) =>
    (await (await stack.request(`/api/invoices/${id}/status`)).json()) as Json;
  const hooksFor = (id: string) =>
    receiver.received.filter((hook) => (JSON.parse(hook.body) as Json).invoice_id === id);
  /** Everything the reconcile job has recorded for the invoice: events, emails, webhooks. */
  const recorded = async (id: string) => {
    const events = await stack.db
      .selectFrom("app.payment_events")
      .select(["id", "type"])
      .where("invoice_id", "=", id)
      .orderBy("created_at")
      .execute();
    const ids = events.map((e) => e.id);
    const [emails, deliveries] = await Promise.all([
      stack.db
        .selectFrom("app.emails")
        .select("id")
        .where("kind", "=", "payment_event")
        .where("invoice_id", "=", id)
        .execute(),
      stack.db
        .selectFrom("app.webhook_deliveries")
        .select("id")
        .where("event_id", "in", ids)
        .execute(),
    ]);
    return {
      events: events.map((e) => e.type),
      emails: emails.length,
      webhooks: deliveries.length,
    };
  };

  test("nothing is reversed, the reconcile is retried, and once the RPC is back the payment stands", async () => {
    const merchant = `replay-${randomUUID()}@example.com`;
    const created = (await (
      await stack.request("/api/invoices", {
        method: "POST",
        json: invoiceRequest({
          merchant_email: merchant,
          webhook_url: receiver.url,
          line_items: [{ description: "Work", quantity: 1, unit_price: "150.00" }],
        }),
      })
    ).json()) as { invoice_id: string; deposit_address: Address };
    const id = created.invoice_id;
    const paid = await chain.payUsdc(devAccount(1), created.deposit_address, 150_000_000n);
    await waitFor("the invoice paid", async () => (await status(id)).status === "paid");
    await stack.waitForEmail((e) => e.to.includes(merchant) && e.subject.includes("paid in full"));
    await waitFor("the paid webhook", async () => hooksFor(id).length === 1);
    expect(await recorded(id)).toEqual({ events: ["invoice.paid"], emails: 1, webhooks: 1 });

    const address = created.deposit_address.toLowerCase();
    const transfers = sql.table(`${stack.indexer?.schema}.usdc_transfer`);
    /**
     * Writes to the indexer's table as Ponder does: in a transaction holding the temp table its
     * live-query trigger records changed tables in.
     */
    const asIndexer = <T>(write: (trx: Kysely<Database>) => Promise<T>) =>
      stack.db.transaction().execute(async (trx) => {
        await sql`create temp table live_query_tables (table_name text primary key) on commit drop`.execute(
          trx,
        );
        return write(trx);
      });
    const reconcileJob = async () =>
      (
        await sql<{ attempts: number; last_error: string | null; locked: boolean }>`
          select attempts, last_error, locked_at is not null as locked from graphile_worker.jobs
          where key = ${jobKey.reconcile(address)}`.execute(stack.db)
      ).rows[0];

    // The RPC goes down, and the replay's first half deletes the counted transfer from the
    // index (its trigger queues the reconcile job).
    await rpc.cut();
    const { rows } = await asIndexer((trx) =>
      sql<{ row: string }>`
        with deleted as (delete from ${transfers} where tx_hash = ${paid.transactionHash} returning *)
        select row_to_json(deleted)::text as row from deleted`.execute(trx),
    );
    const [{ row } = { row: "" }] = rows;
    expect(row).toContain(paid.transactionHash);

    await waitFor(
      "the reconcile job to have run once",
      async () => {
        const job = await reconcileJob();
        return !job || job.last_error !== null;
      },
      { timeoutMs: EVENT_MS },
    );
    expect(await recorded(id)).toEqual({ events: ["invoice.paid"], emails: 1, webhooks: 1 });
    expect(await status(id)).toMatchObject({ status: "paid", paid_amount: "150.00" });

    // Retried with graphile-worker's backoff, failing with the network error each time
    // (`attempts` counts a run from its start: the second one is over once it is unlocked).
    const failing = await waitFor(
      "a second failed attempt",
      async () => {
        const job = await reconcileJob();
        return job && job.attempts >= 2 && !job.locked && job.last_error !== null && job;
      },
      { timeoutMs: EVENT_MS },
    );
    expect(failing.last_error).toMatch(/HTTP request failed/);
    expect(await recorded(id)).toEqual({ events: ["invoice.paid"], emails: 1, webhooks: 1 });

    // The RPC is back: the next attempt hears that the transaction is still mined, changes
    // nothing and looks again (a fresh job under the key) while the replay is under way.
    await rpc.restore();
    await waitFor(
      "a reconcile that reached the chain",
      async () => (await reconcileJob())?.last_error === null,
      { timeoutMs: EVENT_MS },
    );
    expect(await recorded(id)).toEqual({ events: ["invoice.paid"], emails: 1, webhooks: 1 });

    // The replay's second half puts the transfer back: the payment stands, counted once.
    await asIndexer((trx) =>
      sql`insert into ${transfers} select * from json_populate_record(null::${transfers}, ${row}::json)`.execute(
        trx,
      ),
    );
    await waitFor("the reconcile queue to drain", async () => !(await reconcileJob()), {
      timeoutMs: EVENT_MS,
    });
    expect(await status(id)).toMatchObject({
      status: "paid",
      paid_amount: "150.00",
      tx_hash: paid.transactionHash,
    });
    expect(await recorded(id)).toEqual({ events: ["invoice.paid"], emails: 1, webhooks: 1 });
    expect(hooksFor(id)).toHaveLength(1);
    const emails = (await stack.outbox()).filter((e) => e.to.includes(merchant));
    expect(emails.map((e) => e.subject)).toEqual([expect.stringContaining("paid in full")]);
  });
});
