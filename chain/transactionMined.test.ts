import { createPublicClient, type Hex } from "viem";
import { base } from "viem/chains";
import { describe, expect, test } from "vitest";
import { connectionRefused, fakeNode, type NodeReply } from "../test/helpers/fakeNode.ts";
import { classifyChainError } from "./errors.ts";
import { ChainUnanswered, isTransactionMined } from "./transactionMined.ts";

const HASH: Hex = `0x${"ab".repeat(32)}`;
const BLOCK_HASH: Hex = `0x${"cd".repeat(32)}`;
const ADDRESS: Hex = `0x${"01".repeat(20)}`;

/** A receipt as a node sends it (hex quantities). */
const receipt = (status: "0x1" | "0x0") => ({
  transactionHash: HASH,
  transactionIndex: "0x0",
  blockHash: BLOCK_HASH,
  blockNumber: "0x10",
  from: ADDRESS,
  to: ADDRESS,
  cumulativeGasUsed: "0x5208",
  gasUsed: "0x5208",
  effectiveGasPrice: "0x1",
  contractAddress: null,
  logs: [],
  logsBloom: `0x${"00".repeat(256)}`,
  status,
  type: "0x2",
});

/** A transaction as a node sends it; `blockNumber` null while it is pending. */
const transaction = (blockNumber: string | null) => ({
  hash: HASH,
  blockHash: blockNumber ? BLOCK_HASH : null,
  blockNumber,
  transactionIndex: blockNumber ? "0x0" : null,
  from: ADDRESS,
  to: ADDRESS,
  nonce: "0x0",
  value: "0x0",
  gas: "0x5208",
  maxFeePerGas: "0x2",
  maxPriorityFeePerGas: "0x1",
  input: "0x",
  type: "0x2",
  chainId: "0x2105",
  v: "0x0",
  r: `0x${"11".repeat(32)}`,
  s: `0x${"22".repeat(32)}`,
  yParity: "0x0",
  accessList: [],
});

/** A node answering the receipt lookup with `receiptReply` and the transaction one with `txReply`. */
const client = (receiptReply: NodeReply, txReply: NodeReply) =>
  createPublicClient({
    chain: base,
    transport: fakeNode((method) =>
      method === "eth_getTransactionReceipt" ? receiptReply : txReply,
    ),
  });
const never: NodeReply = { error: { code: -32601, message: "not asked" } };

describe("isTransactionMined", () => {
  test("mined and succeeded: true", async () => {
    expect(await isTransactionMined(client({ result: receipt("0x1") }, never), HASH)).toBe(true);
  });

  test("the node's own word that it is not: false", async () => {
    // Reverted: it moved no USDC.
    expect(await isTransactionMined(client({ result: receipt("0x0") }, never), HASH)).toBe(false);
    // Neither a receipt nor the transaction: gone (reorged out, dropped).
    expect(await isTransactionMined(client({ result: null }, { result: null }), HASH)).toBe(false);
    // Pending only: in no block.
    expect(
      await isTransactionMined(client({ result: null }, { result: transaction(null) }), HASH),
    ).toBe(false);
  });

  test.each([
    ["the receipt lookup is refused", { fail: connectionRefused() }, never],
    ["the receipt lookup times out", "hang" as const, never],
    ["the receipt lookup gets HTTP 503", new Response("down", { status: 503 }), never],
    [
      "the receipt lookup gets a JSON-RPC error",
      { error: { code: -32603, message: "header not found" } },
      never,
    ],
    [
      "no receipt, and the transaction lookup is refused",
      { result: null },
      { fail: connectionRefused() },
    ],
    ["no receipt, and the transaction lookup times out", { result: null }, "hang" as const],
  ])("%s: throws, never false", async (_, receiptReply, txReply) => {
    const error = await isTransactionMined(client(receiptReply, txReply), HASH).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ChainUnanswered);
    expect((error as Error).message).toContain(HASH);
    expect((error as Error).message).not.toContain("secret-api-key");
    expect(classifyChainError(error).kind).not.toBe("not_found");
  });

  test("a node that knows the transaction in a block but has no receipt: throws", async () => {
    await expect(
      isTransactionMined(client({ result: null }, { result: transaction("0x10") }), HASH),
    ).rejects.toThrow(ChainUnanswered);
  });

  test("the thrown error keeps viem's as its cause, and says what failed", async () => {
    const error = await isTransactionMined(
      client({ fail: connectionRefused() }, never),
      HASH,
    ).catch((e: unknown) => e);
    expect((error as Error).message).toBe(
      `could not ask the chain about transaction ${HASH}: HTTP request failed. (fetch failed)`,
    );
    expect(classifyChainError(error)).toEqual({ kind: "unreachable" });
  });
});
