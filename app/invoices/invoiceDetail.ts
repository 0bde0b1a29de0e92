import { type CreditNoteRow, creditNotesOfInvoice } from "../../db/queries/creditNotes.ts";
import { findInvoiceAudit, findInvoiceEmails } from "../../db/queries/dashboard.ts";
import { loadInvoiceDetails } from "../../db/queries/invoiceDetails.ts";
import {
  findInvoice,
  findInvoiceBySlug,
  type InvoiceRow,
  type LineItemRow,
} from "../../db/queries/invoices.ts";
import { loadPaymentState } from "../../db/queries/paymentEvents.ts";
import type { RefundRow } from "../../db/queries/refunds.ts";
import { refundedAmountOf } from "../../db/queries/refunds.ts";
import type { IndexedSweepRow } from "../../db/queries/sweeps.ts";
import type { DeliveryRow } from "../../db/queries/webhookDeliveries.ts";
import {
  findWebhookHistory,
  type WebhookAttemptRow,
  type WebhookHistory,
} from "../../db/queries/webhookHistory.ts";
import { utcToday } from "../../domain/invoiceStatus.ts";
import { invoiceUrls, publicPdfUrl } from "../../domain/invoiceUrls.ts";
import {
  type InvoiceMoney,
  invoiceMoney,
  receivedInOwnUnit,
  refundedAmount,
} from "../../domain/moneyRules.ts";
import type { IndexedTransfer, PaymentState } from "../../domain/paymentState.ts";
import { UUID_PATTERN } from "../../domain/tokens.ts";
import type { Actor } from "../actor.ts";
import { authorizedInvoice, ownMerchantId } from "../authorize.ts";
import type { CoreDeps } from "../deps.ts";
import { type DocumentPdfDeps, storedDocumentPdf } from "../documentPdf.ts";
import { type CurrencyFacts, currencyFacts } from "../payments/currencyFacts.ts";
import { notFound } from "../refusal.ts";

export type {
  DeliveryRow,
  IndexedSweepRow,
  InvoiceRow,
  LineItemRow,
  RefundRow,
  WebhookAttemptRow,
  WebhookHistory,
};

/**
 * One invoice's facts, whoever shows them: its row, lines, PDF hash, what the reconcile job
 * derived, every indexed transfer to its deposit address, its sweeps and refunds, and its money
 * by domain/moneyRules.ts on `today` (UTC). The one assembly behind `GET /api/invoices/{id}`
 * (and the bodies of send and void) and the dashboard's invoice page.
 */
export type InvoiceFacts = {
  invoice: InvoiceRow;
  lines: LineItemRow[];
  pdfSha256: string;
  state: PaymentState;
  transfers: IndexedTransfer[];
  sweeps: IndexedSweepRow[];
  /** Every refund requested, oldest first. */
  refunds: RefundRow[];
  /** Received, refunded, net, due: domain/moneyRules.ts, as the API reports them. */
  money: InvoiceMoney;
  /** Its credit notes (app/creditNotes), oldest first. */
  creditNotes: CreditNoteRow[];
  /** Priced in a currency: its payments' conversions and what to send now; null in USDC. */
  currency: CurrencyFacts | null;
  today: string;
};

/** What the facts of an invoice are read with (its PDF rendered, if not stored yet). */
export type InvoiceFactsDeps = Pick<CoreDeps, "indexerSchema" | "rpcUrl"> & DocumentPdfDeps;

/** The facts of an invoice already authorised (or just changed by a use case). */
export async function invoiceFacts(
  deps: InvoiceFactsDeps,
  invoice: InvoiceRow,
): Promise<InvoiceFacts> {
  // Its lines, payment state, transfers, sweeps and refunds; its PDF's hash.
  const [details, pdf] = await Promise.all([
    loadInvoiceDetails(deps.db, deps.indexerSchema, invoice),
    invoicePdfOf(deps, invoice),
  ]);
  const today = utcToday();
  const money = invoiceMoney(
    {
      status: invoice.status,
      total: invoice.total_amount,
      credited: invoice.credited_amount,
      dueDate: invoice.due_date,
    },
    receivedInOwnUnit(invoice.currency, details.state),
    refundedAmount(details.refunds),
    today,
    details.state.received,
  );
  const [creditNotes, currency] = await Promise.all([
    invoice.credited_amount > 0n ? creditNotesOfInvoice(deps.db, invoice.id) : [],
    currencyFacts(
      deps,
      { depositAddress: invoice.deposit_address, currency: invoice.currency },
      details.state,
      details.transfers,
      money.due,
    ),
  ]);
  return { ...details, pdfSha256: pdf.sha256, invoice, money, creditNotes, currency, today };
}

/**
 * The invoice `id` as the API shows it, if the actor may see it (app/authorize.ts
 * authorizedInvoice: its own merchant's, or in open mode an unclaimed merchant's).
 */
