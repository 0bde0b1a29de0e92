import type { Address, Hex } from "viem";

export type TransferEvent = {
  args: { from: Address; to: Address; value: bigint };
  block: { number: bigint; hash: Hex; timestamp: bigint };
  transaction: { hash: Hex };
  log: { logIndex: number };
};

export type TransferRow = {
  id: string;
  blockNumber: bigint;
  blockHash: Hex;
  timestamp: bigint;
  txHash: Hex;
  logIndex: number;
  from: Hex;
  to: Hex;
  value: bigint;
};

/**
 * The row to store for a USDC Transfer, or null when it touches none of our deposit
 * addresses (the vast majority on Base: those must cost nothing).
 *
 * @param depositAddresses lowercase deposit addresses
 */
export function transferRow(
  event: TransferEvent,
  depositAddresses: ReadonlySet<string>,
): TransferRow | null {
  const from = event.args.from.toLowerCase() as Hex;
  const to = event.args.to.toLowerCase() as Hex;
  if (!depositAddresses.has(to) && !depositAddresses.has(from)) return null;
  return {
    id: `${event.transaction.hash}-${event.log.logIndex}`,
    blockNumber: event.block.number,
    blockHash: event.block.hash,
    timestamp: event.block.timestamp,
    txHash: event.transaction.hash,
    logIndex: event.log.logIndex,
    from,
    to,
    value: event.args.value,
  };
}
