import { sql, type Transaction } from "kysely";
import type { Currency } from "../../domain/currencies.ts";
import type { IndexedTransfer } from "../../domain/paymentState.ts";
import type { Database, Executor } from "../database.ts";
import {
  type AmountFilter,
  inRange,
  keysetPage,
  type ListOrder,
  type ListPage,
  type ListResult,
} from "./listPage.ts";

/** The payment list's filters; each one given narrows the list (they combine with AND). */
export type PaymentListFilters = {
  /** Only payments of invoices, or of payment links. */
  kind?: "invoice" | "link";
  invoiceId?: string;
  linkId?: string;
  /** The payer's address (any case). */
  payer?: string;
  /** Block time at or after / before these moments. */
  paidFrom?: Date;
  paidBefore?: Date;
} & AmountFilter;

/** One counted transfer, with what it paid (an invoice's number or a link's slug). */
export type PaymentListRow = {
  id: string;
  tx_hash: string;
  log_index: number;
  payer: string;
  amount: bigint;
  block_number: bigint;
  block_time: Date;
  deposit_address: string;
  invoice_id: string | null;
  invoice_number: string | null;
  link_id: string | null;
  link_slug: string | null;
  link_description: string | null;
  /** What the invoice or link it paid is priced in (its `amount` is USDC whatever this is). */
  currency: Currency;
  list_at: string;
};

/** Newest block first: the index payments_merchant_time (merchant, block_time, id). */
const PAYMENT_ORDER: ListOrder = {
  kind: "payments",
  moment: "p.block_time",
  id: "p.id",
  idType: "text",
};

/**
 * A page of the merchant's counted payments (app.payments), newest block first (block time,
 * then transfer id), filtered, each with what it paid (its invoice's number, its link's slug
 * and description): the API's payment list and the dashboard's.
 */
export async function listPayments(
  db: Executor,
  merchantId: string,
  filters: PaymentListFilters,
  page: ListPage,
): Promise<ListResult<PaymentListRow>> {
  let query = db
    .selectFrom("app.payments as p")
    .leftJoin("app.invoices as i", "i.id", "p.invoice_id")
    .leftJoin("app.payment_links as l", "l.id", "p.link_id")
    .select([
      "p.id",
      "p.tx_hash",
      "p.log_index",
      "p.payer",
      "p.amount",
      "p.block_number",
      "p.block_time",
      "p.deposit_address",
      "p.invoice_id",
      "i.invoice_number",
      "p.link_id",
      "l.slug as link_slug",
      "l.description as link_description",
    ])
    .select(sql<Currency>`coalesce(i.currency, l.currency, 'USDC')`.as("currency"))
    .where("p.merchant_id", "=", merchantId);
  if (filters.kind === "invoice") query = query.where("p.invoice_id", "is not", null);
  if (filters.kind === "link") query = query.where("p.link_id", "is not", null);
  if (filters.invoiceId) query = query.where("p.invoice_id", "=", filters.invoiceId);
  if (filters.linkId) query = query.where("p.link_id", "=", filters.linkId);
  if (filters.payer) query = query.where("p.payer", "=", filters.payer.toLowerCase());
  query = query
    .$call(inRange("p.block_time", { min: filters.paidFrom, before: filters.paidBefore }))
    .$call(inRange("p.amount", { min: filters.amountMin, max: filters.amountMax }));
  return keysetPage(query, PAYMENT_ORDER, page);
}

/**
 * Makes app.payments hold exactly the transfers counted for a deposit address, in the
 * reconcile's transaction: a transfer no longer counted (reorged out) loses its row, one counted
 * again where it was re-mined gets its new block. Idempotent.
 */
export async function saveCountedPayments(
  trx: Transaction<Database>,
  owner: { merchantId: string; invoiceId?: string; linkId?: string },
  depositAddress: string,
  counted: readonly IndexedTransfer[],
): Promise<void> {
  const address = depositAddress.toLowerCase();
  const ids = counted.map((t) => t.id);
  let stale = trx.deleteFrom("app.payments").where("deposit_address", "=", address);
  if (ids.length) stale = stale.where("id", "not in", ids);
  await stale.execute();
  if (!ids.length) return;
  await trx
    .insertInto("app.payments")
    .values(
      counted.map((t) => ({
        id: t.id,
        merchant_id: owner.merchantId,
        deposit_address: address,
        invoice_id: owner.invoiceId ?? null,
        link_id: owner.linkId ?? null,
        payer: t.from.toLowerCase(),
        amount: t.value,
        tx_hash: t.txHash.toLowerCase(),
        log_index: Number(t.id.split("-")[1]),
        block_number: t.blockNumber,
        block_time: t.paidAt,
      })),
    )
    .onConflict((oc) =>
      oc.column("id").doUpdateSet((eb) => ({
        block_number: eb.ref("excluded.block_number"),
        block_time: eb.ref("excluded.block_time"),
      })),
    )
    .execute();
}

/**
 * The counted payments (app.payments) of each of `depositAddresses`, as transfers: what a
 * currency-priced owner's conversions are read back against (app/payments/paymentConversions.ts).
 */
export async function countedPaymentsAt(
  db: Executor,
  depositAddresses: readonly string[],
): Promise<(IndexedTransfer & { depositAddress: string })[]> {
  if (!depositAddresses.length) return [];
  const rows = await db
    .selectFrom("app.payments")
    .select(["id", "tx_hash", "payer", "amount", "block_number", "block_time", "deposit_address"])
    .where(
      "deposit_address",
      "in",
      depositAddresses.map((a) => a.toLowerCase()),
    )
    .execute();
  return rows.map((row) => ({
    id: row.id,
    txHash: row.tx_hash,
    from: row.payer,
    value: row.amount,
    blockNumber: row.block_number,
    paidAt: row.block_time,
    depositAddress: row.deposit_address,
  }));
}
