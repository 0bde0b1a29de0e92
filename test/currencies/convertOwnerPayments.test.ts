import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { describe, expect, test } from "vitest";
import { convertOwnerPayments } from "../../app/payments/convertOwnerPayments.ts";
import { setLocalFeedRound } from "../../chain/localFeeds.ts";
import { rpcRequest } from "../../chain/rpc.ts";
import { saveQuote } from "../../db/queries/rates.ts";
import { PRICE_FEEDS } from "../../domain/currencies.ts";
import type { IndexedTransfer } from "../../domain/paymentState.ts";
import { rateOf, usdcForAmount } from "../../domain/rates.ts";
import { useEurFixture } from "./eurFixture.ts";

/**
 * The conversion of payments to an EUR-priced deposit address against the real database and the
 * local chain's feeds: the transfers are described, not sent (what is converted is what the index
 * holds; reconcileDeposit hands it over), the rates are real rounds in real blocks.
 */
describe("converting an EUR deposit address's payments", () => {
  const { url, chain, db, owner, eurAt } = useEurFixture();
  const transfer = (value: bigint, blockNumber: bigint, paidAt = new Date()): IndexedTransfer => {
    const hash = `0x${randomUUID().replaceAll("-", "").repeat(2)}`;
    return {
      id: `${hash}-0`,
      txHash: hash,
      from: "0x00000000000000000000000000000000000000aa",
      value,
      blockNumber,
      paidAt,
    };
  };
  const conversionRows = (address: string) =>
    sql<{
      n: string;
      rate_block_number: string;
    }>`select count(*)::text as n, max(rate_block_number)::text as rate_block_number
      from app.payment_conversions where deposit_address = ${address}`.execute(db());

  test("each payment at its own block's rate, converted once and then read back, whatever the rate does next", async () => {
    const address = owner();
    const first = await eurAt("1.10");
    const one = transfer(55_000_000n, first.blockNumber);
    const head = await chain.client.getBlockNumber();
    const once = await convertOwnerPayments(db(), chain.client, address, [one], head);
    expect(once.converted.map((c) => c.amount)).toEqual([50_000_000n]);

    const second = await eurAt("1.20");
    const two = transfer(60_000_000n, second.blockNumber);
    const both = await convertOwnerPayments(
      db(),
      chain.client,
      address,
      [one, two],
      second.blockNumber,
    );
    // 55 USDC at 1.10 + 60 USDC at 1.20: 50 + 50 EUR.
    expect(both.converted.map((c) => c.amount)).toEqual([50_000_000n, 50_000_000n]);
    const rows = await conversionRows(address.depositAddress);
    expect(rows.rows[0]?.n).toBe("2");

    // The same transfer re-mined in a later block is converted at that block's rate.
    const third = await eurAt("1.375");
    const remined = { ...one, blockNumber: third.blockNumber };
    const after = await convertOwnerPayments(
      db(),
      chain.client,
      address,
      [remined],
      third.blockNumber,
    );
    expect(after.converted.map((c) => c.amount)).toEqual([40_000_000n]);
  });

  test("a payment in a stale block waits, then converts at the first fresh round after it", async () => {
    const address = owner();
    const now = await chain.client.getBlock();
    const stale = await setLocalFeedRound(url, PRICE_FEEDS.EUR.address, {
      answer: 110_000_000n,
      startedAt: now.timestamp - 100_000n,
      updatedAt: now.timestamp - 100_000n,
    });
    const paid = transfer(55_000_000n, stale.blockNumber);
    await rpcRequest(url, "anvil_mine", ["0x3"]);
    const waiting = await convertOwnerPayments(
      db(),
      chain.client,
      address,
      [paid],
      await chain.client.getBlockNumber(),
    );
    expect(waiting).toEqual({ converted: [], waiting: [paid] });
    expect((await conversionRows(address.depositAddress)).rows[0]?.n).toBe("0");

    const fresh = await eurAt("1.25");
    await rpcRequest(url, "anvil_mine", ["0x4"]);
    const done = await convertOwnerPayments(
      db(),
      chain.client,
      address,
      [paid],
      await chain.client.getBlockNumber(),
    );
    expect(done.converted.map((c) => c.amount)).toEqual([44_000_000n]);
    expect((await conversionRows(address.depositAddress)).rows[0]?.rate_block_number).toBe(
      fresh.blockNumber.toString(),
    );
  });

  test("the quoted amount paid inside the window counts as the quote, needing no rate of its block", async () => {
    const address = owner();
    const rate = rateOf("EUR", {
      EUR: { roundId: 1n, answer: 110_000_000n, startedAt: 1n, updatedAt: 1n },
      USDC: { roundId: 1n, answer: 100_000_000n, startedAt: 1n, updatedAt: 1n },
    });
    const quotedAt = new Date();
    await saveQuote(db(), {
      id: randomUUID(),
      depositAddress: address.depositAddress,
      currency: "EUR",
      amountDue: 100_000_000n,
      amountDueUsdc: usdcForAmount(100_000_000n, rate),
      rate,
      blockNumber: await chain.client.getBlockNumber(),
      quotedAt,
      expiresAt: new Date(quotedAt.getTime() + 15 * 60_000),
    });
    const moved = await eurAt("1.12");
    const paid = transfer(110_000_000n, moved.blockNumber, new Date(quotedAt.getTime() + 60_000));
    const result = await convertOwnerPayments(
      db(),
      chain.client,
      address,
      [paid],
      moved.blockNumber,
    );
    expect(result.converted).toEqual([expect.objectContaining({ amount: 100_000_000n })]);
    expect(result.converted[0]?.quoteId).not.toBeNull();
    expect((await conversionRows(address.depositAddress)).rows[0]?.n).toBe("0");
  });
});
