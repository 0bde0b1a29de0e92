import type { Transaction } from "kysely";
import type { Database } from "../../db/database.ts";
import { recordAudit } from "../../db/queries/audit.ts";
import {
  type CreditNoteRow,
  creditNotesOfInvoice,
  findCreditNote,
  findCreditNoteLines,
  insertCreditNote,
  lockInvoice,
  queueCreditNoteEmail,
  takeNextCreditNoteNumber,
} from "../../db/queries/creditNotes.ts";
import { findLineItems, type InvoiceRow, setInvoiceStatus } from "../../db/queries/invoices.ts";
import { loadPaymentState } from "../../db/queries/paymentEvents.ts";
import {
  creditAmountProblem,
  creditLineProblem,
  creditRefusal,
  formatCreditNoteNumber,
  fullCreditLines,
  statusAfterCredit,
} from "../../domain/creditNotes.ts";
import type { Currency } from "../../domain/currencies.ts";
import { storedPricedLine } from "../../domain/invoiceTaxView.ts";
import {
  type PricedLineItem,
  pricedTotals,
  priceInvoice,
  taxLineProblems,
} from "../../domain/invoiceTotals.ts";
import { formatUsdc } from "../../domain/money.ts";
import { invoiceAmountDue, invoicedAmount } from "../../domain/moneyRules.ts";
import { type Actor, auditActor } from "../actor.ts";
import { authorizedInvoice } from "../authorize.ts";
import type { CoreDeps } from "../deps.ts";
import { recordEvent } from "../events/recordEvent.ts";
import { claimOrReplay, rememberAnswer } from "../idempotency.ts";
import { validationError } from "../refusal.ts";
import type { CreateCreditNoteInput } from "./schema.ts";

/** The idempotency operation of credit notes (app/idempotency.ts). */
const CREDIT_NOTE_OPERATION = "credit_note";

/** What a credit note is, before it has a number: its lines, why, and whether it is in full. */
type CreditPlan = { lines: PricedLineItem[]; reason: string; full: boolean };

/**
 * Issues a credit note on the invoice `id` for `actor` (the API's route and the dashboard's
 * form), in one transaction under the invoice's row lock: the checks (an issued invoice, not
 * void, lines like the invoice's, at most what it still asks for), the number, the
 * rows (its PDF rendered from them by the worker after the commit) (whose trigger lowers what the invoice asks for), the invoice's new status, the
 * `credit_note.created` event and the vendor's email. With an `Idempotency-Key`, a retry
 * answers the first credit note again.
 */
export async function createCreditNote(
  deps: CoreDeps,
  actor: Actor,
  id: string,
  input: CreateCreditNoteInput,
  idempotencyKey?: string,
): Promise<CreditNoteRow> {
  const found = await authorizedInvoice(deps.db, actor.identity, id);
  // Priced as the invoice's lines are: to the cent in its currency.
  const requested = input.lines ? pricedRequest(input.lines, found.currency) : null;
  const note = await deps.db.transaction().execute(async (trx) => {
    const key = await claimOrReplay<{ credit_note_id: string }>(
      trx,
      found.merchant_id,
      CREDIT_NOTE_OPERATION,
      idempotencyKey ? { key: idempotencyKey, request: { invoice: found.id, input } } : undefined,
    );
    if ("replay" in key) {
      const first = await findCreditNote(trx, key.replay.credit_note_id);
      if (!first) throw new Error(`credit note ${key.replay.credit_note_id} is gone`);
      return first;
    }
    const invoice = await lockInvoice(trx, found.id);
    if (!invoice) throw new Error(`invoice ${found.id} is gone`);
    const credited = {
      status: invoice.status,
      total: invoice.total_amount,
      credited: invoice.credited_amount,
    };
    const refused = creditRefusal(credited);
    if (refused) throw validationError([{ path: "", ...refused }]);
    const invoiceLines = await pricedInvoiceLines(trx, invoice.id);
    let lines: PricedLineItem[];
    if (requested) {
      const problem = creditLineProblem(invoiceLines, requested);
      if (problem)
        throw validationError([
          {
            path: `lines[${problem.index}].${problem.field}`,
            code: problem.code,
            message: problem.message,
          },
        ]);
      lines = requested;
    } else {
      lines = fullCreditLines(
        invoice.invoice_number,
        invoiceLines,
        await earlierCreditLines(trx, invoice.id),
        invoicedAmount(invoice.total_amount, invoice.credited_amount),
      );
    }
    const tooMuch = creditAmountProblem(
      pricedTotals(lines).total,
      invoicedAmount(invoice.total_amount, invoice.credited_amount),
    );
    if (tooMuch) throw validationError([{ path: requested ? "lines" : "full", ...tooMuch }]);
    const note = await issueCreditNote(trx, actor, invoice, {
      lines,
      reason: input.reason,
      full: !requested,
    });
    await rememberAnswer(trx, key.claimed, { credit_note_id: note.id });
    return note;
  });
  deps.log.info("credit note issued", {
    credit_note_id: note.id,
    invoice_id: note.invoice_id,
    total: formatUsdc(note.total_amount),
  });
  return note;
}

/**
 * The credit note of a void (app/invoices/voidInvoice.ts): a sent invoice exists for its vendor,
 * so cancelling it is a document, crediting everything it asked for. In the void's transaction,
 * after the invoice became `void` (its row locked by that update); the vendor is told by the
 * void notice, which carries this credit note's PDF.
 */
