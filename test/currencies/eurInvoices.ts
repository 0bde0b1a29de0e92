import type { Address } from "viem";
import { expect } from "vitest";
import { setLocalFeedRound } from "../../chain/localFeeds.ts";
import { PRICE_FEEDS } from "../../domain/currencies.ts";
import { parseFeedAnswer } from "../../domain/rates.ts";
import type { TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";

export type EurInvoice = {
  invoice_id: string;
  deposit_address: Address;
  slug: string;
  invoice_url: string;
};

/** An invoice of 100.00 EUR on a running stack (or of the request `overrides` make), through the API. */
export async function createEurInvoice(
  stack: TestStack,
  /** Fields of the request to change (a merchant's own email, with its key in `headers`). */
  overrides: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<EurInvoice> {
  const response = await stack.request("/api/invoices", {
    method: "POST",
    headers,
    json: invoiceRequest({
      currency: "EUR",
      line_items: [{ description: "Consulting", quantity: 1, unit_price: "100.00" }],
      ...overrides,
    }),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as EurInvoice;
}

/** Moves the local EUR / USD feed to `usd` (USD per EUR) from the next block on. */
export const eurAt = (chainUrl: string, usd: string) =>
  setLocalFeedRound(chainUrl, PRICE_FEEDS.EUR.address, { answer: parseFeedAnswer(usd, 8) });

/** A round two days old: older than the feed's heartbeat, no rate to trust. */
export async function eurStale(
  chainUrl: string,
  chain: { getBlock(): Promise<{ timestamp: bigint }> },
): Promise<void> {
  const now = await chain.getBlock();
  await setLocalFeedRound(chainUrl, PRICE_FEEDS.EUR.address, {
    answer: parseFeedAnswer("1.10", 8),
    startedAt: now.timestamp - 172_800n,
    updatedAt: now.timestamp - 172_800n,
  });
}
