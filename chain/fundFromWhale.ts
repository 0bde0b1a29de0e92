import {
  type Address,
  createTestClient,
  createWalletClient,
  getAddress,
  type Hash,
  http,
  parseEther,
  publicActions,
} from "viem";
import { base } from "viem/chains";
import { usdcAbi } from "../abis/usdc.ts";
import { DEV_ACCOUNT_USDC, USDC_ADDRESS } from "../domain/constants.ts";
import { devAccounts } from "./deployUsdc.ts";

/** ETH the whale is given on the fork for the funding transfers' gas. */
const WHALE_GAS_WEI = parseEther("1");

/**
 * On a fork, tops each of anvil's dev accounts up to 1,000,000 USDC by impersonating `whale`
 * (an address holding USDC upstream) and sending real `transfer`s, so indexers see Transfer
 * events as they would on the simulated chain. Nothing is minted: the fork's USDC is the
 * upstream's. Resolves with the USDC moved (base units).
 *
 * @example await fundDevAccountsFromWhale("http://127.0.0.1:8545", "0x…whale")
 */
export async function fundDevAccountsFromWhale(
  rpcUrl: string,
  whaleAddress: Address,
): Promise<bigint> {
  // Accepted in any letter case: it is a setting typed by hand, for a local chain only.
  const whale = getAddress(whaleAddress.toLowerCase());
  const client = createTestClient({ mode: "anvil", chain: base, transport: http(rpcUrl) }).extend(
    publicActions,
  );
  const wallet = createWalletClient({ chain: base, transport: http(rpcUrl) });
  const balanceOf = (address: Address) =>
    client.readContract({
      address: USDC_ADDRESS,
      abi: usdcAbi,
      functionName: "balanceOf",
      args: [address],
    });

  const needs = await Promise.all(
    devAccounts.map(async (account) => ({
      to: account.address,
      value: DEV_ACCOUNT_USDC - (await balanceOf(account.address)),
    })),
  );
  const transfers = needs.filter(({ value }) => value > 0n);
  const total = transfers.reduce((sum, { value }) => sum + value, 0n);
  if (total === 0n) return 0n;
  const held = await balanceOf(whale);
  if (held < total)
    throw new Error(
      `USDC_WHALE ${whale} holds ${held} USDC base units on the fork; the dev accounts need ${total}: choose an address holding more`,
    );

  const eth = await client.getBalance({ address: whale });
  if (eth < WHALE_GAS_WEI) await client.setBalance({ address: whale, value: WHALE_GAS_WEI });
  await client.impersonateAccount({ address: whale });
  try {
    // Sent one after another (the nonces), mined together: one block time, not ten.
    const hashes: Hash[] = [];
    for (const { to, value } of transfers) {
      hashes.push(
        await wallet.writeContract({
          account: whale,
          address: USDC_ADDRESS,
          abi: usdcAbi,
          functionName: "transfer",
          args: [to, value],
        }),
      );
    }
    for (const hash of hashes) {
      const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 100 });
      if (receipt.status !== "success") throw new Error(`funding transfer ${hash} reverted`);
    }
  } finally {
    await client.stopImpersonatingAccount({ address: whale });
  }
  return total;
}
