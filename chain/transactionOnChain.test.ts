import {
  type Hash,
  type Log,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
} from "viem";
import { describe, expect, test } from "vitest";
import { USDC_ADDRESS } from "../domain/constants.ts";
import {
  readTransactionOnChain,
  type TransactionReader,
  usdcTransfersOf,
} from "./transactionOnChain.ts";

const hash: Hash = `0x${"11".repeat(32)}`;
const TRANSFER = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
const topicOf = (address: string) =>
  `0x${address.slice(2).toLowerCase().padStart(64, "0")}` as const;
const transferLog = (token: string, to: string, value: bigint, logIndex: number): Log =>
  ({
    address: token,
    topics: [TRANSFER, topicOf(`0x${"aa".repeat(20)}`), topicOf(to)],
    data: `0x${value.toString(16).padStart(64, "0")}`,
    logIndex,
  }) as unknown as Log;

/**
 * A stand-in for the node (the cases a real node is hard to make give on demand: one that
 * hangs, one that errs); the real chain's answers are tested in
 * test/payments/transactionLookup.test.ts.
 */
const reader = (overrides: Partial<TransactionReader>): TransactionReader => ({
  getTransactionReceipt: async () => {
    throw new TransactionReceiptNotFoundError({ hash });
  },
  getTransaction: async () => {
    throw new TransactionNotFoundError({ hash });
  },
  getBlockNumber: async () => 10n,
  ...overrides,
});

describe("readTransactionOnChain", () => {
  test("unknown to the node: not_found; known without a receipt: pending", async () => {
    expect((await readTransactionOnChain(reader({}), hash, 1000)).view).toEqual({
      kind: "not_found",
    });
    const pending = reader({ getTransaction: async () => ({ hash }) });
    expect((await readTransactionOnChain(pending, hash, 1000)).view).toEqual({ kind: "pending" });
  });

  test("a node that errs or hangs: unavailable, within the timeout, never a throw", async () => {
    const erring = reader({
      getTransactionReceipt: async () => {
        throw new Error("fetch failed");
      },
    });
    expect((await readTransactionOnChain(erring, hash, 1000)).view).toEqual({
      kind: "unavailable",
    });
    const hanging = reader({ getTransactionReceipt: () => new Promise(() => {}) });
    const started = Date.now();
    expect((await readTransactionOnChain(hanging, hash, 50)).view).toEqual({ kind: "unavailable" });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  test("a mined receipt: only Transfer logs of USDC's canonical contract count", async () => {
    const to = `0x${"bb".repeat(20)}`;
    const mined = reader({
      getTransactionReceipt: async () => ({
        status: "success",
        blockNumber: 8n,
        logs: [
          transferLog(`0x${"cc".repeat(20)}`, to, 5n, 0), // a look-alike token elsewhere
          transferLog(USDC_ADDRESS, to, 1_500_000n, 1),
        ],
      }),
    });
    const answer = await readTransactionOnChain(mined, hash, 1000);
    expect(answer).toEqual({
      view: { kind: "mined", success: true, blockNumber: 8n, usdcTransfers: 1 },
      usdcTransfers: [{ logIndex: 1, to, value: 1_500_000n }],
      head: 10n,
    });
  });

  test("usdcTransfersOf skips the contract's other events", () => {
    const approval = {
      ...transferLog(USDC_ADDRESS, `0x${"bb".repeat(20)}`, 1n, 3),
      topics: [`0x${"8c".repeat(32)}`],
    } as unknown as Log;
    expect(usdcTransfersOf([approval])).toEqual([]);
  });
});
