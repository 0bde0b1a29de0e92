import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { waitFor } from "../../internal/process.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { waitForInvoiceStatus } from "../helpers/serviceInvoice.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { EVENT_MS } from "../helpers/waits.ts";
import { startWebhookReceiver } from "../helpers/webhookReceiver.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";

type Json = Record<string, unknown>;

/**
 * Deposit addresses are public, and anyone can send them a few units of USDC. Remit used to
 * flip a `paid` invoice to `excess` for a single unit, and to send the merchant an email and a
 * webhook for every increase, however small. Now extra payments after an exact payment that add
 * up to less than EXCESS_DUST_THRESHOLD (0.01) are held and leave `paid` as it is, and dust
 * that changes no status is coalesced: no email or webhook of its own.
 */
describe("dust sent to an invoice's deposit address", () => {
  const chain = useChainForFile();
  let stack: TestStack;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

  beforeAll(async () => {
    await chain.snapshot();
    receiver = await startWebhookReceiver();
    stack = await startStack({ worker: true, indexer: true, env: { SWEEP: "off" } });
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.stop();
    await chain.revert();
  });

  const create = async () =>
    (await (
      await stack.request("/api/invoices", {
        method: "POST",
        json: invoiceRequest({
          line_items: [{ description: "Work", quantity: 1, unit_price: "150.00" }],
          webhook_url: receiver.url,
        }),
      })
    ).json()) as { invoice_id: string; deposit_address: Address };
  const status = async (id: string) =>
    (await (await stack.request(`/api/invoices/${id}/status`)).json()) as Json;
  /** Once reconcile counted `paid_amount`: its events, emails and webhooks are in the same commit. */
  const counted = (id: string, paidAmount: string) =>
    waitFor(`paid_amount ${paidAmount}`, async () => {
      const body = await status(id);
      return body.paid_amount === paidAmount && body;
    });
  const notices = async (id: string) => {
    const events = await stack.db
      .selectFrom("app.payment_events")
      .select(["id", "type", "paid_amount"])
      .where("invoice_id", "=", id)
      .orderBy("created_at")
      .execute();
    const emails = await stack.db
      .selectFrom("app.emails")
      .select("id")
      .where("kind", "=", "payment_event")
      .where("invoice_id", "=", id)
      .execute();
    const ids = events.map((e) => e.id);
    const webhooks = ids.length
      ? await stack.db
          .selectFrom("app.webhook_deliveries")
          .select("id")
          .where("event_id", "in", ids)
          .execute()
      : [];
    return {
      events: events.map((e) => [e.type, e.paid_amount]),
      emails: emails.length,
      webhooks: webhooks.length,
    };
  };

  test("a paid invoice stays paid, and nobody is told, until the extra is worth a cent", async () => {
    const invoice = await create();
    await chain.payUsdc(devAccount(1), invoice.deposit_address, 150_000_000n);
    await waitForInvoiceStatus(stack.api.url, invoice.invoice_id, "paid", EVENT_MS);

    // The attack: one unit, then a few more, from a stranger.
    for (let i = 1; i <= 4; i++) await chain.payUsdc(devAccount(2), invoice.deposit_address, 1n);
    expect(await counted(invoice.invoice_id, "150.000004")).toMatchObject({ status: "paid" });
    expect(await notices(invoice.invoice_id)).toEqual({
      events: [["invoice.paid", 150_000_000n]],
      emails: 1,
      webhooks: 1,
    });
    // The dust is held on the deposit address (for refund), listed among the payments.
    const details = (await (await stack.request(`/api/invoices/${invoice.invoice_id}`)).json()) as {
      status: string;
      amount_due: string;
      payments: { amount: string; counted: boolean }[];
    };
    expect(details).toMatchObject({ status: "paid", amount_due: "0.00" });
    expect(details.payments.filter((p) => p.counted)).toHaveLength(5);

    // A real extra payment is excess, as spec §3.1 says, and told once.
    await chain.payUsdc(devAccount(2), invoice.deposit_address, 1_000_000n);
    expect(
      await waitForInvoiceStatus(stack.api.url, invoice.invoice_id, "excess", EVENT_MS),
    ).toMatchObject({
      paid_amount: "151.000004",
    });
    expect(await notices(invoice.invoice_id)).toEqual({
      events: [
        ["invoice.paid", 150_000_000n],
        ["invoice.excess", 151_000_004n],
      ],
      emails: 2,
      webhooks: 2,
    });
    await waitFor("both webhooks delivered", async () => {
      const mine = receiver.received.filter(
        (h) => (JSON.parse(h.body) as Json).invoice_id === invoice.invoice_id,
      );
      return mine.length === 2;
    });
  });

  test("dust to an unpaid invoice is told once (its status changed), and further dust is coalesced", async () => {
    const invoice = await create();
    await chain.payUsdc(devAccount(3), invoice.deposit_address, 1n);
    await waitForInvoiceStatus(stack.api.url, invoice.invoice_id, "partial", EVENT_MS);
    for (let i = 0; i < 3; i++) await chain.payUsdc(devAccount(3), invoice.deposit_address, 1n);
    await counted(invoice.invoice_id, "0.000004");
    expect(await notices(invoice.invoice_id)).toEqual({
      events: [["invoice.partial", 1n]],
      emails: 1,
      webhooks: 1,
    });
    // A real partial payment is told, carrying the dust before it.
    await chain.payUsdc(devAccount(3), invoice.deposit_address, 50_000_000n);
    await counted(invoice.invoice_id, "50.000004");
    expect((await notices(invoice.invoice_id)).events).toEqual([
      ["invoice.partial", 1n],
      ["invoice.partial", 50_000_004n],
    ]);
  });
});
