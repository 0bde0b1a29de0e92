import {
  createPublicClient,
  createWalletClient,
  encodeErrorResult,
  type Hex,
  parseAbi,
  type Transport,
  zeroAddress,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { base } from "viem/chains";
import { describe, expect, test } from "vitest";
import { usdcAbi } from "../abis/usdc.ts";
import { USDC_ADDRESS } from "../domain/constants.ts";
import {
  type SignedTransferVerdict,
  signedTransferVerdict,
  USDC_REVERT,
  type UsdcRefusal,
} from "../domain/usdcRefusal.ts";
import { connectionRefused, fakeNode, type NodeReply } from "../test/helpers/fakeNode.ts";
import {
  type BroadcastRefusal,
  type ChainFailure,
  classifyBroadcastError,
  classifyChainError,
  summarizeChainError,
  usdcRefusalOf,
} from "./errors.ts";

const HASH: Hex = `0x${"12".repeat(32)}`;
const relayer = privateKeyToAccount(`0x${"11".repeat(32)}`);
const methodNotFound = { error: { code: -32601, message: "method not found" } };

type Action = (transport: Transport) => Promise<unknown>;

/** The error a viem action throws against a node answering `reply`. */
async function thrown(action: Action, reply: (method: string) => NodeReply): Promise<unknown> {
  const error = await action(fakeNode(reply)).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!error) throw new Error("the action did not fail");
  return error;
}

/** USDC's transferWithAuthorization, simulated as moveByAuthorization does before sending it. */
const simulateSweep = (transport: Transport) =>
  createPublicClient({ chain: base, transport }).simulateContract({
    account: relayer,
    address: USDC_ADDRESS,
    abi: usdcAbi,
    functionName: "transferWithAuthorization",
    args: [zeroAddress, zeroAddress, 1n, 0n, 1n, HASH, "0x"],
  });

/** The same, sent: what a relayer without ETH for gas runs into. */
const sendSweep = (transport: Transport) =>
  createWalletClient({ chain: base, transport }).writeContract({
    account: relayer,
    address: USDC_ADDRESS,
    abi: usdcAbi,
    functionName: "transferWithAuthorization",
    args: [zeroAddress, zeroAddress, 1n, 0n, 1n, HASH, "0x"],
    gas: 100_000n,
    nonce: 0,
    maxFeePerGas: 2n,
    maxPriorityFeePerGas: 1n,
  });

const getReceipt = (transport: Transport) =>
  createPublicClient({ chain: base, transport }).getTransactionReceipt({ hash: HASH });
const getTransaction = (transport: Transport) =>
  createPublicClient({ chain: base, transport }).getTransaction({ hash: HASH });

/** A node that answers the chain id (viem asks before sending) and `reply` otherwise. */
const node = (reply: (method: string) => NodeReply) => (method: string) =>
  method === "eth_chainId" ? { result: "0x2105" } : reply(method);

const revertedWith = (reason: string): NodeReply => ({
  error: {
    code: 3,
    message: `execution reverted: ${reason}`,
    data: encodeErrorResult({
      abi: parseAbi(["error Error(string)"]),
      errorName: "Error",
      args: [reason],
    }),
  },
});

