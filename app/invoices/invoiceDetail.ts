import { findInvoiceAudit, findInvoiceEmails } from "../../db/queries/dashboard.ts";
import { loadInvoiceDetails } from "../../db/queries/invoiceDetails.ts";
import { findInvoice, type InvoiceRow, type LineItemRow } from "../../db/queries/invoices.ts";
import type { RefundRow } from "../../db/queries/refunds.ts";
import type { IndexedSweepRow } from "../../db/queries/sweeps.ts";
import { findWebhookHistory, type WebhookHistory } from "../../db/queries/webhookHistory.ts";
import { utcToday } from "../../domain/invoiceStatus.ts";
import { invoiceUrls, publicPdfUrl } from "../../domain/invoiceUrls.ts";
import { type InvoiceMoney, invoiceMoney, refundedAmount } from "../../domain/moneyRules.ts";
import type { IndexedTransfer } from "../../domain/paymentState.ts";
import { UUID_PATTERN } from "../../domain/tokens.ts";
import type { Actor } from "../actor.ts";
import { ownMerchantId } from "../authorize.ts";
import type { CoreDeps } from "../deps.ts";

export type { IndexedSweepRow, InvoiceRow, LineItemRow, RefundRow, WebhookHistory };

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

/** One invoice as its merchant sees it: its money, payments, sweeps, refunds and timeline. */
export type InvoiceDetail = {
  invoice: InvoiceRow;
  lines: LineItemRow[];
  /** Received, refunded, net, due: domain/moneyRules.ts, as the API reports them. */
  money: InvoiceMoney;
  /** Every refund requested, oldest first. */
  refunds: RefundRow[];
  pdfUrl: string;
  invoiceUrl: string;
  transfers: IndexedTransfer[];
  counted: string[];
  history: WebhookHistory;
  emails: InvoiceEmail[];
  sweeps: IndexedSweepRow[];
  audit: AuditItem[];
  today: string;
  explorerUrl: string | null;
};

/**
 * The invoice `id` of the actor's own merchant, with everything that happened to it; undefined
 * for an unknown id and for another merchant's invoice alike. Its payments, sweeps and refunds
 * come from the API's detail's own loader (db/queries/invoiceDetails.ts).
 */
export async function merchantInvoiceDetail(
  deps: Pick<CoreDeps, "db" | "indexerSchema" | "baseUrl" | "payUrl" | "explorerUrl">,
  actor: Actor,
  id: string,
): Promise<InvoiceDetail | undefined> {
  const merchantId = ownMerchantId(actor.identity);
  if (!UUID_PATTERN.test(id)) return undefined;
  const invoice = await findInvoice(deps.db, id);
  if (!invoice || invoice.merchant_id !== merchantId) return undefined;
  const [{ lines, state, transfers, sweeps, refunds }, history, emails, audit] = await Promise.all([
    loadInvoiceDetails(deps.db, deps.indexerSchema, invoice),
    findWebhookHistory(deps.db, invoice.id),
    findInvoiceEmails(deps.db, invoice.id),
    findInvoiceAudit(deps.db, invoice.merchant_id, invoice.id),
  ]);
  const today = utcToday();
  return {
    invoice,
    lines,
    money: invoiceMoney(
      { status: invoice.status, total: invoice.total_amount, dueDate: invoice.due_date },
      state.received,
      refundedAmount(refunds),
      today,
    ),
    refunds,
    counted: state.counted,
    pdfUrl: publicPdfUrl(deps, invoice.slug),
    invoiceUrl: invoiceUrls(deps, invoice.id, invoice.slug).invoice_url,
    transfers,
    history,
    emails,
    sweeps,
    audit,
    today,
    explorerUrl: deps.explorerUrl,
  };
}
