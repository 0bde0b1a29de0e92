import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { resetLocalFeeds } from "../../chain/localFeeds.ts";
import { createEurInvoice, eurAt } from "../currencies/eurInvoices.ts";
import { chainUrl } from "../helpers/chain.ts";
import { startCountingRpc } from "../helpers/countingRpc.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";

/**
 * The attack: the hosted page of an invoice priced in a currency is public (its slug is in every
 * email), and what it asks for is a quote read from the chain. Judged on the chain's head at
 * every view, each reload cost the operator's metered RPC two calls (the head and its block),
 * so a flood of views was a flood of RPC calls. Now a standing quote is recognised on the chain's
 * clock as the process last measured it (app/payments/quoteAmountDue.ts chainClock: one head
 * read per 10 s), and a view while the quote stands reads nothing from the chain.
 *
 * The API runs as `npm start` runs it, its RPC a counting proxy in front of this worker's anvil.
 * No clock is moved and nothing sleeps: measures at least 10 s apart, all begun during a flood
 * that lasted E ms, number at most 1 + ⌊E / 10 s⌋, however slow the machine.
 */
const CLOCK_MS = 10_000;
const FLOOD = 60;

describe("attack: a flood of views of a currency-priced invoice's page on the operator's RPC", () => {
  let stack: TestStack;
  let rpc: Awaited<ReturnType<typeof startCountingRpc>>;

  beforeAll(async () => {
    rpc = await startCountingRpc(chainUrl());
    stack = await startStack({ rpcUrl: rpc.url });
  });
  afterAll(async () => {
    await stack?.stop();
    await rpc?.stop();
  });
  afterEach(() => resetLocalFeeds(chainUrl()));

  test("concurrent and repeated views of the page cost the RPC at most one read of the head per 10 s", async () => {
    await eurAt(chainUrl(), "1.10");
    const invoice = await createEurInvoice(stack);
    const view = async () => {
      const response = await fetch(invoice.invoice_url);
      expect(response.status).toBe(200);
      return response.text();
    };
    // The first view quotes: it reads the head, its block and the feeds.
    expect(await view()).toContain("110.00");
    const before = rpc.calls("eth_getBlockByNumber");
    const started = Date.now();

    const pages = await Promise.all(Array.from({ length: FLOOD }, view));
    for (let i = 0; i < FLOOD; i++) pages.push(await view());

    // Every view asked for the same quote; the chain was read at most once per 10 s window.
    for (const page of pages) expect(page).toContain('id="pay-amount">110.00<');
    const windows = 1 + Math.floor((Date.now() - started) / CLOCK_MS);
    expect(rpc.calls("eth_getBlockByNumber") - before).toBeLessThanOrEqual(windows);
  });
});
