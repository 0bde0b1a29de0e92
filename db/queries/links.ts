import type { Insertable, Selectable, Transaction } from "kysely";
import { SLUG_PATTERN } from "../../domain/tokens.ts";
import type { Database, Executor } from "../database.ts";

export type LinkRow = Selectable<Database["app.payment_links"]>;

/** Inserts a payment link, in the caller's transaction (its addresses were provisioned in it). */
export async function insertLink(
  trx: Transaction<Database>,
  link: Insertable<Database["app.payment_links"]>,
): Promise<void> {
  await trx.insertInto("app.payment_links").values(link).execute();
}

/** The payment link with this slug, or undefined (also for strings that cannot be slugs). */
export async function findLinkBySlug(db: Executor, slug: string): Promise<LinkRow | undefined> {
  if (!SLUG_PATTERN.test(slug)) return undefined;
  return db.selectFrom("app.payment_links").selectAll().where("slug", "=", slug).executeTakeFirst();
}

/**
 * The payment link whose deposit address this is, its row locked until the caller's
 * transaction ends (concurrent reconciles of one address serialise on it).
 */
export async function lockLinkByDepositAddress(
  db: Executor,
  depositAddress: string,
): Promise<LinkRow | undefined> {
  return db
    .selectFrom("app.payment_links")
    .selectAll()
    .where("deposit_address", "=", depositAddress)
    .forUpdate()
    .executeTakeFirst();
}

export async function setLinkStatus(
  db: Executor,
  linkId: string,
  status: LinkRow["status"],
): Promise<void> {
  await db.updateTable("app.payment_links").set({ status }).where("id", "=", linkId).execute();
}
