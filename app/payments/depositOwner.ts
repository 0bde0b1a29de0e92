import type { Executor } from "../../db/database.ts";
import { lockInvoiceByDepositAddress, setInvoiceStatus } from "../../db/queries/invoices.ts";
import { lockLinkByDepositAddress, setLinkStatus } from "../../db/queries/links.ts";
import type { PaymentOwner } from "../../db/queries/paymentEvents.ts";
import type { Currency } from "../../domain/currencies.ts";
import type { StoredInvoiceStatus } from "../../domain/invoiceStatus.ts";
import { formatUsdc } from "../../domain/money.ts";
import { amountDue, invoiceAmountDue, invoicedAmount } from "../../domain/moneyRules.ts";
import {
  invoiceStatusFor,
  type LinkStatus,
  linkStatusFor,
  type PaymentEventType,
  type PaymentState,
} from "../../domain/paymentState.ts";
import type {
  InvoicePaymentEvent,
  LinkPaymentEvent,
  PaymentEvent,
} from "../events/paymentEvent.ts";

/** The event reconcileDeposit records, as an owner's webhook body is made from it. */
export type EventContext = {
  id: string;
  type: PaymentEventType;
  createdAt: Date;
  status: string;
  state: PaymentState;
  /** What the counted payments are worth in the owner's unit (its currency, or USDC). */
  received: bigint;
  txHash: string | null;
};

/**
 * What a deposit address belongs to, seen the same way whether it is an invoice's or a
 * payment link's: its amount, its current status, how a received amount maps to a status,
 * and what its webhook body looks like.
 */
export type Owner = {
  kind: "invoice" | "link";
  owner: PaymentOwner;
  merchantId: string;
  label: string;
  /** What its amounts are in: USDC, or a currency its payments are converted to. */
  currency: Currency;
  amount: bigint;
  status: OwnerStatus;
  /** The status for an amount (amountForStatus's: dust after an exact payment left out). */
  statusFor: (received: bigint) => OwnerStatus;
  merchantEmail: string | null;
  webhookUrl: string | null;
  payload: (event: EventContext) => PaymentEvent;
  saveStatus: (trx: Executor, status: OwnerStatus) => Promise<void>;
};

export type OwnerStatus = StoredInvoiceStatus | LinkStatus;

/** What every payment event's body starts with: its id, its type and its moment. */
const eventHead = <Type extends PaymentEventType>(e: EventContext) => ({
  event_id: e.id,
  type: e.type as Type,
  created_at: e.createdAt.toISOString(),
});

/** The invoice or link a deposit address belongs to, its row locked; null for nobody's. */
export async function findOwner(trx: Executor, address: string): Promise<Owner | null> {
  const invoice = await lockInvoiceByDepositAddress(trx, address);
  if (invoice) {
    // Void wins: a payment that still arrives changes no status (an unexpected payment, held).
    const statusFor = (received: bigint) =>
      invoice.status === "void"
        ? "void"
        : invoiceStatusFor(
            // What it asks for after its credit notes (moneyRules' invoicedAmount).
            invoicedAmount(invoice.total_amount, invoice.credited_amount),
            received,
            invoice.sent_at !== null,
            // The merchant's tolerance as it was when the invoice was issued (migration 0021).
            invoice.underpayment_tolerance,
          );
    return {
      kind: "invoice",
      owner: { invoiceId: invoice.id },
      merchantId: invoice.merchant_id,
      label: `invoice ${invoice.invoice_number}`,
      currency: invoice.currency,
      amount: invoicedAmount(invoice.total_amount, invoice.credited_amount),
      status: invoice.status,
      statusFor,
      merchantEmail: invoice.merchant_email,
      webhookUrl: invoice.webhook_url,
      // Spec §6.1's fields, plus the event's id and type, the invoice's totals and metadata.
      payload: (e) => ({
        ...eventHead<InvoicePaymentEvent["type"]>(e),
        invoice_id: invoice.id,
        invoice_number: invoice.invoice_number,
        status: e.status as StoredInvoiceStatus,
        tx_hash: e.txHash,
        paid_amount: formatUsdc(e.received),
        paid_at: e.state.latestPaidAt?.toISOString() ?? null,
        total_amount: formatUsdc(invoice.total_amount),
        // The API's amount_due: nothing once `paid` (a tolerated shortfall included) or `void`.
        amount_due: formatUsdc(
          invoiceAmountDue(
            e.status as StoredInvoiceStatus,
            invoice.total_amount,
            e.received,
            invoice.credited_amount,
          ),
        ),
        metadata: invoice.metadata,
        // Priced in a currency: the amounts above are in it; the USDC that arrived beside.
        ...(invoice.currency === "USDC"
          ? {}
          : { currency: invoice.currency, paid_amount_usdc: formatUsdc(e.state.received) }),
      }),
      saveStatus: (t, status) => setInvoiceStatus(t, invoice.id, status as StoredInvoiceStatus),
    };
  }
  const link = await lockLinkByDepositAddress(trx, address);
  if (link) {
    const statusFor = (received: bigint) => linkStatusFor(link.amount, received);
    return {
      kind: "link",
      owner: { linkId: link.id },
      merchantId: link.merchant_id,
      label: `link ${link.slug}`,
      currency: link.currency,
      amount: link.amount,
      status: link.status,
      statusFor,
      merchantEmail: null,
      webhookUrl: link.webhook_url,
      // The payment-link status fields (spec §2.5), plus the event's id and type and the metadata.
      payload: (e) => ({
        ...eventHead<LinkPaymentEvent["type"]>(e),
        slug: link.slug,
        status: e.status as LinkStatus,
        tx_hash: e.txHash,
        // In USDC whatever the link's currency: the field says so (spec §2.5).
        amount_usdc: formatUsdc(e.state.received),
        confirmed_at: e.state.latestPaidAt?.toISOString() ?? null,
        amount: formatUsdc(link.amount),
        amount_due: formatUsdc(amountDue(link.amount, e.received)),
        metadata: link.metadata,
      }),
      saveStatus: (t, status) => setLinkStatus(t, link.id, status as LinkStatus),
    };
  }
  return null;
}
