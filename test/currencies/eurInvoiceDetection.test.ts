import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { resetLocalFeeds, setLocalFeedRound } from "../../chain/localFeeds.ts";
import { rpcRequest } from "../../chain/rpc.ts";
import { SEQUENCER_UPTIME_FEED } from "../../domain/currencies.ts";
import { waitFor } from "../../internal/process.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { EVENT_MS } from "../helpers/waits.ts";
import {
  createEurInvoice,
  type EurInvoice,
  eurAt as eurAtOn,
  eurStale as eurStaleOn,
} from "./eurInvoices.ts";

type Created = EurInvoice;

/**
 * Detection of payments to an invoice priced in EUR, on the real stack: the worker converts each
 * counted payment at the rate the local chain's EUR / USD feed gives in its block, and judges the
 * invoice on the sum in euros (its invoices priced in EUR in the database: eurInvoices.ts).
 */
describe("an EUR invoice's payments, converted at their blocks' rates", () => {
  const chain = useChainForFile();
  let stack: TestStack;

  beforeAll(async () => {
    await chain.snapshot();
    stack = await startStack({ worker: true, indexer: true });
  });
  afterAll(async () => {
    await stack?.stop();
    await chain.revert();
  });
  afterEach(() => resetLocalFeeds(chain.url));

  const createEur = () => createEurInvoice(stack);
  const eurAt = (usd: string) => eurAtOn(chain.url, usd);
  const eurStale = () => eurStaleOn(chain.url, chain.client);
  const stored = async (invoice: Created) => {
    const { rows } = await sql<{
      status: string;
      received: string | null;
      received_in_currency: string | null;
    }>`select i.status, s.received::text, s.received_in_currency::text
       from app.invoices i left join app.payment_state s on s.deposit_address = i.deposit_address
       where i.id = ${invoice.invoice_id}`.execute(stack.db);
    return rows[0];
  };
  const waitForStored = (invoice: Created, what: string, status: string, inEur: string) =>
    waitFor(
      what,
      async () => {
        const row = await stored(invoice);
        return row?.status === status && row.received_in_currency === inEur ? row : undefined;
      },
      { timeoutMs: EVENT_MS, intervalMs: 100 },
    );
  const events = async (invoice: Created) => {
    const { rows } = await sql<{ type: string; paid_amount: string; payload: string }>`
      select type, paid_amount::text, payload from app.payment_events
      where invoice_id = ${invoice.invoice_id} order by created_at`.execute(stack.db);
    return rows.map((row) => ({
      type: row.type,
      paidAmount: row.paid_amount,
      payload: JSON.parse(row.payload) as Record<string, unknown>,
    }));
  };

  test("two partial payments at two rates sum in euros: 55 USDC at 1.10, then 60 USDC at 1.20, is 100.00 EUR, paid", async () => {
    const invoice = await createEur();
    await eurAt("1.10");
    await chain.payUsdc(devAccount(1), invoice.deposit_address, 55_000_000n);
    const partial = await waitForStored(invoice, "50 EUR, partial", "partial", "50000000");
    expect(partial.received).toBe("55000000");

    await eurAt("1.20");
    await chain.payUsdc(devAccount(2), invoice.deposit_address, 60_000_000n);
    const paid = await waitForStored(invoice, "100 EUR, paid", "paid", "100000000");
    // What arrived is USDC, and stays so: the books count it as such.
    expect(paid.received).toBe("115000000");

    // The events and webhooks tell the spec's fields in the invoice's currency.
    const told = await events(invoice);
    expect(told.map((e) => [e.type, e.paidAmount])).toEqual([
      ["invoice.partial", "50000000"],
      ["invoice.paid", "100000000"],
    ]);
    expect(told[1]?.payload).toMatchObject({
      status: "paid",
      paid_amount: "100.00",
      total_amount: "100.00",
      amount_due: "0.00",
      currency: "EUR",
      paid_amount_usdc: "115.00",
    });
  });

  test("paid at a worse rate it is partial; more than the rest makes it excess", async () => {
    const invoice = await createEur();
    await eurAt("1.25");
    // 110 USDC at 1.25 USDC per EUR is 88 EUR: short of 100.
    await chain.payUsdc(devAccount(3), invoice.deposit_address, 110_000_000n);
    await waitForStored(invoice, "88 EUR, partial", "partial", "88000000");
    // The rest is 12 EUR, 15 USDC at 1.25; 16.25 USDC is 13 EUR, 1 EUR over: excess.
    await chain.payUsdc(devAccount(3), invoice.deposit_address, 16_250_000n);
    await waitForStored(invoice, "101 EUR, excess", "excess", "101000000");
  });

  test("a payment while the feed is stale converts nothing, and counts at the first fresh round after it", async () => {
    const invoice = await createEur();
    await eurStale();
    await chain.payUsdc(devAccount(4), invoice.deposit_address, 110_000_000n);
    // Counted in USDC, worth nothing in euros yet: the invoice stays `sent`, nothing is told.
    await waitFor(
      "the payment counted, unconverted",
      async () => {
        const row = await stored(invoice);
        return row?.received === "110000000" ? row : undefined;
      },
      { timeoutMs: EVENT_MS, intervalMs: 100 },
    );
    expect(await stored(invoice)).toMatchObject({ status: "sent", received_in_currency: "0" });
    expect(await events(invoice)).toEqual([]);

    // A fresh round at 1.10: the payment is worth 100 EUR, and the invoice is paid.
    await eurAt("1.10");
    await rpcRequest(chain.url, "anvil_mine", ["0x2"]);
    await waitForStored(invoice, "100 EUR once the feed is fresh", "paid", "100000000");
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from app.payment_conversions
      where deposit_address = ${invoice.deposit_address.toLowerCase()}`.execute(stack.db);
    expect(rows[0]?.n).toBe(1);
  });

  type Detail = {
    currency: string;
    total_amount: string;
    paid_amount: string;
    amount_due: string;
    paid_amount_usdc?: string;
    amount_due_usdc?: string | null;
    quote_expires_at?: string;
    rate_unavailable?: string;
    payment_uri: string;
    payments: { amount: string; amount_in_currency?: string; rate?: string }[];
    refunds: Record<string, unknown>[];
  };
  const detail = async (invoice: Created): Promise<Detail> => {
    const response = await stack.request(`/api/invoices/${invoice.invoice_id}`);
    expect(response.status).toBe(200);
    return (await response.json()) as Detail;
  };

  test("the detail asks for the quote in USDC; paid exactly inside its window after the rate moved, it is paid, and every amount reads in euros", async () => {
    const invoice = await createEur();
    await eurAt("1.10");
    const asked = await detail(invoice);
    expect(asked).toMatchObject({
      currency: "EUR",
      total_amount: "100.00",
      paid_amount: "0.00",
      amount_due: "100.00",
      paid_amount_usdc: "0.00",
      amount_due_usdc: "110.00",
    });
    expect(asked.payment_uri).toMatch(/&uint256=110000000$/);
    // Held for 15 minutes of the chain's time from the block it was read at.
    const head = await chain.client.getBlock();
    expect(Date.parse(asked.quote_expires_at ?? "")).toBe(
      (Number(head.timestamp) + 15 * 60) * 1000,
    );

    // The euro moves before the payment: the quote stands (every reload shows it) and holds.
    await eurAt("1.30");
    expect((await detail(invoice)).amount_due_usdc).toBe("110.00");
    await chain.payUsdc(devAccount(5), invoice.deposit_address, 110_000_000n);
    await waitForStored(invoice, "the quote paid, 100 EUR", "paid", "100000000");

    const paid = await detail(invoice);
    expect(paid).toMatchObject({
      paid_amount: "100.00",
      amount_due: "0.00",
      paid_amount_usdc: "110.00",
      amount_due_usdc: "0.00",
    });
    expect(paid.payments).toEqual([
      expect.objectContaining({
        amount: "110.00",
        amount_in_currency: "100.00",
        rate: "1.10000000",
      }),
    ]);
    const status = await stack.request(`/api/invoices/${invoice.invoice_id}/status`);
    expect(await status.json()).toMatchObject({
      status: "paid",
      paid_amount: "100.00",
      currency: "EUR",
      paid_amount_usdc: "110.00",
    });
  });

  test("while no fresh rate can be read, the detail asks for nothing: no USDC amount, a payment request without one, and why", async () => {
    const invoice = await createEur();
    await eurStale();
    const stale = await detail(invoice);
    expect(stale).toMatchObject({ amount_due: "100.00", amount_due_usdc: null });
    expect(stale.rate_unavailable).toMatch(/EUR \/ USD/);
    expect(stale.payment_uri).not.toMatch(/uint256/);
  });

  test("a refund without an amount of an overpaid EUR invoice returns the payer's share of the USDC, not the euros' figure", async () => {
    const invoice = await createEur();
    await eurAt("1.10");
    // 121 USDC at 1.10 is 110 EUR for an invoice of 100: the merchant's share of the USDC is
    // 100/110 of it (110 USDC), the payer's 11 USDC.
    await chain.payUsdc(devAccount(7), invoice.deposit_address, 121_000_000n);
    await waitForStored(invoice, "110 EUR, excess", "excess", "110000000");
    const response = await stack.request(`/api/invoices/${invoice.invoice_id}/refunds`, {
      method: "POST",
      json: { to_sender: true },
    });
    expect(response.status, await response.clone().text()).toBe(201);
    // It pays back USDC and says what that returns in euros: 11 of the 121 USDC counted as 110 EUR.
    const refund = { amount: "11.00", currency: "EUR", amount_in_currency: "10.00" };
    expect(await response.json()).toMatchObject(refund);
    expect((await detail(invoice)).refunds).toEqual([expect.objectContaining(refund)]);
  });

  test("a payment while Base's sequencer is down converts nothing, and counts once it has been up for the grace period", async () => {
    const invoice = await createEur();
    await eurAt("1.10");
    const now = await chain.client.getBlock();
    // Down since a minute ago: no price posted meanwhile can be trusted.
    await setLocalFeedRound(chain.url, SEQUENCER_UPTIME_FEED.address, {
      answer: 1n,
      startedAt: now.timestamp - 60n,
      updatedAt: now.timestamp,
    });
    await chain.payUsdc(devAccount(8), invoice.deposit_address, 110_000_000n);
    await waitFor(
      "the payment counted, unconverted",
      async () => (await stored(invoice))?.received === "110000000",
      { timeoutMs: EVENT_MS, intervalMs: 100 },
    );
    expect(await stored(invoice)).toMatchObject({ status: "sent", received_in_currency: "0" });
    // Up, and for longer than the hour's grace period: the payment converts at that block's rate.
    const later = await chain.client.getBlock();
    await setLocalFeedRound(chain.url, SEQUENCER_UPTIME_FEED.address, {
      answer: 0n,
      startedAt: later.timestamp - 2n * 3600n,
      updatedAt: later.timestamp,
    });
    await rpcRequest(chain.url, "anvil_mine", ["0x2"]);
    await waitForStored(invoice, "100 EUR once the sequencer is trusted", "paid", "100000000");
  });
});
