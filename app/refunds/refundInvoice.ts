import type { InvoiceRow } from "../../db/queries/invoices.ts";
import type { Actor } from "../actor.ts";
import { authorizedInvoice, authorizedLink } from "../authorize.ts";
import type { CoreDeps } from "../deps.ts";
import {
  createRefund,
  previewRefund,
  type RefundPreview,
  type RefundTarget,
} from "./createRefund.ts";
import type { CreateRefundInput } from "./schema.ts";

export const createRefundKnownKeys = (path: string) =>
  path === "" ? ["amount", "to", "to_sender"] : [];

/** An invoice as its refunds see it. */
const invoiceRefundTarget = (invoice: InvoiceRow): RefundTarget => ({
  owner: { invoiceId: invoice.id },
  merchantId: invoice.merchant_id,
  depositAddress: invoice.deposit_address,
  walletType: invoice.wallet_type,
  vendorEmail: invoice.vendor_email,
  label: `invoice ${invoice.invoice_number}`,
});

/**
 * What refundInvoice would do for `input` now, without doing it (previewRefund): the
 * dashboard's confirmation and its form's default amount.
 */
export async function previewInvoiceRefund(
  deps: CoreDeps,
  actor: Actor,
  id: string,
  input: CreateRefundInput,
): Promise<RefundPreview> {
  const invoice = await authorizedInvoice(deps.db, actor.identity, id);
  return previewRefund(deps, invoiceRefundTarget(invoice), input);
}

/**
 * Requests a refund of the invoice `id`'s money for `actor` (the API's route and the dashboard's
 * form): the refund and, without a destination, its one-time claim URL.
 */
export async function refundInvoice(
  deps: CoreDeps,
  actor: Actor,
  id: string,
  input: CreateRefundInput,
): Promise<Awaited<ReturnType<typeof createRefund>>> {
  const invoice = await authorizedInvoice(deps.db, actor.identity, id);
  const refund = await createRefund(deps, invoiceRefundTarget(invoice), input, actor);
  deps.log.info("refund requested", { refund_id: refund.row.id, invoice_id: invoice.id });
  return refund;
}

/**
 * Requests a refund of the payment link `slug`'s money for `actor`: its owner only (a slug is
 * public, so it proves nothing); the refund and, without a destination, its one-time claim URL.
 */
export async function refundLink(
  deps: CoreDeps,
  actor: Actor,
  slug: string,
  input: CreateRefundInput,
): Promise<Awaited<ReturnType<typeof createRefund>>> {
  const link = await authorizedLink(deps.db, actor.identity, slug);
  const { row, claimUrl } = await createRefund(
    deps,
    {
      owner: { linkId: link.id },
      merchantId: link.merchant_id,
      depositAddress: link.deposit_address,
      walletType: link.wallet_type,
      vendorEmail: null,
      label: `payment link ${link.slug}`,
    },
    input,
    actor,
  );
  deps.log.info("refund requested", { refund_id: row.id, link_slug: link.slug });
  return { row, claimUrl };
}
