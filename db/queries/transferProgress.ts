import { type Selectable, sql } from "kysely";
import type { RefundStatus } from "../../domain/statuses.ts";
import type { Database, Executor } from "../database.ts";
import { untyped } from "./rows.ts";

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

/**
 * The update of a refund's or a payout's progress (`table`), which changes the row only while it
 * is in one of `onlyIf` (a check and a submission racing on one transfer: the first to move it
 * wins) and resolves with the updated row, or undefined.
 */
export function transferUpdater<T extends "app.refunds" | "app.payouts">(table: T) {
  return async (
    db: Executor,
    id: string,
    values: TransferUpdate,
    onlyIf: readonly RefundStatus[],
  ): Promise<Selectable<Database[T]> | undefined> => {
    const row = await untyped(db)
      .updateTable(table as string)
      .set(transferProgress(values))
      .where("id", "=", id)
      .where("status", "in", onlyIf)
      .returningAll()
      .executeTakeFirst();
    return row as Selectable<Database[T]> | undefined;
  };
}
