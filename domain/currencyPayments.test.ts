import { describe, expect, test } from "vitest";
import {
  type BlockRate,
  convertPayments,
  DEFAULT_QUOTE_WINDOW_MS,
  type Quote,
  standingQuote,
} from "./currencyPayments.ts";
import { amountDue } from "./moneyRules.ts";
import { type IndexedTransfer, invoiceStatusFor } from "./paymentState.ts";
import { parseFeedAnswer, rateOf, usdcForAmount } from "./rates.ts";

/** EUR at `usdPerEur`, USDC at par: the rate a block or a quote gives. */
const eurAt = (usdPerEur: string) =>
  rateOf("EUR", {
    EUR: { roundId: 1n, answer: parseFeedAnswer(usdPerEur, 8), startedAt: 1n, updatedAt: 1n },
    USDC: { roundId: 1n, answer: 100_000_000n, startedAt: 1n, updatedAt: 1n },
  });
const minute = 60_000;
const t0 = new Date("2026-11-28T12:00:00Z");
const at = (minutes: number) => new Date(t0.getTime() + minutes * minute);

let next = 0;
const payment = (value: bigint, paidAt: Date, blockNumber = 100n): IndexedTransfer => ({
  id: `0x${(++next).toString(16).padStart(64, "0")}-0`,
  txHash: `0x${next.toString(16).padStart(64, "0")}`,
  from: "0x00000000000000000000000000000000000000aa",
  value,
  blockNumber,
  paidAt,
});
const quoteOf = (amountDue: bigint, usdPerEur: string, quotedAt: Date, id = "q1"): Quote => {
  const rate = eurAt(usdPerEur);
  return {
    id,
    amountDue,
    amountDueUsdc: usdcForAmount(amountDue, rate),
    rate,
    quotedAt,
    expiresAt: new Date(quotedAt.getTime() + 15 * minute),
  };
};
const EUR_100 = 100_000_000n;
const sum = (amounts: { amount: bigint }[]) => amounts.reduce((s, a) => s + a.amount, 0n);

describe("payments to an invoice priced in EUR", () => {
  test("the quoted USDC paid inside the window is the invoice paid, though the euro rose before the block", () => {
    const quote = quoteOf(EUR_100, "1.10", t0);
    expect(quote.amountDueUsdc).toBe(110_000_000n);
    const paid = payment(110_000_000n, at(14));
    const rates = new Map<string, BlockRate>([[paid.id, eurAt("1.12")]]);
    const { converted, waiting } = convertPayments([paid], [quote], rates);
    expect(waiting).toEqual([]);
    expect(converted).toEqual([
      expect.objectContaining({ amount: EUR_100, quoteId: "q1", rate: quote.rate }),
    ]);
    expect(invoiceStatusFor(EUR_100, sum(converted), true)).toBe("paid");
  });

  test("the same USDC after the window counts at its block's worse rate: partial, and the rest is asked", () => {
    const quote = quoteOf(EUR_100, "1.10", t0);
    const late = payment(110_000_000n, at(16));
    const rates = new Map<string, BlockRate>([[late.id, eurAt("1.12")]]);
    const { converted } = convertPayments([late], [quote], rates);
    // 110 USDC ÷ 1.12 = 98.214285… EUR, rounded down.
    expect(converted).toEqual([expect.objectContaining({ amount: 98_214_285n, quoteId: null })]);
    expect(invoiceStatusFor(EUR_100, sum(converted), true)).toBe("partial");
    expect(amountDue(EUR_100, sum(converted))).toBe(1_785_715n);
  });

  test("two partial payments at two rates add up in EUR", () => {
    const first = payment(55_000_000n, at(0), 100n); // at 1.10: 50.00 EUR
    const second = payment(60_000_000n, at(60), 200n); // at 1.20: 50.00 EUR
    const rates = new Map<string, BlockRate>([
      [first.id, eurAt("1.10")],
      [second.id, eurAt("1.20")],
    ]);
    const { converted } = convertPayments([first, second], [], rates);
    expect(converted.map((c) => c.amount)).toEqual([50_000_000n, 50_000_000n]);
    expect(invoiceStatusFor(EUR_100, sum(converted), true)).toBe("paid");
  });

  test("a payment whose block has no usable rate waits: it counts for nothing until a rate is known", () => {
    const stale = payment(55_000_000n, at(0));
    const rates = new Map<string, BlockRate>([[stale.id, { problem: "EUR / USD: stale" }]]);
    const waitingNow = convertPayments([stale], [], rates);
    expect(waitingNow).toEqual({ converted: [], waiting: [stale] });
    expect(convertPayments([stale], [], new Map()).waiting).toEqual([stale]);
    // Once a rate is known for it, the same payment converts (a replay gives the same answer).
    const known = new Map<string, BlockRate>([[stale.id, eurAt("1.10")]]);
    expect(convertPayments([stale], [], known).converted[0]?.amount).toBe(50_000_000n);
    expect(convertPayments([stale], [], known).converted[0]?.amount).toBe(50_000_000n);
  });

  test("a quote is honoured once: a second payment of the same amount converts at its block", () => {
    const quote = quoteOf(EUR_100, "1.10", t0);
    const one = payment(110_000_000n, at(1));
    const two = payment(110_000_000n, at(2));
    const rates = new Map<string, BlockRate>([
      [one.id, eurAt("1.12")],
      [two.id, eurAt("1.12")],
    ]);
    const { converted } = convertPayments([one, two], [quote], rates);
    expect(converted.map((c) => [c.amount, c.quoteId])).toEqual([
      [EUR_100, "q1"],
      [98_214_285n, null],
    ]);
    expect(invoiceStatusFor(EUR_100, sum(converted), true)).toBe("excess");
  });

  test("a payment of another amount inside the window is not the quote: its block's rate", () => {
    const quote = quoteOf(EUR_100, "1.10", t0);
    const part = payment(55_000_000n, at(1));
    const rates = new Map<string, BlockRate>([[part.id, eurAt("1.10")]]);
    expect(convertPayments([part], [quote], rates).converted[0]).toMatchObject({
      amount: 50_000_000n,
      quoteId: null,
    });
  });
});

describe("standingQuote", () => {
  const at = (iso: string) => new Date(`2026-11-29T${iso}Z`);
  const quote = (id: string, amountDue: bigint, quotedAt: string): Quote => ({
    id,
    amountDue,
    amountDueUsdc: (amountDue * 108n) / 100n,
    rate: { numerator: 108n, denominator: 100n },
    quotedAt: at(quotedAt),
    expiresAt: new Date(at(quotedAt).getTime() + DEFAULT_QUOTE_WINDOW_MS),
  });

  test("the newest quote for the same amount, while it has two minutes left", () => {
    const quotes = [quote("a", 100_000_000n, "10:00:00"), quote("b", 100_000_000n, "10:05:00")];
    expect(standingQuote(quotes, 100_000_000n, at("10:06:00"))?.id).toBe("b");
    // 10:05 + 15 min = 10:20; at 10:18:01 less than two minutes are left.
    expect(standingQuote(quotes, 100_000_000n, at("10:18:00"))?.id).toBe("b");
    expect(standingQuote(quotes, 100_000_000n, at("10:18:01"))).toBeUndefined();
  });

  test("none for another amount (a partial payment changed what is due), nor one from the future", () => {
    const quotes = [quote("a", 100_000_000n, "10:00:00")];
    expect(standingQuote(quotes, 40_000_000n, at("10:01:00"))).toBeUndefined();
    expect(standingQuote(quotes, 100_000_000n, at("09:59:00"))).toBeUndefined();
  });
});
