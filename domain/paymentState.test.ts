import { describe, expect, test } from "vitest";
import {
  amountForStatus,
  confirmedTransfers,
  derivePaymentState,
  EMPTY_PAYMENT_STATE,
  type IndexedTransfer,
  invoiceStatusFor,
  linkStatusFor,
  orderedPayments,
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
  test("credited in full (it asks for 0): void when nothing came, excess when something did", () => {
    expect(invoiceStatusFor(0n, 0n, true)).toBe("void");
    expect(invoiceStatusFor(0n, 1n, true)).toBe("excess");
  });
  test.each([
    [2_500_000n, 0n, "partial"], // the default: exact amounts only
    [2_999_999n, 0n, "partial"],
    [2_500_000n, 500_000n, "paid"], // short by exactly the tolerance
    [2_700_000n, 500_000n, "paid"], // short by less
    [2_499_999n, 500_000n, "partial"], // short by more
    [3_000_001n, 500_000n, "excess"], // tolerance never touches an overpayment
  ] as const)(
    "underpayment tolerance: %s of 3.00 with tolerance %s → %s",
    (received, tolerance, status) => {
      expect(invoiceStatusFor(3_000_000n, received, true, tolerance)).toBe(status);
    },
  );
  test("nothing received is never paid, whatever the tolerance", () => {
    expect(invoiceStatusFor(100n, 0n, true, 1_000n)).toBe("sent");
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

describe("amountForStatus: dust after an exact payment is held, not excess", () => {
  const dust = 10_000n; // 0.01 USDC
  test.each([
    ["exact", [3_000_000n], 3_000_000n],
    ["dust after the exact payment is held", [3_000_000n, 1n], 3_000_000n],
    [
      "dust adding up below the threshold is held",
      [1_000_000n, 2_000_000n, 4_000n, 5_000n],
      3_000_000n,
    ],
    ["extra payments reaching the threshold are excess", [3_000_000n, 9_999n, 1n], 3_010_000n],
    ["a real second payment is excess", [3_000_000n, 3_000_000n], 6_000_000n],
    ["an overshooting payment is excess, however small the overshoot", [3_000_001n], 3_000_001n],
    ["a completing payment that overshoots is excess", [1_000_000n, 2_000_001n], 3_000_001n],
    ["partial", [1_000_000n], 1_000_000n],
    ["nothing", [], 0n],
  ] as const)("%s", (_, payments, expected) => {
    expect(amountForStatus(3_000_000n, payments, dust)).toBe(expected);
  });
  test("a threshold of 0 keeps spec §3.1 to the letter", () => {
    expect(amountForStatus(3_000_000n, [3_000_000n, 1n], 0n)).toBe(3_000_001n);
  });
  test("orderedPayments puts them in chain order, without sweeps", () => {
    const later = transfer("0xb-0", 1n, 12n);
    const first = transfer("0xa-3", 3n, 10n);
    const sweep = transfer("0xc-0", 4n, 11n, deposit);
    expect(orderedPayments(deposit, [later, sweep, first]).map((t) => t.value)).toEqual([3n, 1n]);
  });
});

describe("paymentEventType with a NoticeRule: dust is coalesced", () => {
  const state = (received: bigint) => ({ ...EMPTY_PAYMENT_STATE, received });
  const rule = (previousStatus: "paid" | "partial" | "sent", notifiedReceived: bigint) => ({
    previousStatus,
    notifiedReceived,
    dustThreshold: 10_000n,
  });
  test("dust that leaves the status as it is tells nobody", () => {
    expect(
      paymentEventType(
        state(3_000_000n),
        state(3_000_001n),
        "paid",
        "invoice",
        rule("paid", 3_000_000n),
      ),
    ).toBeNull();
    expect(
      paymentEventType(
        state(1_000_000n),
        state(1_000_005n),
        "partial",
        "invoice",
        rule("partial", 1_000_000n),
      ),
    ).toBeNull();
  });
  test("coalesced dust is told once it adds up to the threshold", () => {
    expect(
      paymentEventType(
        state(1_009_999n),
        state(1_010_000n),
        "partial",
        "invoice",
        rule("partial", 1_000_000n),
      ),
    ).toBe("invoice.partial");
  });
  test("a status change is always told, even by dust (spec §6.1)", () => {
    expect(paymentEventType(state(0n), state(1n), "partial", "invoice", rule("sent", 0n))).toBe(
      "invoice.partial",
    );
    expect(
      paymentEventType(
        state(3_009_999n),
        state(3_010_000n),
        "excess",
        "invoice",
        rule("paid", 3_000_000n),
      ),
    ).toBe("invoice.excess");
  });
  test("a real payment is told as before", () => {
    expect(
      paymentEventType(
        state(1_000_000n),
        state(2_000_000n),
        "partial",
        "invoice",
        rule("partial", 1_000_000n),
      ),
    ).toBe("invoice.partial");
    expect(
      paymentEventType(
        state(2_000_000n),
        state(1_000_000n),
        "partial",
        "invoice",
        rule("partial", 2_000_000n),
      ),
    ).toBe("invoice.payment_reversed");
  });
  test("the same amount in another order that changes the status is told", () => {
    expect(
      paymentEventType(
        state(3_000_001n),
        state(3_000_001n),
        "excess",
        "invoice",
        rule("paid", 3_000_000n),
      ),
    ).toBe("invoice.excess");
  });
});
