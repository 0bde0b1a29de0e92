import { type Selectable, sql, type Transaction } from "kysely";
import type { Currency } from "../../domain/currencies.ts";
import type { PricedLineItem } from "../../domain/invoiceTotals.ts";
import { UUID_PATTERN } from "../../domain/tokens.ts";
import type { Database, Executor } from "../database.ts";
import { findDocumentPdf, insertDocumentParts, type StoredPdf } from "./documentParts.ts";
import type { InvoiceRow } from "./invoices.ts";
import { findRowWhere, rowFinder } from "./rows.ts";

export type CreditNoteRow = Selectable<Database["app.credit_notes"]>;
export type CreditNoteLineRow = Selectable<Database["app.credit_note_lines"]>;

/**
 * The invoice `id` with its row locked until the caller's transaction ends: a credit note, a
 * reconcile (which locks the same row) and a void of one invoice serialise on it, so what a
 * credit note reads of the invoice (its status, what it was credited) is what it changes.
 */
export async function lockInvoice(
  trx: Transaction<Database>,
  id: string,
): Promise<InvoiceRow | undefined> {
  return findRowWhere(trx, "app.invoices", "id", id, { forUpdate: true });
}

/**
 * Takes the merchant's next credit note number. The row lock this update holds until commit
 * serialises concurrent credit notes of one merchant, so numbers are unique and gap-free (a
 * rolled-back credit note gives its number back), as invoice numbers are.
 */
export async function takeNextCreditNoteNumber(
  trx: Transaction<Database>,
  merchantId: string,
): Promise<number> {
  const row = await trx
    .updateTable("app.merchants")
    .set({ last_credit_note_number: sql`last_credit_note_number + 1` })
    .where("id", "=", merchantId)
    .returning("last_credit_note_number")
    .executeTakeFirstOrThrow();
  return row.last_credit_note_number;
}

/**
 * Inserts a credit note with its lines, and queues the render of its PDF; its insert trigger
 * adds its total to the invoice's credited_amount (migration 0040), in this same transaction.
 */
export async function insertCreditNote(
  trx: Transaction<Database>,
  data: {
    note: Database["app.credit_notes"];
    lines: readonly PricedLineItem[];
  },
): Promise<void> {
  await trx.insertInto("app.credit_notes").values(data.note).execute();
  await insertDocumentParts(trx, "creditNote", data.note.id, data);
}

/** Queues the vendor's email carrying the credit note's PDF (one per credit note). */
export async function queueCreditNoteEmail(
  trx: Transaction<Database>,
  note: { id: string; invoiceId: string },
  recipient: string,
): Promise<void> {
  await trx
    .insertInto("app.emails")
    .values({ kind: "credit_note", invoice_id: note.invoiceId, credit_note_id: note.id, recipient })
    .execute();
}

/** The credit note with this id, or undefined (also for ids that are not UUIDs at all). */
export const findCreditNote = rowFinder("app.credit_notes", "id", { pattern: UUID_PATTERN });

export async function findCreditNoteLines(
  db: Executor,
  creditNoteIds: readonly string[],
): Promise<CreditNoteLineRow[]> {
  if (creditNoteIds.length === 0) return [];
  return db
    .selectFrom("app.credit_note_lines")
    .selectAll()
    .where("credit_note_id", "in", creditNoteIds)
    .orderBy("credit_note_id")
    .orderBy("position")
    .execute();
}

/** The credit note's stored PDF, or undefined. */
export async function findCreditNotePdf(db: Executor, id: string): Promise<StoredPdf | undefined> {
  return findDocumentPdf(db, "creditNote", id);
}

/** An invoice's credit notes, oldest first. */
export async function creditNotesOfInvoice(
  db: Executor,
  invoiceId: string,
): Promise<CreditNoteRow[]> {
  return db
    .selectFrom("app.credit_notes")
    .selectAll()
    .where("invoice_id", "=", invoiceId)
    .orderBy("created_at")
    .orderBy("credit_note_number")
    .execute();
}

/** A merchant's newest `limit` credit notes (one invoice's when `invoiceId` is given). */
export async function merchantCreditNotes(
  db: Executor,
  merchantId: string,
  filter: { invoiceId?: string | undefined; limit: number },
): Promise<(CreditNoteRow & { invoice_number: string; currency: Currency })[]> {
  let query = db
    .selectFrom("app.credit_notes as c")
    .innerJoin("app.invoices as i", "i.id", "c.invoice_id")
    .selectAll("c")
    .select(["i.invoice_number", "i.currency"])
    .where("c.merchant_id", "=", merchantId);
  if (filter.invoiceId) query = query.where("c.invoice_id", "=", filter.invoiceId);
  return query
    .orderBy("c.created_at", "desc")
    .orderBy("c.id", "desc")
    .limit(filter.limit)
    .execute();
}