export async function authorizedInvoiceFacts(
  deps: InvoiceFactsDeps,
  actor: Actor,
  id: string,
): Promise<InvoiceFacts> {
  return invoiceFacts(deps, await authorizedInvoice(deps.db, actor.identity, id));
}

/**
 * The invoice `id`'s webhook events, their deliveries and every attempt, if the actor may see
 * it (authorizedInvoice).
 */
export async function authorizedWebhookHistory(
  deps: Pick<CoreDeps, "db">,
  actor: Actor,
  id: string,
): Promise<WebhookHistory> {
  const invoice = await authorizedInvoice(deps.db, actor.identity, id);
  return findWebhookHistory(deps.db, invoice.id);
}

/**
 * What the public status of an invoice is made of (`GET /api/invoices/{id}/status`, no
 * authentication: the spec's polling endpoint): its row, the reconcile job's state and what
 * was refunded. An unknown id is a 404.
 */
export async function invoiceStatusFacts(
  deps: Pick<CoreDeps, "db">,
  id: string,
): Promise<{ invoice: InvoiceRow; state: PaymentState; refunded: bigint }> {
  const invoice = await findInvoice(deps.db, id);
  if (!invoice) throw notFound("invoice");
  const [state, refunded] = await Promise.all([
    loadPaymentState(deps.db, invoice.deposit_address),
    refundedAmountOf(deps.db, { invoiceId: invoice.id }),
  ]);
  return { invoice, state, refunded };
}

/** An invoice's stored PDF and what its download is named by. */
export type InvoicePdf = { bytes: Uint8Array<ArrayBuffer>; sha256: string; invoiceNumber: string };

/**
 * The invoice's PDF as stored; not stored yet (the worker's render_pdf job has not run), its
 * record rendered and stored now: the same bytes the job would store (app/documentPdf.ts).
 */
async function invoicePdfOf(deps: DocumentPdfDeps, invoice: InvoiceRow) {
  const pdf = await storedDocumentPdf(deps, "invoice", invoice.id);
  if (!pdf) throw notFound("invoice");
  return pdf;
}

async function pdfOf(deps: DocumentPdfDeps, invoice: InvoiceRow): Promise<InvoicePdf> {
  const pdf = await invoicePdfOf(deps, invoice);
  return {
    bytes: new Uint8Array(pdf.pdf),
    sha256: pdf.sha256,
    invoiceNumber: invoice.invoice_number,
  };
}

/** The invoice's PDF (pdfOf), for whoever may see the invoice `id` (authorizedInvoice). */
export async function authorizedInvoicePdf(
  deps: DocumentPdfDeps,
  actor: Actor,
  id: string,
): Promise<InvoicePdf> {
  return pdfOf(deps, await authorizedInvoice(deps.db, actor.identity, id));
}

/** The same PDF by the hosted page's slug (public: the vendor's download). */
export async function invoicePdfBySlug(deps: DocumentPdfDeps, slug: string) {
  const invoice = await findInvoiceBySlug(deps.db, slug);
  if (!invoice) throw notFound("invoice");
  return pdfOf(deps, invoice);
}

export type InvoiceEmail = {
  id: string;
  kind: string;
  recipient: string;
  status: string;
  attempts: number;
  sent_at: Date | null;
  last_error: string | null;
  created_at: Date;
};

export type AuditItem = { id: bigint; actor: string; action: string; created_at: Date };

/** One invoice as its merchant sees it: its facts, webhook history, emails and timeline. */
export type InvoiceDetail = InvoiceFacts & {
  pdfUrl: string;
  invoiceUrl: string;
  /** The transfers counted as received (their ids). */
  counted: string[];
  history: WebhookHistory;
  emails: InvoiceEmail[];
  audit: AuditItem[];
  explorerUrl: string | null;
};

/**
 * The invoice `id` of the actor's own merchant, with everything that happened to it; undefined
 * for an unknown id and for another merchant's invoice alike. Its facts are the API's
 * (invoiceFacts).
 */
export async function merchantInvoiceDetail(
  deps: InvoiceFactsDeps & Pick<CoreDeps, "explorerUrl">,
  actor: Actor,
  id: string,
): Promise<InvoiceDetail | undefined> {
  const merchantId = ownMerchantId(actor.identity);
  if (!UUID_PATTERN.test(id)) return undefined;
  const invoice = await findInvoice(deps.db, id);
  if (!invoice || invoice.merchant_id !== merchantId) return undefined;
  const [facts, history, emails, audit] = await Promise.all([
    invoiceFacts(deps, invoice),
    findWebhookHistory(deps.db, invoice.id),
    findInvoiceEmails(deps.db, invoice.id),
    findInvoiceAudit(deps.db, invoice.merchant_id, invoice.id),
  ]);
  return {
    ...facts,
    counted: facts.state.counted,
    pdfUrl: publicPdfUrl(deps, invoice.slug),
    invoiceUrl: invoiceUrls(deps, invoice.id, invoice.slug).invoice_url,
    history,
    emails,
    audit,
    explorerUrl: deps.explorerUrl,
  };
}
