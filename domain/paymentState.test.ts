import { describe, expect, test } from "vitest";
import {
  confirmedTransfers,
  derivePaymentState,
  EMPTY_PAYMENT_STATE,
  type IndexedTransfer,
  invoiceStatusFor,
  linkStatusFor,
  paymentEventType,
} from "./paymentState.ts";

const deposit = "0x00000000000000000000000000000000000000aa";
const transfer = (
  id: string,
  value: bigint,
  blockNumber: bigint,
  from = "0xpayer",
): IndexedTransfer => ({
  id,
  txHash: id.split("-")[0] as string,
  from,
  value,
  blockNumber,
  paidAt: new Date(Number(blockNumber) * 1000),
});

describe("confirmedTransfers", () => {
  const transfers = [transfer("0xa-0", 1n, 10n), transfer("0xb-0", 1n, 12n)];
  test("1 confirmation counts what is indexed", () => {
    expect(confirmedTransfers(transfers, 12n, 1).map((t) => t.id)).toEqual(["0xa-0", "0xb-0"]);
  });
  test("3 confirmations need two blocks on top", () => {
    expect(confirmedTransfers(transfers, 12n, 3).map((t) => t.id)).toEqual(["0xa-0"]);
    expect(confirmedTransfers(transfers, 14n, 3).map((t) => t.id)).toEqual(["0xa-0", "0xb-0"]);
  });
  test("nothing counts before the head is known", () => {
    expect(confirmedTransfers(transfers, null, 1)).toEqual([]);
  });
});

describe("derivePaymentState", () => {
  test("sums the payments, ignores sweeps out of the address, and is order-independent", () => {
    const a = transfer("0xa-0", 100n, 10n);
    const b = transfer("0xb-1", 50n, 11n);
    const sweep = transfer("0xc-0", 150n, 12n, deposit);
    const state = derivePaymentState(deposit, [b, sweep, a]);
    expect(state).toEqual({
      received: 150n,
      counted: ["0xa-0", "0xb-1"],
      latestTxHash: "0xb",
      latestPaidAt: new Date(11_000),
    });
    expect(derivePaymentState(deposit, [a, b])).toEqual(state);
  });
});

describe("invoiceStatusFor", () => {
  test.each([
    [0n, true, "sent"],
    [0n, false, "draft"],
    [99n, true, "partial"],
    [100n, true, "paid"],
    [101n, false, "excess"],
  ] as const)("received %s (sent: %s) → %s", (received, sent, status) => {
    expect(invoiceStatusFor(100n, received, sent)).toBe(status);
  });
});

describe("paymentEventType", () => {
  const state = (received: bigint) => ({ ...EMPTY_PAYMENT_STATE, received });
  test("a payment is reported with the status it leads to; every partial payment too", () => {
    expect(paymentEventType(state(0n), state(100n), "paid")).toBe("invoice.paid");
    expect(paymentEventType(state(0n), state(40n), "partial")).toBe("invoice.partial");
    expect(paymentEventType(state(40n), state(80n), "partial")).toBe("invoice.partial");
    expect(paymentEventType(state(80n), state(120n), "excess")).toBe("invoice.excess");
  });
  test("less received is a reversal; the same amount is nothing", () => {
    expect(paymentEventType(state(100n), state(0n), "sent")).toBe("invoice.payment_reversed");
    expect(paymentEventType(state(100n), state(100n), "paid")).toBeNull();
  });
});

describe("links", () => {
  test("linkStatusFor follows spec §3.2", () => {
    expect([0n, 50n, 100n, 150n].map((received) => linkStatusFor(100n, received))).toEqual([
      "pending",
      "partial",
      "confirmed",
      "excess",
    ]);
  });
  test("link events are named for links", () => {
    const state = (received: bigint) => ({ ...EMPTY_PAYMENT_STATE, received });
    expect(paymentEventType(state(0n), state(100n), "confirmed", "link")).toBe("link.confirmed");
    expect(paymentEventType(state(100n), state(0n), "pending", "link")).toBe(
      "link.payment_reversed",
    );
  });
});
