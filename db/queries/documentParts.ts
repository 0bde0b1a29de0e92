import { sql } from "kysely";
import type { PricedLineItem } from "../../domain/invoiceTotals.ts";
import { jobKey, TASK } from "../../domain/jobs.ts";
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
 * Stores the lines (in their order) of the document `id`, and its PDF when it comes rendered
 * (`pdf`), in the caller's transaction, which inserted the document itself. Without one, the
 * worker renders it from the stored record (a render_pdf job queued here, in the same commit).
 */
export async function insertDocumentParts(
  trx: Executor,
  kind: DocumentKind,
  id: string,
  parts: { lines: readonly PricedLineItem[]; pdf?: StoredPdf },
): Promise<void> {
  const { lines, pdfs, key } = DOCUMENT_PARTS[kind];
  await untyped(trx)
    .insertInto(lines)
    .values(parts.lines.map((line, position) => ({ [key]: id, ...lineColumns(line, position) })))
    .execute();
  if (parts.pdf)
    await untyped(trx)
      .insertInto(pdfs)
      .values({ [key]: id, ...parts.pdf })
      .execute();
  else await queuePdfRender(trx, kind, id);
}

/** Queues the render of the document `id`'s PDF from its stored record (worker/tasks/render_pdf.ts). */
export async function queuePdfRender(db: Executor, kind: DocumentKind, id: string): Promise<void> {
  await sql`select graphile_worker.add_job(${TASK.renderPdf}, json_build_object('kind', ${kind}::text, 'id', ${id}::uuid), job_key => ${jobKey.pdf(kind, id)}, job_key_mode => 'preserve_run_at')`.execute(
    db,
  );
}

/**
 * Stores the PDF of the document `id` unless one is stored already, and returns the stored one:
 * the first render to commit is the document's PDF for good (the table is append-only), so
 * two renders racing (the worker's job, a download ahead of it) never give two PDFs.
 */
export async function storePdfOnce(
  db: Executor,
  kind: DocumentKind,
  id: string,
  pdf: StoredPdf,
): Promise<StoredPdf> {
  const { pdfs, key } = DOCUMENT_PARTS[kind];
  await untyped(db)
    .insertInto(pdfs)
    .values({ [key]: id, ...pdf })
    .onConflict((conflict) => conflict.column(key).doNothing())
    .execute();
  const stored = await findDocumentPdf(db, kind, id);
  if (!stored) throw new Error(`the ${kind} ${id} has no PDF after storing one`);
  return stored;
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
