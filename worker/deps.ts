import type { Account, PublicClient, WalletClient } from "viem";
import type { TransactionLookup } from "../chain/transactionMined.ts";
import type { Db } from "../db/database.ts";
import type { Keyring } from "../domain/secretBox.ts";
import type { Mailer } from "../email/mailer.ts";

/** What the worker's tasks need from the process. */
export type WorkerDeps = {
  db: Db;
  mailer: Mailer;
  /** The From of every email, e.g. `Remit <billing@example.com>`. */
  emailFrom: string;
  baseUrl: string;
  payUrl: string;
  /** Ponder's schema for this build: the transfers and the indexed head are read there. */
  indexerSchema: string;
  /** The chain, read-only: to confirm that a transfer the index lost is really gone. */
  chain: TransactionLookup;
  confirmations: number;
  /** Sweep every counted payment automatically (SWEEP=on); otherwise only on request. */
  autoSweep: boolean;
  /** Sweeping funds to merchants' wallets; absent without a relayer. */
  sweep?: {
    mnemonic: string;
    relayer: Account;
    wallet: Pick<WalletClient, "writeContract">;
    chain: Pick<PublicClient, "readContract" | "simulateContract" | "waitForTransactionReceipt">;
  };
  /** The service seed, for the managed wallets' hardened derivation (never in the API). */
  managedWalletSeed: string;
  explorerUrl: string | null;
  /** `keys` opens the sealed webhook secrets to sign with. */
  webhooks: { allowPrivate: boolean; retryBaseMs: number; timeoutMs: number; keys: Keyring };
};
