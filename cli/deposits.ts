import { createPublicClient, getAddress } from "viem";
import { base } from "viem/chains";
import { usdcAbi } from "../abis/usdc.ts";
import { rpcTransport } from "../chain/rpc.ts";
import { createDb } from "../db/database.ts";
import { findDepositOwners } from "../db/queries/depositAddresses.ts";
import { queueSweep } from "../db/queries/jobs.ts";
import { USDC_ADDRESS } from "../domain/constants.ts";
import { formatUsdc } from "../domain/money.ts";

export type DepositsOptions = { databaseUrl: string; rpcUrl: string };

/**
 * Deposit addresses that still hold USDC, read from the chain: what `SWEEP=off` (or a sweep
 * that failed) leaves behind. Runs where the service runs: it reads the database directly.
 */
export async function depositsWithFunds(options: DepositsOptions) {
  const db = createDb(options.databaseUrl, { max: 2 });
  const chain = createPublicClient({ chain: base, transport: rpcTransport(options.rpcUrl) });
  try {
    const funded = [];
    for (const row of await findDepositOwners(db)) {
      const balance = await chain.readContract({
        address: USDC_ADDRESS,
        abi: usdcAbi,
        functionName: "balanceOf",
        args: [getAddress(row.deposit_address)],
      });
      if (balance > 0n) {
        funded.push({
          deposit_address: getAddress(row.deposit_address),
          owner: row.owner,
          destination: getAddress(row.wallet_address),
          balance: formatUsdc(balance),
        });
      }
    }
    return funded;
  } finally {
    await db.destroy();
  }
}

/** Queues a sweep of each given deposit address; the worker moves the funds. */
export async function queueSweeps(options: DepositsOptions, addresses: string[]): Promise<void> {
  const db = createDb(options.databaseUrl, { max: 2 });
  try {
    for (const address of addresses) await queueSweep(db, address.toLowerCase());
  } finally {
    await db.destroy();
  }
}
