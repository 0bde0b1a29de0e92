import {
  type Address,
  type EIP1193RequestFn,
  type Hex,
  hexToBigInt,
  type PublicRpcSchema,
  pad,
} from "viem";
import { USDC_ADDRESS } from "../domain/constants.ts";
import type { TransferRow } from "./transferRow.ts";

/** keccak256("Transfer(address,address,uint256)"). */
const TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
/** Blocks per eth_getLogs: within what hosted RPCs accept for a filtered query. */
const BLOCKS_PER_QUERY = 500n;

/** What the catch-up needs of the chain: Ponder's `context.client` in the handler. */
export type ChainReader = {
  request: EIP1193RequestFn<PublicRpcSchema>;
  getBlock: (args: { blockNumber: bigint }) => Promise<{ timestamp: bigint; hash: Hex | null }>;
};

/**
 * The rows whose block is still the chain's at its height. Rows a catch-up stored can be gone
 * from the index for two reasons: their transaction was rolled back (store them again), or a
 * reorg reverted them (store them again only if their own block survived it: the catch-up's
 * rows sit under the checkpoint of the block that found them, which a reorg can revert while
 * their older block stays). Throws when the chain cannot be asked.
 */
export async function rowsStillCanonical<Row extends { blockNumber: bigint; blockHash: Hex }>(
  chain: Pick<ChainReader, "getBlock">,
  rows: readonly Row[],
): Promise<Row[]> {
  const hashes = new Map<bigint, Hex | null>();
  for (const row of rows)
    if (!hashes.has(row.blockNumber))
      hashes.set(row.blockNumber, (await chain.getBlock({ blockNumber: row.blockNumber })).hash);
  return rows.filter(
    (row) => hashes.get(row.blockNumber)?.toLowerCase() === row.blockHash.toLowerCase(),
  );
}

/**
 * The USDC transfers to `addresses` in blocks `fromBlock`..`toBlock`, as the rows the handler
 * stores for live ones: what went by while the set of deposit addresses did not know them yet
 * (indexer/depositAddresses.ts). The caller inserts them through the same path as live
 * transfers (`onConflictDoNothing` on the id), so one found twice is stored once.
 */
export async function missedTransfers(
  chain: ChainReader,
  addresses: readonly string[],
  fromBlock: bigint,
  toBlock: bigint,
): Promise<TransferRow[]> {
  const recipients = addresses.map((address) => pad(address as Address).toLowerCase());
  const fetchLogs = (from: bigint, to: bigint) =>
    chain.request({
      method: "eth_getLogs",
      params: [
        {
          address: USDC_ADDRESS,
          topics: [TRANSFER_TOPIC, null, recipients as Hex[]],
          fromBlock: `0x${from.toString(16)}`,
          toBlock: `0x${to.toString(16)}`,
        },
      ],
    });
  const logs: Awaited<ReturnType<typeof fetchLogs>> = [];
  for (let from = fromBlock; from <= toBlock; from += BLOCKS_PER_QUERY) {
    const to = from + BLOCKS_PER_QUERY - 1n < toBlock ? from + BLOCKS_PER_QUERY - 1n : toBlock;
    logs.push(...(await fetchLogs(from, to)));
  }
  const timestamps = new Map<bigint, bigint>();
  const rows: TransferRow[] = [];
  for (const log of logs) {
    if (!log.blockNumber || !log.blockHash || !log.transactionHash || log.logIndex === null)
      continue; // pending logs: none in a range of mined blocks
    const blockNumber = hexToBigInt(log.blockNumber);
    if (!timestamps.has(blockNumber))
      timestamps.set(blockNumber, (await chain.getBlock({ blockNumber })).timestamp);
    const logIndex = Number(hexToBigInt(log.logIndex));
    rows.push({
      id: `${log.transactionHash}-${logIndex}`,
      blockNumber,
      blockHash: log.blockHash,
      timestamp: timestamps.get(blockNumber) ?? 0n,
      txHash: log.transactionHash,
      logIndex,
      from: `0x${(log.topics[1] ?? "").slice(-40)}`.toLowerCase() as Hex,
      to: `0x${(log.topics[2] ?? "").slice(-40)}`.toLowerCase() as Hex,
      value: hexToBigInt(log.data),
    });
  }
  return rows;
}
