import { findDerivationIndex } from "../db/queries/depositAddresses.ts";
import { payoutWalletProblem } from "../domain/payoutWallet.ts";
import type { CoreDeps } from "./deps.ts";
import { validationError } from "./refusal.ts";

/**
 * Refuses, as a 400 on `wallet_address`, a merchant's own wallet that can never receive a
 * sweep: the zero address, the USDC contract, the relayer (payoutWalletProblem), or one of
 * this service's deposit addresses (its funds would read as a payment to that address).
 */
export async function assertPayoutWalletAllowed(
  deps: Pick<CoreDeps, "db" | "relayerAddress">,
  walletAddress: string | undefined,
): Promise<void> {
  if (!walletAddress) return;
  const problem =
    payoutWalletProblem(walletAddress, deps) ??
    ((await findDerivationIndex(deps.db, walletAddress.toLowerCase())) !== undefined
      ? {
          code: "deposit_address",
          message:
            "cannot be one of this service's deposit addresses: funds swept there would read as a payment",
        }
      : null);
  if (problem) throw validationError([{ path: "wallet_address", ...problem }]);
}
