import type { Db } from "../../db/database.ts";
import { indexedTransfersTo } from "../../db/queries/indexer.ts";
import {
  findInvoiceBySlug,
  findLineItems,
  type InvoiceRow,
  type LineItemRow,
} from "../../db/queries/invoices.ts";
import { findLinkBySlug, type LinkRow } from "../../db/queries/links.ts";
import { loadPaymentState } from "../../db/queries/paymentEvents.ts";
import type { IndexedTransfer, PaymentState } from "../../domain/paymentState.ts";

export type { InvoiceRow, LineItemRow, LinkRow };

/**
 * The public pages' read models, by slug (anyone with the URL): what the hosted invoice, the
 * checkout and the merchant portal show, and nothing more (never the merchant's API ids).
 */

/** The hosted invoice `slug`: a void one without its payment state (it offers no way to pay). */
export async function hostedInvoice(
  db: Db,
  slug: string,
): Promise<{ invoice: InvoiceRow; lines: LineItemRow[]; state: PaymentState | null } | undefined> {
  const invoice = await findInvoiceBySlug(db, slug);
  if (!invoice) return undefined;
  if (invoice.status === "void")
    return { invoice, lines: await findLineItems(db, invoice.id), state: null };
  const [lines, state] = await Promise.all([
    findLineItems(db, invoice.id),
    loadPaymentState(db, invoice.deposit_address),
  ]);
  return { invoice, lines, state };
}

/** The payment link `slug` and what it has received, for its checkout. */
export async function hostedLink(
  db: Db,
  slug: string,
): Promise<{ link: LinkRow; state: PaymentState } | undefined> {
  const link = await findLinkBySlug(db, slug);
  if (!link) return undefined;
  return { link, state: await loadPaymentState(db, link.deposit_address) };
}

/**
 * The merchant portal of the payment link `slug`: only a link paid into a managed wallet has
 * one (spec §4.8); it shows what the checkout already reveals and the payments in.
 */
export async function merchantPortal(
  deps: { db: Db; indexerSchema: string },
  slug: string,
): Promise<{ link: LinkRow; state: PaymentState; transfers: IndexedTransfer[] } | undefined> {
  const link = await findLinkBySlug(deps.db, slug);
  if (link?.wallet_type !== "managed") return undefined;
  const [state, transfers] = await Promise.all([
    loadPaymentState(deps.db, link.deposit_address),
    indexedTransfersTo(deps.db, deps.indexerSchema, link.deposit_address),
  ]);
  return { link, state, transfers };
}
