import type { Insertable, Selectable, Transaction } from "kysely";
import { SLUG_PATTERN } from "../../domain/tokens.ts";
import type { Database, Executor } from "../database.ts";
import { findRowWhere, rowFinder } from "./rows.ts";

export type LinkRow = Selectable<Database["app.payment_links"]>;

/** Inserts a payment link, in the caller's transaction (its addresses were provisioned in it). */
export async function insertLink(
  trx: Transaction<Database>,
  link: Insertable<Database["app.payment_links"]>,
): Promise<void> {
  await trx.insertInto("app.payment_links").values(link).execute();
}

/** The payment link with this slug, or undefined (also for strings that cannot be slugs). */
export const findLinkBySlug = rowFinder("app.payment_links", "slug", { pattern: SLUG_PATTERN });

/**
 * The payment link whose deposit address this is, its row locked until the caller's
 * transaction ends (concurrent reconciles of one address serialise on it).
 */
export async function lockLinkByDepositAddress(
  db: Executor,
  depositAddress: string,
): Promise<LinkRow | undefined> {
  return findRowWhere(db, "app.payment_links", "deposit_address", depositAddress, {
    forUpdate: true,
  });
}

export async function setLinkStatus(
  db: Executor,
  linkId: string,
  status: LinkRow["status"],
): Promise<void> {
  await db.updateTable("app.payment_links").set({ status }).where("id", "=", linkId).execute();
}
