import type { Executor } from "../database.ts";

/**
 * Runs `work` in the caller's transaction when `db` is one, else in a transaction of its own
 * (on a bare connection, a job's): for writes that must land together whichever way they come.
 */
export async function inTransaction(
  db: Executor,
  work: (trx: Executor) => Promise<void>,
): Promise<void> {
  if (db.isTransaction) await work(db);
  else await db.transaction().execute(work);
}
