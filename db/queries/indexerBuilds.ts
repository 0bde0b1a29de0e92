import { sql } from "kysely";
import type { Db, Executor } from "../database.ts";
import { dropIndexIn, indexedHead } from "./indexer.ts";

/** One indexer build stored in the database: a schema Ponder wrote (`idx_<hash>`). */
export type StoredIndexerBuild = {
  schema: string;
  /** Ponder's `is_ready`: its backfill is done and it indexes live (it then made the views). */
  ready: boolean;
  /** Ponder's `is_locked`: a Ponder holds the schema, or died holding it. */
  locked: boolean;
  /** When that Ponder last renewed its lock (ms since the epoch, its clock); null if never. */
  heartbeatAt: number | null;
  /** The latest block it has fully indexed; null before its first. */
  indexedBlock: bigint | null;
};

type PonderMeta = { is_ready?: number; is_locked?: number; heartbeat_at?: number };

/**
 * Every schema holding a build of Remit's indexer: Ponder's `_ponder_meta` as a table (the
 * `indexer` views schema holds it as a view) beside a `usdc_transfer` table.
 */
export async function listIndexerBuilds(db: Executor): Promise<StoredIndexerBuild[]> {
  const { rows } = await sql<{ schema: string }>`
    select n.nspname as schema from pg_namespace n
    where exists (select 1 from pg_class c
                  where c.relnamespace = n.oid and c.relname = '_ponder_meta' and c.relkind = 'r')
      and exists (select 1 from pg_class c
                  where c.relnamespace = n.oid and c.relname = 'usdc_transfer' and c.relkind in ('r', 'p'))
    order by n.nspname`.execute(db);
  return Promise.all(
    rows.map(async ({ schema }) => ({
      ...(await readPonderMeta(db, schema, false)),
      indexedBlock: await indexedHead(db, schema),
    })),
  );
}

async function readPonderMeta(db: Executor, schema: string, forUpdate: boolean) {
  const meta = await sql<{ value: PonderMeta }>`
    select value from ${sql.table(`${schema}._ponder_meta`)} where key = 'app'
    ${forUpdate ? sql`for update` : sql``}`.execute(db);
  const value = meta.rows[0]?.value ?? {};
  return {
    schema,
    ready: value.is_ready === 1,
    locked: value.is_locked === 1,
    heartbeatAt: typeof value.heartbeat_at === "number" ? value.heartbeat_at : null,
  };
}

/**
 * Drops a build's schema (and its reconcile watermark) unless `inUse` says otherwise of its
 * Ponder lock, read again under a row lock: a Ponder starting on it meanwhile either took the
 * lock before (the schema is kept) or waits for this transaction and finds its schema gone.
 * Whether it dropped it.
 */
export async function dropIndexerBuildUnless(
  db: Db,
  schema: string,
  inUse: (build: Omit<StoredIndexerBuild, "indexedBlock">) => boolean,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if (inUse(await readPonderMeta(trx, schema, true))) return false;
    await dropIndexIn(trx, schema);
    return true;
  });
}

/**
 * The schema the `indexer` views (`indexer.usdc_transfer`, which auditors read) select from:
 * the build Ponder last made current. Null when there are no views yet.
 */
export async function indexerViewsTarget(db: Executor): Promise<string | null> {
  const { rows } = await sql<{ schema: string }>`
    select distinct tn.nspname as schema
    from pg_class v
    join pg_namespace vn on vn.oid = v.relnamespace
    join pg_rewrite r on r.ev_class = v.oid
    join pg_depend d on d.classid = 'pg_rewrite'::regclass and d.objid = r.oid
                     and d.refclassid = 'pg_class'::regclass
    join pg_class t on t.oid = d.refobjid and t.oid <> v.oid
    join pg_namespace tn on tn.oid = t.relnamespace
    where vn.nspname = 'indexer' and v.relname = 'usdc_transfer' and v.relkind = 'v'`.execute(db);
  return rows[0]?.schema ?? null;
}
