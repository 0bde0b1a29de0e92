import { type Selectable, sql } from "kysely";
import { jobKey } from "../../domain/jobs.ts";
import type { Database, Executor } from "../database.ts";
import { depositAddressOwnerColumn } from "./depositAddressOwner.ts";
import { indexedTransfersFrom } from "./indexer.ts";
import { rowFinder, rowInserter } from "./rows.ts";

export type SweepRow = Selectable<Database["app.sweeps"]>;

/** A sweep as Remit recorded it, and whether its transfer out is in the indexed ledger. */
export type IndexedSweepRow = SweepRow & { indexed: boolean };

/** The sweeps of a deposit address in order, each checked against the indexed transfers out. */
export async function findSweepsOf(
  db: Executor,
  indexerSchema: string,
  depositAddress: string,
): Promise<IndexedSweepRow[]> {
  const [rows, out] = await Promise.all([
    db
      .selectFrom("app.sweeps")
      .selectAll()
      .where("deposit_address", "=", depositAddress)
      .orderBy("sequence")
      .execute(),
    indexedTransfersFrom(db, indexerSchema, depositAddress),
  ]);
  return rows.map((row) => ({ ...row, indexed: out.some((t) => t.txHash === row.tx_hash) }));
}

/** The latest sweep of a deposit address (the highest sequence), or undefined before the first. */
export async function findLastSweep(
  db: Executor,
  depositAddress: string,
): Promise<SweepRow | undefined> {
  return db
    .selectFrom("app.sweeps")
    .selectAll()
    .where("deposit_address", "=", depositAddress)
    .orderBy("sequence", "desc")
    .executeTakeFirst();
}

/** Inserts a sweep, answered as stored. */
export const insertSweep = rowInserter("app.sweeps");

/** The sweep with this id, or undefined. */
export const findSweep = rowFinder("app.sweeps", "id");

/** What a sweep's progress changes; `attempt` counts one more submission. */
export type SweepUpdate = Partial<
  Pick<SweepRow, "status" | "tx_hash" | "error" | "relayer_nonce">
> & {
  attempt?: boolean;
};

/**
 * Updates a sweep; with `onlyIf`, only while it is in that status (a check and a submission
 * racing on one sweep: the first to move it wins). Resolves with whether a row changed.
 */
export async function updateSweep(
  db: Executor,
  id: string,
  values: SweepUpdate,
  onlyIf?: SweepRow["status"],
): Promise<boolean> {
  let query = db
    .updateTable("app.sweeps")
    .set((eb) => ({
      ...(values.status ? { status: values.status } : {}),
      ...(values.tx_hash !== undefined ? { tx_hash: values.tx_hash } : {}),
      ...(values.error !== undefined ? { error: values.error } : {}),
      ...(values.relayer_nonce !== undefined ? { relayer_nonce: values.relayer_nonce } : {}),
      ...(values.attempt ? { attempts: eb("attempts", "+", 1) } : {}),
      updated_at: new Date(),
    }))
    .where("id", "=", id);
  if (onlyIf) query = query.where("status", "=", onlyIf);
  const result = await query.executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * A signed sweep's amount, changed to what its address now holds (the nonce stays: whichever
 * signature of it USDC executes, it executes one).
 */
export async function updateSweepAmount(
  db: Executor,
  id: string,
  amount: bigint,
): Promise<SweepRow> {
  return db
    .updateTable("app.sweeps")
    .set({ amount, updated_at: new Date() })
    .where("id", "=", id)
    .where("status", "=", "signed")
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Queues the email telling an invoice's merchant that a sweep failed for good (kind
 * `sweep_failed`, once per sweep). A payment link has no merchant email: nothing is queued.
 */
export async function queueSweepFailedEmail(db: Executor, sweep: SweepRow): Promise<void> {
  await sql`
    insert into app.emails (kind, invoice_id, recipient, sweep_id)
    select 'sweep_failed', i.id, i.merchant_email, ${sweep.id}::uuid
    from app.invoices i where i.deposit_address = ${sweep.deposit_address}
    on conflict (sweep_id) where kind = 'sweep_failed' do nothing`.execute(db);
}

/** The wallet a deposit address is swept to: its invoice's or its payment link's, or null. */
export async function findSweepDestination(
  db: Executor,
  depositAddress: string,
): Promise<string | null> {
  return (await depositAddressOwnerColumn(db, depositAddress, "wallet_address")) ?? null;
}

/**
 * Takes the session advisory lock on sweeping `depositAddress` (named after its job key), or
 * returns false when another session holds it. Session-level: `db` must be one connection
 * (`db.connection()`), and the same one must call unlockSweeps.
 */
export async function tryLockSweeps(db: Executor, depositAddress: string): Promise<boolean> {
  const { rows } = await sql<{
    locked: boolean;
  }>`select pg_try_advisory_lock(hashtext(${jobKey.sweep(depositAddress)})) as locked`.execute(db);
  return rows[0]?.locked ?? false;
}

/** Releases the lock tryLockSweeps took, on the same connection. */
export async function unlockSweeps(db: Executor, depositAddress: string): Promise<void> {
  await sql`select pg_advisory_unlock(hashtext(${jobKey.sweep(depositAddress)}))`.execute(db);
}

/** How many sweeps are not confirmed and carry an error: failing, so the relayer needs a look. */
export async function countFailingSweeps(db: Executor): Promise<number> {
  const row = await db
    .selectFrom("app.sweeps")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("status", "!=", "confirmed")
    .where("error", "is not", null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
