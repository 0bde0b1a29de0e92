import type { LocalAccount, PublicClient } from "viem";
import type { Db } from "../../db/database.ts";
import type { Logger } from "../../internal/logger.ts";

/** What the relayer needs of a viem public client. */
export type RelayerChain = Pick<
  PublicClient,
  | "estimateGas"
  | "estimateFeesPerGas"
  | "getBalance"
  | "getBlockNumber"
  | "getTransactionCount"
  | "getTransactionReceipt"
  | "sendRawTransaction"
>;

/**
 * The account that submits relayed transactions (sweeps; later payers' authorizations and
 * refunds) and pays their gas, with what it submits through. Every transaction it signs takes
 * its nonce from the one sequence in app.relayer_nonces (worker/relayer/submit.ts).
 */
export type Relayer = {
  db: Db;
  account: LocalAccount;
  chain: RelayerChain;
  chainId: number;
  /** A transaction not mined this many blocks after it was sent is re-sent at a higher fee. */
  replaceAfterBlocks: number;
  log: Logger;
};
