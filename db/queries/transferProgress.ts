import { sql } from "kysely";
import type { RefundStatus } from "../../domain/statuses.ts";

/**
 * What a relayed transfer's progress changes (a refund's, a payout's: both move
 * `requested → submitted → confirmed | failed`); `attempt` counts one more submission.
 */
export type TransferUpdate = {
  status?: RefundStatus;
  tx_hash?: string | null;
  error?: string | null;
  attempt?: boolean;
};

/** The columns a progress update sets, on a refund's row or a payout's alike. */
export const transferProgress = (values: TransferUpdate) => ({
  ...(values.status ? { status: values.status } : {}),
  ...(values.status === "confirmed" ? { confirmed_at: new Date() } : {}),
  ...(values.tx_hash !== undefined ? { tx_hash: values.tx_hash } : {}),
  ...(values.error !== undefined ? { error: values.error } : {}),
  ...(values.attempt ? { attempts: sql<number>`attempts + 1` } : {}),
  updated_at: new Date(),
});
