import { getAddress } from "viem";
import { findApiKeyLabel } from "../../db/queries/apiKeys.ts";
import { findCreditNote } from "../../db/queries/creditNotes.ts";
import type { EmailRow } from "../../db/queries/emails.ts";
import { findInvoice, type InvoiceRow } from "../../db/queries/invoices.ts";
import { findPaymentEvent, loadPaymentState } from "../../db/queries/paymentEvents.ts";
import { findPayout } from "../../db/queries/payouts.ts";
import { findSweep } from "../../db/queries/sweeps.ts";
import { invoiceUrls, x402Url } from "../../domain/invoiceUrls.ts";
import { invoiceAmountDue, receivedInOwnUnit } from "../../domain/moneyRules.ts";
import type { PaymentEventType } from "../../domain/paymentState.ts";
import { openSecret } from "../../domain/secretBox.ts";
import type { StoredInvoiceStatus } from "../../domain/statuses.ts";
import {
  claimLinkEmail,
  memberInvitationEmail,
  notificationEmailVerificationEmail,
  ownerNoticeEmail,
  payoutWalletAddedEmail,
  settingsChangedEmail,
  signInLinkEmail,
  webhookEndpointDisabledEmail,
} from "../../email/accountEmails.ts";
import { creditNoteEmail } from "../../email/creditNoteEmail.ts";
import type { OutgoingEmail } from "../../email/mailer.ts";
import { merchantPaymentEmail } from "../../email/merchantPaymentEmail.ts";
import { payoutEmail } from "../../email/payoutEmails.ts";
import { sweepFailedEmail } from "../../email/sweepFailedEmail.ts";
import { vendorInvoiceEmail } from "../../email/vendorInvoiceEmail.ts";
import { vendorReminderEmail } from "../../email/vendorReminderEmail.ts";
import { storedDocumentPdf } from "../documentPdf.ts";
import { composeRefundEmail, isRefundEmail } from "./composeRefundEmail.ts";
import type { EmailDeps } from "./emailDeps.ts";

/** The message of one queued email (app.emails), composed from the rows it names. */
export async function composeEmail(deps: EmailDeps, email: EmailRow): Promise<OutgoingEmail> {
  if (email.kind === "payment_event") return composePaymentEmail(deps, email);
  if (
    email.kind === "claim_link" ||
    email.kind === "dashboard_sign_in_link" ||
    email.kind === "payout_wallet_added" ||
    email.kind === "notification_email_verification" ||
    email.kind === "settings_changed" ||
    email.kind === "webhook_endpoint_disabled" ||
    email.kind === "member_invitation" ||
    email.kind === "owner_notice"
  )
    return composeAccountEmail(deps, email);
  if (email.kind === "sweep_failed") return composeSweepFailedEmail(deps, email);
  if (email.kind === "payout_requested" || email.kind === "payout_failed")
    return composePayoutEmail(deps, email, email.kind);
  if (isRefundEmail(email.kind)) return composeRefundEmail(deps, email);
  if (email.kind === "vendor_reminder") return composeReminderEmail(deps, email);
  if (email.kind === "credit_note") return composeCreditNoteEmail(deps, email);
  if (email.kind !== "vendor_invoice" || !email.invoice_id)
    throw new Error(`unknown email kind ${email.kind}`);
  const invoice = await findInvoice(deps.db, email.invoice_id);
  // Its stored PDF; if the render_pdf job has not stored it yet, rendered and stored here.
  const pdf = invoice && (await storedDocumentPdf(deps, "invoice", invoice.id));
  if (!invoice || !pdf) throw new Error(`email ${email.id}: invoice ${email.invoice_id} not found`);
  const content = vendorInvoiceEmail({
    ...vendorFacts(deps, invoice),
    // x402 asks for a USDC amount of its own: it refuses an invoice priced in a currency.
    x402Url: invoice.currency === "USDC" ? x402Url(deps, invoice.slug) : undefined,
  });
  return withStoredPdf(deps, email, invoice.invoice_number, pdf, content);
}

/**
 * What a vendor's emails say of the invoice: its number, parties, total and its currency, due
 * date, where to pay.
 */
function vendorFacts(deps: EmailDeps, invoice: InvoiceRow) {
  return {
    invoiceNumber: invoice.invoice_number,
    merchantName: invoice.merchant_name_snapshot,
    vendorName: invoice.vendor_name,
    totalAmount: invoice.total_amount,
    currency: invoice.currency,
    dueDate: invoice.due_date,
    invoiceUrl: invoiceUrls(deps, invoice.id, invoice.slug).invoice_url,
    depositAddress: getAddress(invoice.deposit_address),
  };
}

/**
 * A vendor's email with a document's stored PDF attached (an invoice's, a credit note's), named
 * after its number.
 */
