import type { Executor } from "../../db/database.ts";
import { findInvoice, type InvoiceRow } from "../../db/queries/invoices.ts";
import { notFound } from "../errors.ts";

/** The invoice with this id (a path parameter), or a 404 `not_found`. */
export async function requireInvoice(db: Executor, id: string): Promise<InvoiceRow> {
  const invoice = await findInvoice(db, id);
  if (!invoice) throw notFound("invoice");
  return invoice;
}
