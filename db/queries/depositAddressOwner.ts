import type { Executor } from "../database.ts";

/**
 * A column of what a deposit address was made for: its invoice's, else its payment link's
 * (undefined: neither). One lookup for every "whose address is this" question, so the order in
 * which the two owners are asked (the invoice first) is decided once.
 */
export async function depositAddressOwnerColumn(
  db: Executor,
  depositAddress: string,
  column: "merchant_id" | "wallet_address",
): Promise<string | undefined> {
  const invoice = await db
    .selectFrom("app.invoices")
    .select(column)
    .where("deposit_address", "=", depositAddress)
    .executeTakeFirst();
  if (invoice) return invoice[column];
  const link = await db
    .selectFrom("app.payment_links")
    .select(column)
    .where("deposit_address", "=", depositAddress)
    .executeTakeFirst();
  return link?.[column];
}
