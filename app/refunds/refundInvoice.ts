import type { InvoiceRow } from "../../db/queries/invoices.ts";
import type { RefundRow } from "../../db/queries/refunds.ts";
import { findRefund } from "../../db/queries/refunds.ts";
import { openSecret } from "../../domain/secretBox.ts";
import type { Actor } from "../actor.ts";
import { authorizedInvoice, authorizedLink } from "../authorize.ts";
import type { CoreDeps } from "../deps.ts";
import { rememberedAnswer } from "../idempotency.ts";
import {
  createRefund,
  previewRefund,
  REFUND_OPERATION,
  type RefundPreview,
  type RefundTarget,
  type StoredRefundAnswer,
} from "./createRefund.ts";
import { invoiceSweepOwner } from "./refundTarget.ts";
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
  sweepOwner: invoiceSweepOwner(invoice),
  currency: invoice.currency,
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
  idempotencyKey?: string,
): Promise<Awaited<ReturnType<typeof createRefund>>> {
  const invoice = await authorizedInvoice(deps.db, actor.identity, id);
  const refund = await createRefund(
    deps,
    invoiceRefundTarget(invoice),
    input,
    actor,
    idempotencyKey,
  );
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
  idempotencyKey?: string,
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
      sweepOwner: { kind: "link", status: link.status, amount: link.amount },
      currency: link.currency,
    },
    input,
    actor,
    idempotencyKey,
  );
  deps.log.info("refund requested", { refund_id: row.id, link_slug: link.slug });
  return { row, claimUrl };
}

/**
 * The refund of invoice `id` that the merchant's request under `key` made, with its claim URL
 * (opened from its sealed copy): the page a dashboard refund redirects to, shown again on a
 * reload without requesting anything. Undefined when the key made no refund of this invoice.
 */
export async function requestedInvoiceRefund(
  deps: CoreDeps,
  actor: Actor,
  id: string,
  key: string,
): Promise<{ row: RefundRow; claimUrl: string | null } | undefined> {
  const invoice = await authorizedInvoice(deps.db, actor.identity, id);
  const stored = await rememberedAnswer<StoredRefundAnswer>(
    deps.db,
    invoice.merchant_id,
    REFUND_OPERATION,
    key,
  );
  const row = stored && (await findRefund(deps.db, stored.refund_id));
  if (!stored || row?.invoice_id !== invoice.id) return undefined;
  const sealed = stored.sealed_claim_url;
  return { row, claimUrl: sealed ? openSecret(sealed, deps.webhookKeys) : null };
}
