import type { PricedLineItem } from "../../domain/invoiceTotals.ts";
import type { Executor } from "../database.ts";
import { lineColumns } from "./lineColumns.ts";
import { type AppTable, untyped } from "./rows.ts";

/**
 * Where a document's priced lines and its PDF are stored, an invoice's or a credit note's: the
 * same columns in each pair of tables (migrations 0002, 0039, 0040), keyed by the document's id.
 */
const DOCUMENT_PARTS = {
  invoice: { lines: "app.invoice_line_items", pdfs: "app.invoice_pdfs", key: "invoice_id" },
  creditNote: {
    lines: "app.credit_note_lines",
    pdfs: "app.credit_note_pdfs",
    key: "credit_note_id",
  },
} as const satisfies Record<string, { lines: AppTable; pdfs: AppTable; key: string }>;

/** A document that has priced lines and a PDF. */
export type DocumentKind = keyof typeof DOCUMENT_PARTS;

/** A document's PDF as stored, with its SHA-256. */
export type StoredPdf = { pdf: Buffer; sha256: string };

/**
 * Stores the lines (in their order) and the PDF of the document `id`, in the caller's
 * transaction, which inserted the document itself.
 */
export async function insertDocumentParts(
  trx: Executor,
  kind: DocumentKind,
  id: string,
  parts: { lines: readonly PricedLineItem[]; pdf: StoredPdf },
): Promise<void> {
  const { lines, pdfs, key } = DOCUMENT_PARTS[kind];
  await untyped(trx)
    .insertInto(lines)
    .values(parts.lines.map((line, position) => ({ [key]: id, ...lineColumns(line, position) })))
    .execute();
  await untyped(trx)
    .insertInto(pdfs)
    .values({ [key]: id, ...parts.pdf })
    .execute();
}

/** The stored PDF of the document `id`, or undefined. */
export async function findDocumentPdf(
  db: Executor,
  kind: DocumentKind,
  id: string,
): Promise<StoredPdf | undefined> {
  const { pdfs, key } = DOCUMENT_PARTS[kind];
  const row = await untyped(db)
    .selectFrom(pdfs)
    .select(["pdf", "sha256"])
    .where(key, "=", id)
    .executeTakeFirst();
  return row as StoredPdf | undefined;
}
