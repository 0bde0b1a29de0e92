import type { Transaction } from "kysely";
import type { Address } from "viem";
import type { Database } from "../db/database.ts";
import { allocateDepositAddress } from "../db/queries/depositAddresses.ts";
import type { MerchantForInvoice } from "../db/queries/merchants.ts";
import { provisionManagedWallet } from "../db/queries/merchants.ts";
import type { WalletType } from "../domain/statuses.ts";
import { deriveAddress } from "../keys/hdWallet.ts";
import type { CoreDeps } from "./deps.ts";
import { Refusal } from "./refusal.ts";

/**
 * The two addresses every invoice and link needs, in the creating transaction: where the
 * money ends up (the byo address, or the merchant's managed wallet, provisioned on first use
 * from the worker's pool: the API cannot derive managed wallets) and a fresh deposit address
 * of its own.
 */
export async function provisionAddresses(
  trx: Transaction<Database>,
  deps: Pick<CoreDeps, "depositXpub" | "log">,
  merchant: MerchantForInvoice,
  wallet: { wallet_type: WalletType; wallet_address?: string },
): Promise<{ walletAddress: string; depositAddress: Address }> {
  const walletAddress =
    wallet.wallet_type === "byo"
      ? (wallet.wallet_address as string)
      : (merchant.managedWalletAddress ?? (await provisionManagedWallet(trx, merchant.id)));
  if (walletAddress === null) {
    // The worker derives managed wallets ahead; an empty pool means no worker has run lately.
    deps.log.error("no managed wallet left in the pool: is a worker running?");
    throw new Refusal(
      "internal",
      "wallet_unavailable",
      "the managed wallet could not be provisioned; retry shortly or use a byo wallet",
    );
  }
  const depositAddress = await allocateDepositAddress(trx, (i) =>
    deriveAddress(deps.depositXpub, i),
  );
  return { walletAddress, depositAddress };
}
