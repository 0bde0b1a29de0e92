import { sql } from "kysely";
import type { Executor } from "../database.ts";
import { depositAddressOwnerColumn } from "./depositAddressOwner.ts";
import type { RefundOwner } from "./refunds.ts";

/** What the relayer's gas went to: sweeps, refunds, payers' gasless payments. */
export const RELAYER_GAS_KINDS = ["sweep", "refund", "gasless"] as const;
export type RelayerGasKind = (typeof RELAYER_GAS_KINDS)[number];

export type RelayerGasSpent = { total: bigint; byKind: Record<RelayerGasKind, bigint> };

/**
 * The relayer's gas since `since` (the start of the UTC day), for the whole service or one
 * merchant: what its transactions recorded since then used (their receipt's gas once mined,
 * their gas limit while pending; one whose nonce went to another transaction cost nothing),
 * plus what is held for work accepted and not yet sent: a payer's authorization stored today
 * and not yet submitted (its estimated gas), and every refund requested and not yet submitted
 * (`refundReserve` each, whatever day it was requested: a claim link may be used days later).
 * A transaction is recorded in the same database transaction that moves its authorization or
 * refund on, so nothing is counted twice or not at all.
 */
export async function relayerGasSpent(
  db: Executor,
  since: Date,
  refundReserve: bigint,
  merchantId?: string,
): Promise<RelayerGasSpent> {
  const merchant = merchantId ?? null;
  const { rows } = await sql<{ sweep: string; refund: string; gasless: string }>`
    with tx as (
      select purpose,
        case status when 'mined' then coalesce(gas_used, gas) when 'pending' then gas else 0 end as gas
      from app.relayer_transactions
      where created_at >= ${since} and (${merchant}::uuid is null or merchant_id = ${merchant}::uuid)
    )
    select
      (select coalesce(sum(gas), 0) from tx where purpose like 'sweep:%')::text as sweep,
      ((select coalesce(sum(gas), 0) from tx where purpose like 'refund:%')
        + (select count(*) from app.refunds
            where status = 'requested' and (${merchant}::uuid is null or merchant_id = ${merchant}::uuid))
          * ${refundReserve.toString()}::numeric)::text as refund,
      ((select coalesce(sum(gas), 0) from tx where purpose like 'relay:%')
        + (select coalesce(sum(a.gas_reserved), 0) from app.payer_authorizations a
            where a.status in ('pending', 'sending') and a.created_at >= ${since}
              and (${merchant}::uuid is null
                or exists (select 1 from app.invoices i
                  where i.deposit_address = a.deposit_address and i.merchant_id = ${merchant}::uuid)
                or exists (select 1 from app.payment_links l
                  where l.deposit_address = a.deposit_address and l.merchant_id = ${merchant}::uuid)))
      )::text as gasless`.execute(db);
  const row = rows[0];
  const byKind = {
    sweep: BigInt(row?.sweep ?? "0"),
    refund: BigInt(row?.refund ?? "0"),
    gasless: BigInt(row?.gasless ?? "0"),
  };
  return { total: byKind.sweep + byKind.refund + byKind.gasless, byKind };
}

/**
 * Serialises the budget check and the reservation (a refund, a payer's authorization) of every
 * API process (a transaction-level advisory lock): two requests cannot both take the last of
 * the day's gas. Taken last, after any row or deposit lock, so the order never inverts.
 */
export async function lockRelayerGasBudget(trx: Executor): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('remit:relayer-gas-budget'))`.execute(trx);
}

/** Today's spend (since `since`), the whole service's and one merchant's. */
export async function relayerSpend(
  db: Executor,
  since: Date,
  refundReserve: bigint,
  merchantId: string,
): Promise<{ global: bigint; merchant: bigint }> {
  const global = await relayerGasSpent(db, since, refundReserve);
  const merchant = await relayerGasSpent(db, since, refundReserve, merchantId);
  return { global: global.total, merchant: merchant.total };
}

/** The merchant whose invoice or link has this deposit address, if any. */
export async function merchantOfDepositAddress(
  db: Executor,
  depositAddress: string,
): Promise<string | undefined> {
  return depositAddressOwnerColumn(db, depositAddress.toLowerCase(), "merchant_id");
}

/**
 * Serialises a merchant's refund requests for the rest of the caller's transaction (every API
 * process): its hourly rate is counted and the new refund inserted under it.
 */
export async function lockMerchantRefunds(trx: Executor, merchantId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`remit:refunds:${merchantId}`}))`.execute(trx);
}

/** A merchant's refunds requested since `since`: how many, and when the oldest of them was. */
export async function merchantRefundsSince(
  db: Executor,
  merchantId: string,
  since: Date,
): Promise<{ count: number; oldest: Date | null }> {
  const row = await db
    .selectFrom("app.refunds")
    .select((eb) => [
      eb.fn.countAll<string>().as("count"),
      eb.fn.min<Date | null>("created_at").as("oldest"),
    ])
    .where("merchant_id", "=", merchantId)
    .where("created_at", ">=", since)
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), oldest: row.oldest };
}

/** Refunds of an invoice or link not finished yet (requested or submitted). */
export async function countUnfinishedRefunds(db: Executor, owner: RefundOwner): Promise<number> {
  const query = db
    .selectFrom("app.refunds")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("status", "in", ["requested", "submitted"]);
  const row = await (owner.invoiceId !== undefined
    ? query.where("invoice_id", "=", owner.invoiceId)
    : query.where("link_id", "=", owner.linkId)
  ).executeTakeFirstOrThrow();
  return Number(row.n);
}