function withStoredPdf(
  deps: EmailDeps,
  email: EmailRow,
  documentNumber: string,
  pdf: { pdf: Buffer },
  content: { subject: string; text: string; html: string },
): OutgoingEmail {
  return {
    id: email.id,
    to: email.recipient,
    from: deps.emailFrom,
    ...content,
    // The stored bytes: the attachment is byte-identical to the PDF the API serves.
    attachments: [{ filename: `${documentNumber}.pdf`, type: "application/pdf", content: pdf.pdf }],
  };
}

/** A credit note's email to the vendor, its stored PDF attached (app/creditNotes). */
async function composeCreditNoteEmail(deps: EmailDeps, email: EmailRow): Promise<OutgoingEmail> {
  const note = email.credit_note_id
    ? await findCreditNote(deps.db, email.credit_note_id)
    : undefined;
  const invoice = note && (await findInvoice(deps.db, note.invoice_id));
  const pdf = note && (await storedDocumentPdf(deps, "creditNote", note.id));
  if (!note || !invoice || !pdf)
    throw new Error(`email ${email.id}: credit note ${email.credit_note_id} not found`);
  const state = await loadPaymentState(deps.db, invoice.deposit_address);
  const content = creditNoteEmail({
    creditNoteNumber: note.credit_note_number,
    invoiceNumber: invoice.invoice_number,
    merchantName: invoice.merchant_name_snapshot,
    amount: note.total_amount,
    currency: invoice.currency,
    reason: note.reason,
    amountDue: invoiceAmountDue(
      invoice.status,
      invoice.total_amount,
      receivedInOwnUnit(invoice.currency, state),
      invoice.credited_amount,
    ),
    invoiceUrl: invoiceUrls(deps, invoice.id, invoice.slug).invoice_url,
  });
  return withStoredPdf(deps, email, note.credit_note_number, pdf, content);
}

/** A payment reminder (app/reminders/remind.ts): the amount due when it was sent, the PDF. */
async function composeReminderEmail(deps: EmailDeps, email: EmailRow): Promise<OutgoingEmail> {
  const invoice = email.invoice_id ? await findInvoice(deps.db, email.invoice_id) : undefined;
  const pdf = invoice && (await storedDocumentPdf(deps, "invoice", invoice.id));
  const amountDue = email.details?.amount_due;
  if (!invoice || !pdf || amountDue === undefined)
    throw new Error(`email ${email.id}: reminder of invoice ${email.invoice_id} not found`);
  const content = vendorReminderEmail({
    ...vendorFacts(deps, invoice),
    amountDue: BigInt(amountDue),
    today: email.details?.day ?? email.created_at.toISOString().slice(0, 10),
  });
  return withStoredPdf(deps, email, invoice.invoice_number, pdf, content);
}

/** The emails of merchant accounts (api/merchants/*): a claim or sign-in link, a payout wallet added. */
async function composeAccountEmail(deps: EmailDeps, email: EmailRow): Promise<OutgoingEmail> {
  if (email.kind === "dashboard_sign_in_link") {
    if (!email.sealed) throw new Error(`email ${email.id}: its sign-in link is missing`);
    const token = openSecret(email.sealed, deps.keys);
    const content = signInLinkEmail({
      signInUrl: `${deps.payUrl}/dashboard/sign-in/${token}`,
      email: email.recipient,
    });
    return { id: email.id, to: email.recipient, from: deps.emailFrom, ...content };
  }
  if (email.kind === "claim_link") {
    // Sealed by the API with the key this worker holds too; cleared once sent.
    if (!email.sealed) throw new Error(`email ${email.id}: its claim link is missing`);
    const token = openSecret(email.sealed, deps.keys);
    const content = claimLinkEmail({
      claimUrl: `${deps.payUrl}/claim/${token}`,
      email: email.recipient,
    });
    return { id: email.id, to: email.recipient, from: deps.emailFrom, ...content };
  }
  if (email.kind === "notification_email_verification") {
    if (!email.sealed) throw new Error(`email ${email.id}: its confirmation link is missing`);
    const token = openSecret(email.sealed, deps.keys);
    const content = notificationEmailVerificationEmail({
      verifyUrl: `${deps.payUrl}/dashboard/notification-email/${token}`,
      merchantEmail: email.details?.merchant_email ?? "",
      hours: Number(email.details?.hours ?? "24"),
    });
    return { id: email.id, to: email.recipient, from: deps.emailFrom, ...content };
  }
  if (email.kind === "member_invitation") {
    if (!email.sealed) throw new Error(`email ${email.id}: its invitation link is missing`);
    const content = memberInvitationEmail({
      inviteUrl: `${deps.payUrl}/dashboard/invitations/${openSecret(email.sealed, deps.keys)}`,
      team: email.details?.team ?? "",
      role: email.details?.role ?? "",
      hours: Number(email.details?.hours ?? "72"),
    });
    return { id: email.id, to: email.recipient, from: deps.emailFrom, ...content };
  }
  if (email.kind === "owner_notice") {
    const content = ownerNoticeEmail({
      what: email.details?.what ?? "",
      by: email.details?.by ?? "",
      at: email.created_at,
    });
    return { id: email.id, to: email.recipient, from: deps.emailFrom, ...content };
  }
  if (email.kind === "webhook_endpoint_disabled") {
    const content = webhookEndpointDisabledEmail({
      url: email.details?.url ?? "",
      failures: Number(email.details?.failures ?? "0"),
    });
    return { id: email.id, to: email.recipient, from: deps.emailFrom, ...content };
  }
  const keyId = email.details?.key_id;
  // No key: it was done in the dashboard, signed in through an email link.
  const key = keyId ? await findApiKeyLabel(deps.db, keyId) : undefined;
  const by = keyId
    ? `the API key ${key ? `"${key.name}" (…${key.last_four})` : keyId}`
    : "the dashboard (signed in through an emailed link)";
  if (email.kind === "settings_changed") {
    const content = settingsChangedEmail({
      changes: JSON.parse(email.details?.changes ?? "{}"),
      pending: email.details?.pending || null,
      accountEmail: email.recipient,
      by,
      changedAt: email.created_at,
    });
    return { id: email.id, to: email.recipient, from: deps.emailFrom, ...content };
  }
  const address = email.details?.address;
  if (!address) throw new Error(`email ${email.id}: its wallet is missing`);
  const content = payoutWalletAddedEmail({ address, by, addedAt: email.created_at });
  return { id: email.id, to: email.recipient, from: deps.emailFrom, ...content };
}

