import { type Selectable, sql } from "kysely";
import type { PayerAuthorizationStatus } from "../../domain/relayedAuthorization.ts";
import { UUID_PATTERN } from "../../domain/tokens.ts";
import type { Database, Executor } from "../database.ts";
import { rowFinder, rowInserter } from "./rows.ts";

export type PayerAuthorizationRow = Selectable<Database["app.payer_authorizations"]>;

/** Statuses that hold the deposit address: another authorization for it would pay twice. */
const OPEN: PayerAuthorizationStatus[] = ["pending", "sending", "submitted"];

/** Stores a verified authorization; its insert trigger queues the `relay_authorization` job. */
export const insertPayerAuthorization = rowInserter("app.payer_authorizations");

/** The authorization with this id, or undefined (also for strings that are not UUIDs). */
export const findPayerAuthorization = rowFinder("app.payer_authorizations", "id", {
  pattern: UUID_PATTERN,
});

/** Whether this payer's nonce was ever stored (a replay, whatever became of the first). */
export async function isAuthorizationNonceStored(
  db: Executor,
  payer: string,
  nonce: string,
): Promise<boolean> {
  const row = await db
    .selectFrom("app.payer_authorizations")
    .select("id")
    .where("payer", "=", payer.toLowerCase())
    .where("nonce", "=", nonce.toLowerCase())
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * A relayed payment to `depositAddress` that the amount due does not show yet: one on its way
 * (pending, sending, submitted), or one mined in the last `minedWithinSeconds` whose transfer
 * is not counted yet (the indexer and CONFIRMATIONS lag behind the receipt). Accepting another
 * now would pay twice.
 */
export async function findPaymentInProgress(
  db: Executor,
  depositAddress: string,
  minedWithinSeconds: number,
): Promise<PayerAuthorizationRow | undefined> {
  return db
    .selectFrom("app.payer_authorizations as a")
    .selectAll("a")
    .where("a.deposit_address", "=", depositAddress.toLowerCase())
    .where((eb) =>
      eb.or([
        eb("a.status", "in", OPEN),
        eb.and([
          eb("a.status", "=", "mined"),
          eb("a.updated_at", ">", sql<Date>`now() - make_interval(secs => ${minedWithinSeconds})`),
          eb.not(
            eb.exists(
              eb
                .selectFrom("app.payment_state as s")
                .select(sql`1`.as("one"))
                .where("s.deposit_address", "=", eb.ref("a.deposit_address"))
                // Counted transfers are `<tx hash>-<log index>`.
                .where(
                  sql<boolean>`exists (select 1 from unnest(s.counted) c where c like a.tx_hash || '-%')`,
                ),
            ),
          ),
        ]),
      ]),
    )
    .executeTakeFirst();
}

export type PayerAuthorizationUpdate = Partial<
  Pick<PayerAuthorizationRow, "status" | "tx_hash" | "gas_used" | "error">
>;

/**
 * Moves an authorization on, only from one of `from` (a run that lost a race changes nothing);
 * true when it did.
 */
export async function updatePayerAuthorization(
  db: Executor,
  id: string,
  from: PayerAuthorizationStatus[],
  values: PayerAuthorizationUpdate,
): Promise<boolean> {
  const result = await db
    .updateTable("app.payer_authorizations")
    .set({ ...values, updated_at: new Date() })
    .where("id", "=", id)
    .where("status", "in", from)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
