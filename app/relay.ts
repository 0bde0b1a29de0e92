import type { Address, Hash, Hex, LocalAccount } from "viem";
import type { Executor } from "../db/database.ts";
import type { RelayedRow } from "../db/queries/relayerTransactions.ts";
import type { TransferAuthorization } from "../domain/usdcAuthorization.ts";
import type { UsdcRefusal } from "../domain/usdcRefusal.ts";

/**
 * The relayer's one procedure as the use cases that move money see it (sweeps, refunds,
 * payouts, payers' gasless payments): the worker's worker/relayer/ (its account, its one nonce
 * sequence, the chain it simulates on), passed in by the task, so app/ holds the steps and
 * never a key of the relayer.
 */
export type Relay = {
  /**
   * Sign (when Remit signs), check, simulate and submit a transferWithAuthorization through
   * the one nonce sequence, with `record` in its database transaction
   * (worker/relayer/moveByAuthorization.ts).
   */
  move(move: {
    authorization:
      | { signer: LocalAccount; from: Address; to: Address; value: bigint; nonce: Hex }
      | { message: TransferAuthorization; signature: Hex };
    purpose: string;
    merchantId: string | null | undefined;
    record: (trx: Executor, relayed: RelayedRow) => Promise<void>;
  }): Promise<
    | { submitted: true; relayed: RelayedRow }
    | { submitted: false; refusal: UsdcRefusal; reason: string; revert?: unknown }
  >;
  /** Whether USDC has used `from`'s authorization `nonce`: its transfer executed. */
  authorizationUsed(from: Address, nonce: Hex): Promise<boolean>;
  /** One look at a relayed transaction, never a wait (worker/relayer/check.ts). */
  checkRelayed(
    row: RelayedRow,
  ): Promise<{ state: "mined"; hash: Hash; success: boolean } | { state: "pending" | "dropped" }>;
  /** A failed move in one line, for the caller's error column. */
  describeFailure(error: unknown): string;
};
