import { type Insertable, type Selectable, sql, type Transaction } from "kysely";
import type { PricedLineItem } from "../../domain/invoiceTotals.ts";
import { SLUG_PATTERN, UUID_PATTERN } from "../../domain/tokens.ts";
import type { Database, Executor } from "../database.ts";
import { findDocumentPdf, insertDocumentParts, type StoredPdf } from "./documentParts.ts";
import { findRowWhere, rowFinder } from "./rows.ts";

export type InvoiceRow = Selectable<Database["app.invoices"]>;
export type LineItemRow = Selectable<Database["app.invoice_line_items"]>;

/** An invoice row as it is first written (its id and creation time chosen by the caller). */
export type NewInvoiceRow = Insertable<Database["app.invoices"]> & { id: string; created_at: Date };

/**
 * Inserts an invoice with its line items, queues the render of its PDF (the render_pdf job),
 * and queues the vendor email when it is sent at creation (the email row's trigger adds the
 * send_email job), all in this same transaction.
 */
export async function insertInvoice(
  trx: Transaction<Database>,
  data: {
    invoice: NewInvoiceRow;
    lines: PricedLineItem[];
    sendToVendor: boolean;
  },
): Promise<void> {
  await trx.insertInto("app.invoices").values(data.invoice).execute();
  await insertDocumentParts(trx, "invoice", data.invoice.id, data);
  if (data.sendToVendor) await queueVendorEmail(trx, data.invoice.id, data.invoice.vendor_email);
}

/** Queues the vendor's invoice email; at most one per invoice (a unique index). */
async function queueVendorEmail(
  trx: Transaction<Database>,
  invoiceId: string,
  recipient: string,
): Promise<void> {
  await trx
    .insertInto("app.emails")
    .values({ kind: "vendor_invoice", invoice_id: invoiceId, recipient })
    .execute();
}

/**
 * When the merchant's newest invoice was created (null before its first): read under the
 * merchant's row lock by a creation, so that a later number is never an earlier time.
 */
export async function findNewestInvoiceTime(
  db: Executor,
  merchantId: string,
): Promise<Date | null> {
  const row = await db
    .selectFrom("app.invoices")
    .select((eb) => eb.fn.max("created_at").as("newest"))
    .where("merchant_id", "=", merchantId)
    .executeTakeFirst();
  return row?.newest ?? null;
}

/** The invoice with this id, or undefined (also for ids that are not UUIDs at all). */
export const findInvoice = rowFinder("app.invoices", "id", { pattern: UUID_PATTERN });

/** The invoice with this slug, or undefined (also for strings that cannot be slugs). */
export const findInvoiceBySlug = rowFinder("app.invoices", "slug", { pattern: SLUG_PATTERN });

export async function findLineItems(db: Executor, invoiceId: string): Promise<LineItemRow[]> {
  return db
    .selectFrom("app.invoice_line_items")
    .selectAll()
    .where("invoice_id", "=", invoiceId)
    .orderBy("position")
    .execute();
}

/** The invoice's stored PDF, or undefined. */
export async function findPdf(db: Executor, invoiceId: string): Promise<StoredPdf | undefined> {
  return findDocumentPdf(db, "invoice", invoiceId);
}

/**
 * Moves a draft to `sent` and queues the vendor email, atomically. Returns the updated row, or
 * undefined when the invoice was not a draft (a concurrent send got there first).
 */
export async function markSent(
  trx: Transaction<Database>,
  invoiceId: string,
): Promise<InvoiceRow | undefined> {
  const row = await trx
    .updateTable("app.invoices")
    .set({ status: "sent", sent_at: new Date() })
    .where("id", "=", invoiceId)
    .where("status", "=", "draft")
    .returningAll()
    .executeTakeFirst();
  if (row) await queueVendorEmail(trx, row.id, row.vendor_email);
  return row;
}

/**
 * The invoice whose deposit address this is, its row locked until the caller's transaction
 * ends (concurrent reconciles of one address serialise on it).
 */
export async function lockInvoiceByDepositAddress(
  db: Executor,
  depositAddress: string,
): Promise<InvoiceRow | undefined> {
  return findRowWhere(db, "app.invoices", "deposit_address", depositAddress, { forUpdate: true });
}

export async function setInvoiceStatus(
  db: Executor,
  invoiceId: string,
  status: InvoiceRow["status"],
): Promise<void> {
  await db
    .updateTable("app.invoices")
    // Credited in full and nothing received (domain/paymentState.ts invoiceStatusFor): void,
    // with the moment it became so (voided once: a void invoice's status never changes again).
    .set(status === "void" ? { status, voided_at: sql`coalesce(voided_at, now())` } : { status })
    .where("id", "=", invoiceId)
    .execute();
}
