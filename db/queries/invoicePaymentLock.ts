import type { Transaction } from "kysely";
import type { Database } from "../database.ts";

/**
 * The status of the invoice whose deposit address is `depositAddress`, its row share-locked until
 * the transaction ends (undefined: no invoice there, a payment link's address). A relayed
 * payment is stored under this lock and a void takes the row's update lock, so one of them
 * sees the other: a void never commits beside a payment being relayed to it.
 */
export async function lockInvoiceForPayment(
  trx: Transaction<Database>,
  depositAddress: string,
): Promise<string | undefined> {
  const row = await trx
    .selectFrom("app.invoices")
    .select("status")
    .where("deposit_address", "=", depositAddress.toLowerCase())
    .forShare()
    .executeTakeFirst();
  return row?.status;
}
