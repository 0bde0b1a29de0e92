import { describe, expect, test } from "vitest";
import { presentDepositPayments } from "./depositPaymentView.ts";

const deposit = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc";
const payer = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";
const hash = `0x${"ab".repeat(32)}`;

describe("presentDepositPayments", () => {
  test("shows each transfer to the address, counted or not, but none from the address itself", () => {
    const transfers = [
      { id: `${hash}-3`, txHash: hash, from: payer, value: 150_125_000n, blockNumber: 7n },
      { id: `${hash}-4`, txHash: hash, from: deposit, value: 1n, blockNumber: 7n },
      { id: `${hash}-5`, txHash: hash, from: payer, value: 2_000_000n, blockNumber: 8n },
    ].map((t) => ({ ...t, paidAt: new Date("2026-10-02T14:05:11Z") }));
    expect(presentDepositPayments(transfers, deposit, [`${hash}-3`])).toEqual([
      {
        tx_hash: hash,
        log_index: 3,
        from: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
        amount: "150.125",
        block_number: 7,
        paid_at: "2026-10-02T14:05:11.000Z",
        counted: true,
      },
      {
        tx_hash: hash,
        log_index: 5,
        from: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
        amount: "2.00",
        block_number: 8,
        paid_at: "2026-10-02T14:05:11.000Z",
        counted: false,
      },
    ]);
  });
});