export async function creditVoidedInvoice(
  trx: Transaction<Database>,
  actor: Actor,
  voided: InvoiceRow,
): Promise<CreditNoteRow | null> {
  const creditable = invoicedAmount(voided.total_amount, voided.credited_amount);
  if (creditable === 0n) return null;
  const lines = fullCreditLines(
    voided.invoice_number,
    await pricedInvoiceLines(trx, voided.id),
    await earlierCreditLines(trx, voided.id),
    creditable,
  );
  return issueCreditNote(
    trx,
    actor,
    voided,
    { lines, reason: `Invoice ${voided.invoice_number} voided`, full: true },
    { emailVendor: false },
  );
}

/** The request's lines priced like an invoice's (field errors first, as POST /api/invoices gives them). */
function pricedRequest(
  lines: NonNullable<CreateCreditNoteInput["lines"]>,
  currency: Currency,
): PricedLineItem[] {
  const problems = taxLineProblems(lines);
  if (problems.length)
    throw validationError(
      problems.map((problem) => ({
        path: `lines[${problem.index}].${problem.field}`,
        code: problem.code,
        message: problem.message,
      })),
    );
  return priceInvoice(lines, currency).lines;
}

/** An invoice's stored lines, as priced lines (their tax as stored). */
async function pricedInvoiceLines(trx: Transaction<Database>, invoiceId: string) {
  const rows = await findLineItems(trx, invoiceId);
  return rows.map(storedPricedLine);
}

/** Every line of the invoice's earlier credit notes. */
async function earlierCreditLines(trx: Transaction<Database>, invoiceId: string) {
  const notes = await creditNotesOfInvoice(trx, invoiceId);
  const rows = await findCreditNoteLines(
    trx,
    notes.map((note) => note.id),
  );
  return rows.map(storedPricedLine);
}

/**
 * Writes a checked credit note of the locked `invoice`: its number, rows (and its PDF's render
 * job), the invoice's status as the money rules now say (a void invoice stays void), the event,
 * the audit entry and, for an invoice its vendor was sent, the vendor's email with the PDF.
 */
async function issueCreditNote(
  trx: Transaction<Database>,
  actor: Actor,
  invoice: InvoiceRow,
  plan: CreditPlan,
  options: { emailVendor: boolean } = { emailVendor: true },
): Promise<CreditNoteRow> {
  const totals = pricedTotals(plan.lines);
  const number = formatCreditNoteNumber(await takeNextCreditNoteNumber(trx, invoice.merchant_id));
  // Millisecond precision: the stored time is the one the PDF prints.
  const createdAt = new Date();
  const note: CreditNoteRow = {
    id: crypto.randomUUID(),
    merchant_id: invoice.merchant_id,
    invoice_id: invoice.id,
    credit_note_number: number,
    reason: plan.reason,
    credits_in_full: plan.full,
    issue_date: createdAt.toISOString().slice(0, 10),
    subtotal_amount: totals.tax?.subtotal ?? totals.total,
    tax_amount: totals.tax?.tax ?? 0n,
    total_amount: totals.total,
    created_at: createdAt,
  };
  // Its PDF is rendered from these rows by the worker, after the commit (app/documentPdf.ts).
  await insertCreditNote(trx, { note, lines: plan.lines });
  const credited = invoice.credited_amount + note.total_amount;
  const { received } = await loadPaymentState(trx, invoice.deposit_address);
  const status =
    invoice.status === "void"
      ? "void"
      : statusAfterCredit(
          { status: invoice.status, total: invoice.total_amount, credited },
          received,
          invoice.underpayment_tolerance,
        );
  if (status !== invoice.status) await setInvoiceStatus(trx, invoice.id, status);
  await recordEvent(
    trx,
    {
      owner: { invoiceId: invoice.id },
      status,
      paidAmount: received,
      txHash: null,
      paidAt: null,
      // The merchant issued it; its endpoints and event log hear of it, not its inbox.
      merchantEmail: null,
      webhookUrl: null,
    },
    {
      event_id: crypto.randomUUID(),
      type: "credit_note.created",
      created_at: createdAt.toISOString(),
      invoice_id: invoice.id,
      invoice_number: invoice.invoice_number,
      status,
      metadata: invoice.metadata,
      credit_note_id: note.id,
      credit_note_number: note.credit_note_number,
      amount: formatUsdc(note.total_amount),
      reason: note.reason,
      total_amount: formatUsdc(invoice.total_amount),
      credited_amount: formatUsdc(credited),
      paid_amount: formatUsdc(received),
      amount_due: formatUsdc(invoiceAmountDue(status, invoice.total_amount, received, credited)),
    },
  );
  await recordAudit(trx, {
    merchantId: invoice.merchant_id,
    ...auditActor(actor.identity),
    action: "credit_note.created",
    target: note.id,
    requestId: actor.requestId,
    // What the invoice asks for, before and after.
    details: {
      invoiced_amount: {
        from: formatUsdc(invoicedAmount(invoice.total_amount, invoice.credited_amount)),
        to: formatUsdc(invoicedAmount(invoice.total_amount, credited)),
      },
    },
  });
  if (options.emailVendor && invoice.sent_at)
    await queueCreditNoteEmail(trx, { id: note.id, invoiceId: invoice.id }, invoice.vendor_email);
  return note;
}
