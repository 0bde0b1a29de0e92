import { getAddress } from "viem";
import type { RefundRow } from "../../db/queries/refunds.ts";
import { formatUsdc } from "../../domain/money.ts";
import type { Refund } from "./schema.ts";

/** A refund as the API shows it (never its claim token, which is stored only as a hash). */
export function presentRefund(row: RefundRow): Refund {
  return {
    refund_id: row.id,
    status: row.status,
    amount: formatUsdc(row.amount),
    ...(row.currency === "USDC"
      ? {}
      : {
          currency: row.currency,
          amount_in_currency:
            row.amount_in_currency === null ? null : formatUsdc(row.amount_in_currency),
        }),
    source: row.source,
    from: getAddress(row.from_address),
    to: row.to_address ? getAddress(row.to_address) : null,
    to_sender: row.to_sender,
    claim_expires_at: row.claim_expires_at?.toISOString() ?? null,
    claimed_at: row.claimed_at?.toISOString() ?? null,
    tx_hash: row.tx_hash,
    error: row.error,
    created_at: row.created_at.toISOString(),
    confirmed_at: row.confirmed_at?.toISOString() ?? null,
  };
}
