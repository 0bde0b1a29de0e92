import {
  type CreateCreditNoteInput,
  CreateCreditNoteSchema,
  createCreditNoteKnownKeys,
} from "../../app/creditNotes/schema.ts";
import type { InvoiceFacts } from "../../app/invoices/invoiceDetail.ts";
import { creditAmountProblem, creditLineProblem, creditRefusal } from "../../domain/creditNotes.ts";
import { storedPricedLine } from "../../domain/invoiceTaxView.ts";
import { type PricedLineItem, priceInvoice, taxLineProblems } from "../../domain/invoiceTotals.ts";
import {
  EMPTY_LINE,
  type FormFields,
  formToBody,
  lineToBody,
  typedAmountErrors,
  typedLinePrices,
} from "./forms.ts";
import { invoiceTotal } from "./invoiceForm.ts";
import type { FormState } from "./pages/formFields.tsx";
import { validated } from "./refusals.ts";

/**
 * The credit note form of an invoice's page: "everything it still asks for" or lines shaped like
 * the invoice form's (named `line_items[i].…`, posted as the API's `lines`), and a reason. Its
 * values, its field messages by the form's names, and the check before the confirmation.
 */

type Line = FormState["lines"][number];

/** The invoice's state as the credit note rules read it (domain/creditNotes.ts). */
const creditedOf = (facts: Pick<InvoiceFacts, "invoice">) => ({
  status: facts.invoice.status,
  total: facts.invoice.total_amount,
  credited: facts.invoice.credited_amount,
});

/** Why the invoice takes no credit note now (draft, void, credited in full), or null. */
export const creditNoteRefusal = (facts: Pick<InvoiceFacts, "invoice">): string | null =>
  creditRefusal(creditedOf(facts))?.message ?? null;

/** The form blank: a full credit chosen, one empty line. */
export const blankCreditNoteForm = (): FormState => ({
  values: { credit: "full" },
  lines: [EMPTY_LINE],
  errors: {},
  idempotencyKey: "",
  total: null,
  tax: null,
});

/** The form shown again: as typed, the messages by field, the total of valid lines. */
export function creditNoteFormState(
  form: FormFields,
  lines: Line[],
  errors: Record<string, string>,
  problem?: string,
): FormState {
  const priced = invoiceTotal(lines.map(lineToBody));
  return {
    values: { ...form, credit: form.credit === "lines" ? "lines" : "full" },
    lines: lines.length > 0 ? lines : [EMPTY_LINE],
    errors,
    problem,
    idempotencyKey: "",
    total: priced?.total ?? null,
    tax: priced?.tax ?? null,
  };
}

/** The POST /api/invoices/{id}/credit-notes body of the form. */
export function creditNoteBody(form: FormFields, lines: Line[]): Record<string, unknown> {
  const body = formToBody(form, ["reason"]);
  if (form.credit === "lines") body.lines = lines.map(lineToBody);
  else body.full = true;
  return body;
}

/**
 * The API's field paths as the form names its fields (`lines[0].unit_price` is the input
 * `line_items[0].unit_price`; `full` is the choice), and a price that cannot be read with the
 * person's message rather than the JSON API's strict one. A refusal of the whole request (path
 * "") is `form`: the page's problem.
 */
export function creditNoteErrors(
  fields: Record<string, string>,
  lines: Line[],
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [path, message] of Object.entries(fields)) {
    const name = path === "full" ? "credit" : path.replace(/^lines(?=\[|$)/, "line_items");
    errors[name] = message;
  }
  return { ...errors, ...typedAmountErrors(typedLinePrices(lines)) };
}

/** What the confirmation shows: the request, its lines priced, and what it takes off. */
export type CreditNotePreview = {
  input: CreateCreditNoteInput;
  lines: PricedLineItem[] | null;
  total: bigint;
  tax: bigint | null;
};

/**
 * The credit note the form asks for, checked as createCreditNote checks it (the schema, each
 * line's tax, the invoice's own rates, at most what it still asks for: domain/creditNotes.ts),
 * before the confirmation; the issue itself checks again under the invoice's lock. A full credit
 * takes what the invoice still asks for.
 */
export function previewCreditNote(
  facts: Pick<InvoiceFacts, "invoice" | "lines" | "money">,
  body: Record<string, unknown>,
): { ok: true; preview: CreditNotePreview } | { ok: false; fields: Record<string, string> } {
  const refused = creditRefusal(creditedOf(facts));
  if (refused) return { ok: false, fields: { form: refused.message } };
  const input = validated(CreateCreditNoteSchema, body, createCreditNoteKnownKeys);
  if (!input.ok) return input;
  const creditable = facts.money.invoiced;
  if (!input.data.lines)
    return { ok: true, preview: { input: input.data, lines: null, total: creditable, tax: null } };
  const taxProblems = taxLineProblems(input.data.lines);
  if (taxProblems.length > 0)
    return {
      ok: false,
      fields: Object.fromEntries(
        taxProblems.map((p) => [`lines[${p.index}].${p.field}`, p.message]),
      ),
    };
  const priced = priceInvoice(input.data.lines, facts.invoice.currency);
  const lineProblem = creditLineProblem(facts.lines.map(storedPricedLine), priced.lines);
  if (lineProblem)
    return {
      ok: false,
      fields: { [`lines[${lineProblem.index}].${lineProblem.field}`]: lineProblem.message },
    };
  const tooMuch = creditAmountProblem(priced.total, creditable);
  if (tooMuch) return { ok: false, fields: { lines: tooMuch.message } };
  return {
    ok: true,
    preview: {
      input: input.data,
      lines: priced.lines,
      total: priced.total,
      tax: priced.tax?.tax ?? null,
    },
  };
}
