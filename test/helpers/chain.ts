import {
  type Account,
  type Address,
  createTestClient,
  createWalletClient,
  encodeFunctionData,
  type Hash,
  type Hex,
  http,
  publicActions,
  type TransactionReceipt,
} from "viem";
import { base } from "viem/chains";
import { afterEach, beforeEach, inject } from "vitest";
import { transferWithAuthorizationTypes, usdcAbi } from "../../abis/usdc.ts";
import { devAccount } from "../../chain/deployUsdc.ts";
import { USDC_ADDRESS } from "../../domain/constants.ts";

export { devAccount };

/** This worker's anvil (chain 8453 with USDC), from test/globalSetup.ts. */
export function chainUrl(): string {
  const urls = inject("anvilUrls");
  const url = urls[Number(process.env.VITEST_POOL_ID ?? 1) - 1];
  if (!url) throw new Error(`no anvil for VITEST_POOL_ID ${process.env.VITEST_POOL_ID}`);
  return url;
}

export type Chain = ReturnType<typeof createChain>;

/** viem clients for the chain at `url`, and the moves tests make on it. */
export function createChain(url: string) {
  // cacheTime 0: viem otherwise reuses a block number up to 4 s old (one its receipt polling
  // fetched before the transaction was mined), and a reorg depth computed from it is short.
  const client = createTestClient({
    mode: "anvil",
    chain: base,
    transport: http(url),
    cacheTime: 0,
  }).extend(publicActions);
  const wallet = createWalletClient({ chain: base, transport: http(url) });
  const receipt = async (hash: Hash): Promise<TransactionReceipt> => {
    const result = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    if (result.status !== "success") throw new Error(`transaction ${hash} reverted`);
    return result;
  };

  return {
    url,
    client,
    usdcBalance: (address: Address) =>
      client.readContract({
        address: USDC_ADDRESS,
        abi: usdcAbi,
        functionName: "balanceOf",
        args: [address],
      }),

    /** A plain USDC `transfer` from `from`, mined; resolves with the receipt. */
    payUsdc: async (from: Account, to: Address, value: bigint) =>
      receipt(
        await wallet.writeContract({
          account: from,
          address: USDC_ADDRESS,
          abi: usdcAbi,
          functionName: "transfer",
          args: [to, value],
        }),
      ),

    /**
     * An EIP-3009 `transferWithAuthorization`: `from` signs, `relayer` submits and pays gas
     * (how wallets pay gaslessly, and how Remit sweeps).
     */
    payWithAuthorization: async (
      from: Account,
      to: Address,
      value: bigint,
      relayer: Account,
      nonce: Hex,
    ) => {
      if (!from.signTypedData) throw new Error("the payer must be a local account that can sign");
      const validBefore = BigInt(Math.floor(Date.now() / 1000) + 3600);
      const message = { from: from.address, to, value, validAfter: 0n, validBefore, nonce };
      const signature = await from.signTypedData({
        domain: {
          name: "USD Coin",
          version: "2",
          chainId: base.id,
          verifyingContract: USDC_ADDRESS,
        },
        types: transferWithAuthorizationTypes,
        primaryType: "TransferWithAuthorization",
        message,
      });
      return receipt(
        await wallet.writeContract({
          account: relayer,
          address: USDC_ADDRESS,
          abi: usdcAbi,
          functionName: "transferWithAuthorization",
          args: [from.address, to, value, 0n, validBefore, nonce, signature],
        }),
      );
    },

    /** A signed USDC transfer, not yet sent: to resend the very same transaction after a reorg. */
    signUsdcTransfer: async (from: Account, to: Address, value: bigint): Promise<Hex> => {
      const request = await wallet.prepareTransactionRequest({
        account: from,
        to: USDC_ADDRESS,
        data: encodeFunctionData({ abi: usdcAbi, functionName: "transfer", args: [to, value] }),
      });
      if (!from.signTransaction) throw new Error("the payer must be a local account that can sign");
      return from.signTransaction(request as never);
    },

    sendRaw: async (serialized: Hex) =>
      receipt(await client.sendRawTransaction({ serializedTransaction: serialized })),

    /** A transfer of another ERC-20 (see otherToken.ts). */
    payToken: async (token: Address, from: Account, to: Address, value: bigint) =>
      receipt(
        await wallet.writeContract({
          account: from,
          address: token,
          abi: usdcAbi,
          functionName: "transfer",
          args: [to, value],
        }),
      ),

    mine: (blocks = 1) => client.mine({ blocks }),

    /** Replaces the last `depth` blocks with empty ones (anvil_reorg): their transfers vanish. */
    reorg: (depth: number) =>
      client.request({ method: "anvil_reorg" as never, params: [depth, []] as never }),
  };
}

/**
 * This worker's chain, reverted after each test to the state it had before it, so no test sees
 * another's transfers.
 */
export function useChain(): Chain {
  const chain = createChain(chainUrl());
  let snapshot: Hex | undefined;
  beforeEach(async () => {
    snapshot = await chain.client.snapshot();
  });
  afterEach(async () => {
    if (snapshot) await chain.client.revert({ id: snapshot });
  });
  return chain;
}

/**
 * This worker's chain for a whole file, reverted once after all its tests: for files whose
 * indexer runs across tests (a revert per test would reorg it under their feet). Call the
 * returned `revert` in afterAll, after stopping the processes that use the chain.
 */
export function useChainForFile(): Chain & {
  snapshot: () => Promise<void>;
  revert: () => Promise<void>;
} {
  const chain = createChain(chainUrl());
  let id: Hex | undefined;
  return {
    ...chain,
    snapshot: async () => {
      id = await chain.client.snapshot();
    },
    revert: async () => {
      if (id) await chain.client.revert({ id });
    },
  };
}
