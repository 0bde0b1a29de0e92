import { findInvoiceBySlug } from "../../db/queries/invoices.ts";
import { findLinkBySlug } from "../../db/queries/links.ts";
import { loadPaymentState } from "../../db/queries/paymentEvents.ts";
import { type RefundOwner, refundedAmountOf } from "../../db/queries/refunds.ts";
import { reportedStatus, utcToday } from "../../domain/invoiceStatus.ts";
import { formatUsdc } from "../../domain/money.ts";
import type { PaymentState } from "../../domain/paymentState.ts";
import type { CoreDeps } from "../deps.ts";
import type { PaymentStatusResponse } from "../links/schema.ts";

const received = (state: PaymentState) =>
  state.latestTxHash && state.latestPaidAt
    ? {
        tx_hash: state.latestTxHash,
        amount_usdc: formatUsdc(state.received),
        confirmed_at: state.latestPaidAt.toISOString(),
      }
    : {};

/** `refunded_amount` once a refund was paid (confirmed refunds notify the status cache). */
async function refunded(deps: Pick<CoreDeps, "db">, owner: RefundOwner) {
  const amount = await refundedAmountOf(deps.db, owner);
  return amount > 0n ? { refunded_amount: formatUsdc(amount) } : {};
}

/**
 * The status a page or client polls, for a link's or an invoice's slug (public: a slug is in
 * every checkout URL); null for an unknown slug. What `GET /api/payments/status/{slug}` answers
 * (and caches, api/payments/status.ts).
 */
export async function paymentStatus(
  deps: Pick<CoreDeps, "db">,
  slug: string,
): Promise<PaymentStatusResponse | null> {
  const link = await findLinkBySlug(deps.db, slug);
  if (link) {
    if (link.status === "pending") return { status: link.status };
    const [state, refunds] = await Promise.all([
      loadPaymentState(deps.db, link.deposit_address),
      refunded(deps, { linkId: link.id }),
    ]);
    return { status: link.status, ...received(state), metadata: link.metadata, ...refunds };
  }
  const invoice = await findInvoiceBySlug(deps.db, slug);
  if (!invoice) return null;
  const status = reportedStatus(invoice.status, invoice.due_date, utcToday());
  if (status !== "paid" && status !== "partial" && status !== "excess") return { status };
  const [state, refunds] = await Promise.all([
    loadPaymentState(deps.db, invoice.deposit_address),
    refunded(deps, { invoiceId: invoice.id }),
  ]);
  return { status, ...received(state), ...refunds };
}
