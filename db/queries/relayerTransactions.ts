import { type Selectable, sql } from "kysely";
import type { Database, Executor } from "../database.ts";
import { rowFinder, rowInserter } from "./rows.ts";

export type RelayedRow = Selectable<Database["app.relayer_transactions"]>;

/**
 * Takes the next nonce of `relayer` (lowercase): the stored counter, or the chain's own count
 * of the key's transactions (`chainCount`, pending included) when that is higher (the first
 * use, or transactions sent by other means). The UPDATE's row lock serialises every taker in
 * every process until the caller's transaction ends, so call it in the transaction that
 * records the transaction signed with the nonce: a rollback gives the nonce back.
 */
export async function takeRelayerNonce(
  trx: Executor,
  relayer: string,
  chainCount: bigint,
): Promise<bigint> {
  const { rows } = await sql<{ nonce: bigint | string }>`
    insert into app.relayer_nonces (address, next_nonce) values (${relayer}, ${chainCount.toString()}::bigint + 1)
    on conflict (address) do update
      set next_nonce = greatest(app.relayer_nonces.next_nonce, ${chainCount.toString()}::bigint) + 1,
          updated_at = now()
    returning next_nonce - 1 as nonce`.execute(trx);
  const nonce = rows[0]?.nonce;
  if (nonce === undefined) throw new Error(`no nonce taken for relayer ${relayer}`);
  return BigInt(nonce);
}

/** Records a relayed transaction, answered as stored. */
export const insertRelayed = rowInserter("app.relayer_transactions");

/** The relayed transaction asked for under `purpose`, if any. */
export const findRelayedByPurpose = rowFinder("app.relayer_transactions", "purpose");

/** The relayed transaction of `relayer` (lowercase) under `nonce`, if one was recorded. */
export const findRelayedByNonce = (
  db: Executor,
  relayer: string,
  nonce: bigint,
): Promise<RelayedRow | undefined> =>
  db
    .selectFrom("app.relayer_transactions")
    .selectAll()
    .where("relayer", "=", relayer)
    .where("nonce", "=", nonce)
    .executeTakeFirst();

/** What checking or replacing a relayed transaction changes. */
export type RelayedUpdate = Partial<
  Pick<
    RelayedRow,
    | "status"
    | "sent_block"
    | "mined_hash"
    | "mined_block"
    | "receipt_status"
    | "gas_used"
    | "last_error"
    | "signed"
    | "max_fee_per_gas"
    | "max_priority_fee_per_gas"
  >
> & {
  /** A replacement's hash, appended to `hashes`. */
  addHash?: string;
};

export async function updateRelayed(
  db: Executor,
  id: string,
  values: RelayedUpdate,
): Promise<void> {
  const { addHash, ...columns } = values;
  await db
    .updateTable("app.relayer_transactions")
    .set({
      ...columns,
      ...(addHash ? { hashes: sql<string[]>`array_append(hashes, ${addHash})` } : {}),
      updated_at: new Date(),
    })
    .where("id", "=", id)
    .execute();
}
