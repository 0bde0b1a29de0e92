// A busy chain for benchmarks: unrelated USDC transfers from dev accounts 0–7 to random
// addresses, signed before the measured window and sent a second's worth per JSON-RPC batch
// (bench/busyChainSweeps.ts, bench/baseVolume.ts).
import { randomBytes } from "node:crypto";
import {
  type Address,
  createPublicClient,
  encodeFunctionData,
  type Hex,
  http,
  type PublicClient,
  parseAbiItem,
} from "viem";
import { base } from "viem/chains";
import { usdcAbi } from "../abis/usdc.ts";
import { devAccount } from "../chain/deployUsdc.ts";
import { USDC_ADDRESS } from "../domain/constants.ts";

/** The load's senders: dev accounts 0–7 (8 pays the benchmarks' invoices, 9 is the local relayer). */
export const SENDERS = [0, 1, 2, 3, 4, 5, 6, 7].map(devAccount);
/** What the checks read the chain with. */
export type ChainReader = Pick<PublicClient, "getLogs">;

export const transferEvent = parseAbiItem(
  "event Transfer(address indexed from, address indexed to, uint256 value)",
);

/**
 * Unrelated USDC transfers at `transfersPerSecond`, signed before the window (so that signing
 * does not compete with the service for the CPU while it is measured): each sender's
 * transactions with consecutive nonces, a second's worth of them sent in one JSON-RPC batch.
 */
export async function prepareBusyChain(
  rpcUrl: string,
  seconds: number,
  transfersPerSecond: number,
): Promise<Hex[][]> {
  const client = createPublicClient({ chain: base, transport: http(rpcUrl) });
  const nonces = await Promise.all(
    SENDERS.map((sender) =>
      client.getTransactionCount({ address: sender.address, blockTag: "pending" }),
    ),
  );
  const fees = await client.estimateFeesPerGas();
  const perSender = Math.ceil(transfersPerSecond / SENDERS.length);
  const batches: Hex[][] = [];
  for (let second = 0; second < seconds; second++) {
    const batch: Hex[] = [];
    for (const [s, sender] of SENDERS.entries()) {
      for (let i = 0; i < perSender; i++) {
        const to = `0x${randomBytes(20).toString("hex")}` as Address;
        batch.push(
          await sender.signTransaction({
            chainId: base.id,
            type: "eip1559",
            to: USDC_ADDRESS,
            data: encodeFunctionData({ abi: usdcAbi, functionName: "transfer", args: [to, 1n] }),
            gas: 80_000n,
            nonce: (nonces[s] ?? 0) + second * perSender + i,
            // Well above the base fee: the load stays under the block's gas target, so the
            // base fee only falls while it runs.
            maxFeePerGas: fees.maxFeePerGas * 4n,
            maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
          }),
        );
      }
    }
    batches.push(batch);
  }
  return batches;
}

/** Sends one prepared batch a second while `going()` and batches remain. */
export async function busyChain(
  rpcUrl: string,
  batches: Hex[][],
  going: () => boolean,
): Promise<{ count: number; seconds: number }> {
  let count = 0;
  const started = performance.now();
  for (const batch of batches) {
    if (!going()) break;
    const tickStarted = performance.now();
    const body = batch.map((raw, id) => ({
      jsonrpc: "2.0",
      id,
      method: "eth_sendRawTransaction",
      params: [raw],
    }));
    const response = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const answers = (await response.json()) as { error?: { message: string } }[];
    count += answers.filter((answer) => !answer.error).length;
    const rest = 1000 - (performance.now() - tickStarted);
    if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
  }
  return { count, seconds: (performance.now() - started) / 1000 };
}

/** How many USDC transfers each block of the window carried: median and 5th percentile. */
export async function transfersPerBlock(
  client: ChainReader,
  from: bigint,
  to: bigint,
): Promise<{ median: number; p5: number }> {
  const counts = new Map<bigint, number>();
  for (let start = from; start <= to; start += 10n) {
    const end = start + 9n < to ? start + 9n : to;
    const logs = await client.getLogs({
      address: USDC_ADDRESS,
      event: transferEvent,
      fromBlock: start,
      toBlock: end,
    });
    for (const log of logs) counts.set(log.blockNumber, (counts.get(log.blockNumber) ?? 0) + 1);
  }
  // The busy window only: the last blocks drain after the load stopped.
  const sorted = [...counts.values()].sort((a, b) => a - b);
  return {
    median: sorted[Math.floor(sorted.length / 2)] ?? 0,
    p5: sorted[Math.floor(sorted.length * 0.05)] ?? 0,
  };
}
