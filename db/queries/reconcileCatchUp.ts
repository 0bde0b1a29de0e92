import { sql } from "kysely";
import { JOB_KEY_PREFIX, JOB_PRIORITY, TASK } from "../../domain/jobs.ts";
import type { Db, Executor } from "../database.ts";
import { indexedHead } from "./indexer.ts";

/** What one catch-up did: the addresses it queued, and the watermark before and after. */
export type CatchUp = { queued: number; from: bigint | null; to: bigint | null };

/**
 * Queues, at catch-up priority, a reconcile of each deposit address that may have changed
 * while no worker ran, and moves the watermark up to the newest indexed transfer; one
 * transaction, a few set-based statements, whatever the history's size:
 * - addresses with a transfer (to or from them) indexed above the watermark (all of them the
 *   first time a schema is seen: a new indexer build indexes into a new schema);
 * - addresses whose stored payment state disagrees with the index: the transfers counted
 *   (payment_state.counted) are not the ids of the transfers indexed to the address from
 *   elsewhere. That catches what the trigger could not queue (it only warns on failure),
 *   and transfers still short of their confirmations (their reconcile looks again).
 * Addresses that already have a reconcile queued are left to it (its real-time priority kept).
 * Call it once the transfer trigger is installed: the trigger sees every row written after,
 * and CREATE TRIGGER waited for the writers before it, so no transfer falls in between.
 */
export async function queueReconcileCatchUp(db: Db, indexerSchema: string): Promise<CatchUp> {
  const transfers = sql.table(`${indexerSchema}.usdc_transfer`);
  return db.transaction().execute(async (trx) => {
    // One catch-up at a time per schema (two workers starting together).
    const previous = await sql<{ block_number: string }>`
      insert into app.reconcile_watermarks (indexer_schema, block_number) values (${indexerSchema}, -1)
      on conflict (indexer_schema) do update set indexer_schema = excluded.indexer_schema
      returning block_number::text`.execute(trx);
    const from = BigInt(previous.rows[0]?.block_number ?? -1);
    const { rows } = await sql<{ queued: string; head: string | null }>`
      with recent as (
        select t."to" as address from ${transfers} t where t.block_number > ${from}
        union
        select t."from" from ${transfers} t where t.block_number > ${from}
      ),
      indexed as (
        select t."to" as address, array_agg(t.id order by t.id collate "C") as ids
        from ${transfers} t
        join app.deposit_addresses d on d.address = t."to"
        where t."from" <> t."to"
        group by t."to"
      ),
      disagreeing as (
        select coalesce(i.address, s.deposit_address) as address
        from indexed i
        full join app.payment_state s on s.deposit_address = i.address
        where coalesce(i.ids, '{}') is distinct from
          coalesce((select array_agg(c order by c collate "C") from unnest(s.counted) c), '{}')
      ),
      candidates as (
        select r.address from recent r join app.deposit_addresses d on d.address = r.address
        union
        select address from disagreeing
      ),
      queued as (
        select app.add_keyed_job(
          ${TASK.reconcileDeposit},
          json_build_object('address', c.address),
          ${JOB_KEY_PREFIX.reconcile}::text || c.address,
          priority => ${JOB_PRIORITY.catchUp}::int
        )
        from candidates c
        where not exists (
          select 1 from graphile_worker._private_jobs j
          where j.key = ${JOB_KEY_PREFIX.reconcile}::text || c.address and j.locked_at is null
        )
      )
      select (select count(*) from queued)::text as queued,
             (select max(block_number) from ${transfers})::text as head`.execute(trx);
    const row = rows[0];
    const head = row?.head == null ? null : BigInt(row.head);
    if (head !== null && head > from)
      await sql`update app.reconcile_watermarks set block_number = ${head}, updated_at = now()
        where indexer_schema = ${indexerSchema}`.execute(trx);
    return { queued: Number(row?.queued ?? 0), from: from < 0n ? null : from, to: head };
  });
}

/**
 * Raises the schema's watermark to the indexer's head while the worker runs: every transfer
 * indexed up to there was written with the transfer trigger in place (the catch-up ran after
 * installing it), so a later start need not look at them again. Nothing before the schema's
 * first catch-up (no row yet). Later rows below it (a reorg, a late address's catch-up) fire
 * the trigger as they are written.
 */
export async function advanceReconcileWatermark(
  db: Executor,
  indexerSchema: string,
): Promise<void> {
  const head = await indexedHead(db, indexerSchema);
  if (head === null) return;
  await sql`update app.reconcile_watermarks set block_number = ${head}, updated_at = now()
    where indexer_schema = ${indexerSchema} and block_number < ${head}`.execute(db);
}