describe("classifyChainError, on the errors viem throws", () => {
  const vectors: [string, Action, (m: string) => NodeReply, ChainFailure][] = [
    [
      "USDC refusing a blacklisted address (simulateContract)",
      simulateSweep,
      (m) => (m === "eth_call" ? revertedWith(USDC_REVERT.blacklisted) : methodNotFound),
      { kind: "reverted", errorName: "Error", reason: USDC_REVERT.blacklisted },
    ],
    [
      "another revert reason",
      simulateSweep,
      (m) =>
        m === "eth_call" ? revertedWith("FiatTokenV2: authorization is expired") : methodNotFound,
      { kind: "reverted", errorName: "Error", reason: "FiatTokenV2: authorization is expired" },
    ],
    [
      "a relayer without ETH for gas (anvil, geth: insufficient funds)",
      sendSweep,
      node((m) =>
        m === "eth_sendRawTransaction"
          ? { error: { code: -32003, message: "Insufficient funds for gas * price + value" } }
          : methodNotFound,
      ),
      { kind: "insufficient_funds" },
    ],
    [
      "a relayer without ETH for gas (geth estimating gas: allowance exceeded)",
      (t) =>
        createPublicClient({ chain: base, transport: t }).estimateContractGas({
          account: relayer.address,
          address: USDC_ADDRESS,
          abi: usdcAbi,
          functionName: "transferWithAuthorization",
          args: [zeroAddress, zeroAddress, 1n, 0n, 1n, HASH, "0x"],
        }),
      (m) =>
        m === "eth_estimateGas"
          ? { error: { code: -32000, message: "gas required exceeds allowance (0)" } }
          : methodNotFound,
      { kind: "insufficient_funds" },
    ],
    ["no receipt for the hash", getReceipt, () => ({ result: null }), { kind: "not_found" }],
    [
      "no transaction for the hash",
      getTransaction,
      () => ({ result: null }),
      { kind: "not_found" },
    ],
    [
      "connection refused",
      getReceipt,
      () => ({ fail: connectionRefused() }),
      { kind: "unreachable" },
    ],
    [
      "HTTP 503 without a JSON-RPC body",
      getReceipt,
      () => new Response("Service Unavailable", { status: 503 }),
      { kind: "unreachable" },
    ],
    [
      "HTTP 429 with a JSON-RPC error body",
      getReceipt,
      () =>
        Response.json(
          { jsonrpc: "2.0", id: 0, error: { code: -32005, message: "rate limited" } },
          { status: 429 },
        ),
      { kind: "unreachable" },
    ],
    ["a timeout", getReceipt, () => "hang", { kind: "unreachable" }],
    [
      "a JSON-RPC error the node answered with",
      getReceipt,
      () => ({ error: { code: -32603, message: "header not found" } }),
      { kind: "unknown" },
    ],
  ];

  test.each(vectors)("%s", async (_, action, reply, expected) => {
    expect(classifyChainError(await thrown(action, reply))).toEqual(expected);
  });

  test("errors that are not viem's are unknown", () => {
    expect(classifyChainError(new Error("insufficient funds"))).toEqual({ kind: "unknown" });
    expect(classifyChainError("HTTP request failed")).toEqual({ kind: "unknown" });
    expect(classifyChainError(undefined)).toEqual({ kind: "unknown" });
  });

  test("a viem error wrapped in another error's cause is still told apart", async () => {
    const cause = await thrown(getReceipt, () => ({ fail: connectionRefused() }));
    const wrapped = new Error("reconcile failed", { cause });
    expect(classifyChainError(wrapped)).toEqual({ kind: "unreachable" });
    expect(classifyChainError(new Error("outer", { cause: "text" }))).toEqual({ kind: "unknown" });
  });
});

describe("usdcRefusalOf: what USDC's refusal of a sweep means, by its revert reason", () => {
  const cases: [string, UsdcRefusal, SignedTransferVerdict][] = [
    [USDC_REVERT.blacklisted, "blacklisted", "permanent"],
    [USDC_REVERT.toZeroAddress, "unreceivable", "permanent"],
    [USDC_REVERT.invalidSignature, "invalid_signature", "permanent"],
    [USDC_REVERT.authorizationUsed, "authorization_used", "done"],
    [USDC_REVERT.exceedsBalance, "insufficient_balance", "stale"],
    [USDC_REVERT.authorizationExpired, "expired", "transient"],
    [USDC_REVERT.paused, "paused", "transient"],
  ];
  test.each(cases)("%s → %s (%s)", async (reason, refusal, verdict) => {
    const error = await thrown(simulateSweep, (m) =>
      m === "eth_call" ? revertedWith(reason) : methodNotFound,
    );
    expect(usdcRefusalOf(error)).toEqual({ refusal, reason });
    expect(signedTransferVerdict(refusal)).toBe(verdict);
  });

  test("a failure that is no revert (the node unreachable) is no refusal: transient", async () => {
    const error = await thrown(simulateSweep, () => ({ fail: connectionRefused() }));
    expect(usdcRefusalOf(error)).toBeNull();
  });
});

describe("classifyBroadcastError: a node's refusal of a raw transaction", () => {
  const sendRaw = (transport: Transport) =>
    createPublicClient({ chain: base, transport }).sendRawTransaction({
      serializedTransaction: "0x02",
    });
  const refusedWith = (message: string) => (m: string) =>
    m === "eth_sendRawTransaction" ? { error: { code: -32000, message } } : methodNotFound;
  const cases: [string, BroadcastRefusal][] = [
    ["already known", "known"],
    ["transaction already imported", "known"],
    ["nonce too low", "nonce_used"],
    ["replacement transaction underpriced", "underpriced"],
    ["insufficient funds for gas * price + value", "insufficient_funds"],
    ["intrinsic gas too low", "other"],
  ];
  test.each(cases)("%s → %s", async (message, refusal) => {
    expect(classifyBroadcastError(await thrown(sendRaw, refusedWith(message)))).toBe(refusal);
  });

  test("no answer is unreachable; an error that is not viem's is other", async () => {
    const error = await thrown(sendRaw, () => ({ fail: connectionRefused() }));
    expect(classifyBroadcastError(error)).toBe("unreachable");
    expect(classifyBroadcastError(new Error("nonce too low"))).toBe("other");
  });
});

describe("summarizeChainError", () => {
  test("viem's short message and details, without the RPC URL", async () => {
    const error = await thrown(getReceipt, () => ({ fail: connectionRefused() }));
    expect((error as Error).message).toContain("secret-api-key");
    expect(summarizeChainError(error)).toBe("HTTP request failed. (fetch failed)");
  });

  test("another error's message", () => {
    expect(summarizeChainError(new Error("boom"))).toBe("boom");
    expect(summarizeChainError("boom")).toBe("boom");
  });
});
