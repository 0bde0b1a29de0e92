import { getAddress } from "viem";
import { creditNotesOfInvoice } from "../../db/queries/creditNotes.ts";
import type { EmailRow } from "../../db/queries/emails.ts";
import { findInvoice } from "../../db/queries/invoices.ts";
import { findRefund, findRefundContext } from "../../db/queries/refunds.ts";
import { invoiceUrls } from "../../domain/invoiceUrls.ts";
import { openSecret } from "../../domain/secretBox.ts";
import type { OutgoingEmail } from "../../email/mailer.ts";
import {
  invoiceVoidEmail,
  refundClaimEmail,
  refundConfirmedEmail,
  refundFailedEmail,
} from "../../email/refundEmails.ts";
import { storedDocumentPdf } from "../documentPdf.ts";
import type { EmailDeps } from "./emailDeps.ts";

/** The kinds of email of void invoices and refunds (app.emails.kind). */
const REFUND_EMAIL_KINDS = new Set([
  "invoice_void",
  "refund_claim_link",
  "refund_confirmed",
  "refund_failed",
]);

export const isRefundEmail = (kind: string): boolean => REFUND_EMAIL_KINDS.has(kind);

/** Composes a void notice or a refund email from the rows it names. */
export async function composeRefundEmail(deps: EmailDeps, email: EmailRow): Promise<OutgoingEmail> {
  const send = (content: { subject: string; text: string; html: string }): OutgoingEmail => ({
    id: email.id,
    to: email.recipient,
    from: deps.emailFrom,
    ...content,
  });
  if (email.kind === "invoice_void") {
    const invoice = email.invoice_id ? await findInvoice(deps.db, email.invoice_id) : undefined;
    if (!invoice) throw new Error(`email ${email.id}: its invoice is missing`);
    const message = send(
      invoiceVoidEmail({
        invoiceNumber: invoice.invoice_number,
        merchantName: invoice.merchant_name_snapshot,
        invoiceUrl: invoiceUrls(deps, invoice.id, invoice.slug).invoice_url,
      }),
    );
    // The void's credit note (app/creditNotes: a sent invoice is cancelled by one), attached.
    const credit = (await creditNotesOfInvoice(deps.db, invoice.id)).findLast(
      (note) => note.credits_in_full,
    );
    const pdf = credit && (await storedDocumentPdf(deps, "creditNote", credit.id));
    if (!credit || !pdf) return message;
    return {
      ...message,
      attachments: [
        { filename: `${credit.credit_note_number}.pdf`, type: "application/pdf", content: pdf.pdf },
      ],
    };
  }
  const refund = email.refund_id ? await findRefund(deps.db, email.refund_id) : undefined;
  const context = refund ? await findRefundContext(deps.db, refund) : undefined;
  if (!refund || !context) throw new Error(`email ${email.id}: its refund is missing`);
  const invoice = context.kind === "invoice" ? await findInvoice(deps.db, context.id) : undefined;
  const what = invoice ? `invoice ${invoice.invoice_number}` : context.label;
  if (email.kind === "refund_claim_link") {
    // Sealed by the API with the key this worker holds too; cleared once sent.
    if (!email.sealed || !refund.claim_expires_at)
      throw new Error(`email ${email.id}: its claim link is missing`);
    const token = openSecret(email.sealed, deps.keys);
    return send(
      refundClaimEmail({
        what,
        merchantName: invoice?.merchant_name_snapshot ?? "The merchant",
        amount: refund.amount,
        claimUrl: `${deps.payUrl}/refund/${token}`,
        expiresAt: refund.claim_expires_at,
      }),
    );
  }
  if (email.kind === "refund_confirmed")
    return send(
      refundConfirmedEmail({
        what,
        amount: refund.amount,
        to: refund.to_address ? getAddress(refund.to_address) : "",
        txHash: refund.tx_hash,
        explorerUrl: deps.explorerUrl,
      }),
    );
  return send(
    refundFailedEmail({
      what,
      amount: refund.amount,
      reason: refund.error ?? "the transfer was refused",
    }),
  );
}
