import { getAddress } from "viem";
import type { PayoutRow } from "../../db/queries/payouts.ts";
import { formatUsdc } from "../../domain/money.ts";
import type { ManagedWalletState } from "./createPayout.ts";
import type { Payout } from "./schema.ts";

/** A payout as the API shows it. */
export function presentPayout(row: PayoutRow): Payout {
  return {
    payout_id: row.id,
    status: row.status,
    amount: formatUsdc(row.amount),
    from: getAddress(row.from_address),
    to: getAddress(row.to_address),
    trigger: row.trigger,
    tx_hash: row.tx_hash,
    error: row.error,
    created_at: row.created_at.toISOString(),
    confirmed_at: row.confirmed_at?.toISOString() ?? null,
  };
}

/** A managed wallet's funds as the API shows them (decimal strings). */
export function presentManagedWallet(state: ManagedWalletState) {
  if (!state) return null;
  return {
    address: state.address,
    balance: formatUsdc(state.funds.balance),
    reserved: formatUsdc(state.funds.reserved),
    available: formatUsdc(state.funds.available),
  };
}
