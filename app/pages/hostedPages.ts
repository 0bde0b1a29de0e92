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
import { refundedAmountOf } from "../../db/queries/refunds.ts";
import type { IndexedTransfer, PaymentState } from "../../domain/paymentState.ts";

export type { InvoiceRow, LineItemRow, LinkRow };

/**
 * The public pages' read models, by slug (anyone with the URL): what the hosted invoice, the
 * checkout and the merchant portal show, and nothing more (never the merchant's API ids).
 */

/**
 * The hosted invoice `slug`: a void one without its payment state (it offers no way to pay);
 * `refunded`, what its confirmed refunds paid back to the payer (0 without any).
 */
export async function hostedInvoice(
  db: Db,
  slug: string,
): Promise<
  | { invoice: InvoiceRow; lines: LineItemRow[]; state: PaymentState | null; refunded: bigint }
  | undefined
> {
  const invoice = await findInvoiceBySlug(db, slug);
  if (!invoice) return undefined;
  if (invoice.status === "void") {
    const [lines, refunded] = await Promise.all([
      findLineItems(db, invoice.id),
      refundedAmountOf(db, { invoiceId: invoice.id }),
    ]);
    return { invoice, lines, state: null, refunded };
  }
  const [lines, state, refunded] = await Promise.all([
    findLineItems(db, invoice.id),
    loadPaymentState(db, invoice.deposit_address),
    refundedAmountOf(db, { invoiceId: invoice.id }),
  ]);
  return { invoice, lines, state, refunded };
}

/** The payment link `slug`, what it has received and what was refunded, for its checkout. */
export async function hostedLink(
  db: Db,
  slug: string,
): Promise<{ link: LinkRow; state: PaymentState; refunded: bigint } | undefined> {
  const link = await findLinkBySlug(db, slug);
  if (!link) return undefined;
  const [state, refunded] = await Promise.all([
    loadPaymentState(db, link.deposit_address),
    refundedAmountOf(db, { linkId: link.id }),
  ]);
  return { link, state, refunded };
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