async function composePaymentEmail(deps: EmailDeps, email: EmailRow): Promise<OutgoingEmail> {
  const event = email.event_id ? await findPaymentEvent(deps.db, email.event_id) : undefined;
  const invoice = event?.invoice_id ? await findInvoice(deps.db, event.invoice_id) : undefined;
  if (!event || !invoice) throw new Error(`email ${email.id}: its payment event is missing`);
  // Priced in a currency, the event's amounts are in it; the USDC that arrived is beside them.
  const priced =
    invoice.currency === "USDC"
      ? undefined
      : {
          currency: invoice.currency,
          receivedUsdc: (await loadPaymentState(deps.db, invoice.deposit_address)).received,
        };
  const content = merchantPaymentEmail({
    type: event.type as Extract<PaymentEventType, `invoice.${string}`>,
    invoiceNumber: invoice.invoice_number,
    vendorName: invoice.vendor_name,
    totalAmount: invoice.total_amount,
    credited: invoice.credited_amount,
    received: event.paid_amount,
    status: event.status as StoredInvoiceStatus,
    txHash: event.tx_hash,
    explorerUrl: deps.explorerUrl,
    invoiceUrl: invoiceUrls(deps, invoice.id, invoice.slug).invoice_url,
    invoiceId: invoice.id,
    priced,
  });
  return { id: email.id, to: email.recipient, from: deps.emailFrom, ...content };
}

/** A payout out of the managed wallet, to the account's own address. */
async function composePayoutEmail(
  deps: EmailDeps,
  email: EmailRow,
  kind: "payout_requested" | "payout_failed",
): Promise<OutgoingEmail> {
  const payout = email.payout_id ? await findPayout(deps.db, email.payout_id) : undefined;
  if (!payout) throw new Error(`email ${email.id}: its payout is missing`);
  const content = payoutEmail({
    kind,
    amount: payout.amount,
    to: getAddress(payout.to_address),
    from: getAddress(payout.from_address),
    requestedAt: payout.created_at,
    automatic: payout.trigger === "automatic",
    reason: payout.error,
  });
  return { id: email.id, to: email.recipient, from: deps.emailFrom, ...content };
}

async function composeSweepFailedEmail(deps: EmailDeps, email: EmailRow): Promise<OutgoingEmail> {
  const sweep = email.sweep_id ? await findSweep(deps.db, email.sweep_id) : undefined;
  const invoice = email.invoice_id ? await findInvoice(deps.db, email.invoice_id) : undefined;
  if (!sweep || !invoice) throw new Error(`email ${email.id}: its sweep or invoice is missing`);
  const content = sweepFailedEmail({
    invoiceNumber: invoice.invoice_number,
    amount: sweep.amount,
    destination: getAddress(sweep.destination),
    depositAddress: getAddress(sweep.deposit_address),
    reason: sweep.error ?? "the transfer was refused",
    invoiceUrl: invoiceUrls(deps, invoice.id, invoice.slug).invoice_url,
  });
  return { id: email.id, to: email.recipient, from: deps.emailFrom, ...content };
}
