import type { Executor } from "../database.ts";

/** A merchant's settings (app.merchants); only the underpayment tolerance so far. */
export type MerchantSettings = { underpaymentTolerance: bigint };

/** The merchant's settings; every merchant has them (columns with defaults). */
export async function findMerchantSettings(
  db: Executor,
  merchantId: string,
): Promise<MerchantSettings> {
  const row = await db
    .selectFrom("app.merchants")
    .select("underpayment_tolerance")
    .where("id", "=", merchantId)
    .executeTakeFirstOrThrow();
  return { underpaymentTolerance: BigInt(row.underpayment_tolerance) };
}

/** Sets the tolerance new invoices of the merchant snapshot (db/migrations/0021). */
export async function setUnderpaymentTolerance(
  db: Executor,
  merchantId: string,
  tolerance: bigint,
): Promise<void> {
  await db
    .updateTable("app.merchants")
    .set({ underpayment_tolerance: tolerance })
    .where("id", "=", merchantId)
    .execute();
}
