import { getAddress } from "viem";
import { formatUsdc } from "./money.ts";
import type { SweepStatus } from "./statuses.ts";

/** A sweep as the API and the merchant portal show it. */
export type SweepView = {
  sequence: number;
  amount: string;
  destination: string;
  status: SweepStatus;
  tx_hash: string | null;
  error: string | null;
  /** Whether the sweep's transfer out of the deposit address is in the indexed ledger. */
  indexed: boolean;
  created_at: string;
};

/** What a stored sweep needs to be shown: Remit's record and whether the index has seen it. */
export type SweepRecord = {
  sequence: number;
  amount: bigint;
  destination: string;
  status: SweepStatus;
  tx_hash: string | null;
  error: string | null;
  indexed: boolean;
  created_at: Date;
};

/** A stored sweep in the shape the API and pages show: decimal amount, checksummed address. */
export function presentSweep(row: SweepRecord): SweepView {
  return {
    sequence: row.sequence,
    amount: formatUsdc(row.amount),
    destination: getAddress(row.destination),
    status: row.status,
    tx_hash: row.tx_hash,
    error: row.error,
    indexed: row.indexed,
    created_at: row.created_at.toISOString(),
  };
}
