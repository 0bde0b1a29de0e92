import { LineItemSchema } from "../../app/invoices/schema.ts";
import { type Currency, isCurrency } from "../../domain/currencies.ts";
import { priceInvoice, taxLineProblems } from "../../domain/invoiceTotals.ts";
import {
  EMPTY_LINE,
  type FormFields,
  formToBody,
  idempotencyKeyOf,
  linesOf,
  lineToBody,
  typedAmountErrors,
  typedLinePrices,
} from "./forms.ts";
import type { FormState } from "./pages/formFields.tsx";
import { formProblem } from "./refusals.ts";

/**
 * The invoice form's fields and round trips, shared by the new invoice's page and the new
 * schedule's (whose template is the same invoice without its dates).
 */

/** The invoice's text fields as the form names them (the API's names). */
export const INVOICE_TEXT = [
  "vendor_name",
  "vendor_email",
  "vendor_address",
  "issue_date",
  "due_date",
  "notes",
  "merchant_name",
  "merchant_address",
  "wallet_type",
  "wallet_address",
  "webhook_url",
  "merchant_tax_id",
  "merchant_country",
  "vendor_tax_id",
  "vendor_country",
  "tax_exemption_reason",
] as const;

/** A new invoice's (or schedule's) fields: the invoice's and what it is priced in. */
export const NEW_INVOICE_TEXT = [...INVOICE_TEXT, "currency"] as const;

/**
 * What the form prices its lines in: the chosen currency, or USDC (the API's default) while
 * none or an unknown one is chosen (the API's schema then names the field).
 */
export const formCurrency = (values: Record<string, string>): Currency => {
  const chosen = values.currency?.trim() ?? "";
  return isCurrency(chosen) ? chosen : "USDC";
};

type Line = FormState["lines"][number];

/**
 * The invoice total as POST /api/invoices computes it (priceInvoice, in `currency`: to the cent
 * in a currency), with its subtotal and tax when the lines carry tax; null while a line is
 * invalid.
 */
export function invoiceTotal(
  lines: unknown[],
  currency: Currency = "USDC",
): { total: bigint; tax: { subtotal: bigint; tax: bigint } | null } | null {
  const parsed = LineItemSchema.array().min(1).safeParse(lines);
  if (!parsed.success || taxLineProblems(parsed.data).length > 0) return null;
  const priced = priceInvoice(parsed.data, currency);
  return {
    total: priced.total,
    tax: priced.tax && { subtotal: priced.tax.subtotal, tax: priced.tax.tax },
  };
}

/** A blank form with the merchant's defaults (settings page) filled in. */
export function blankInvoiceForm(
  defaults: { default_name: string | null; default_address: string | null },
  values: Record<string, string> = {},
): FormState {
  return {
    values: {
      merchant_name: defaults.default_name ?? "",
      merchant_address: defaults.default_address ?? "",
      wallet_type: "managed",
      currency: "USDC",
      ...values,
    },
    lines: [EMPTY_LINE],
    errors: {},
    idempotencyKey: idempotencyKeyOf({}),
    total: null,
    tax: null,
  };
}

/**
 * The form as submitted: its lines after the button pressed (without the script, adding or
 * removing a line is a round trip that creates nothing; so is "Update total"), and whether that
 * button asked to create.
 */
export function submittedLines(form: FormFields): { lines: Line[]; create: boolean } {
  const action = form._action ?? "create";
  const lines = linesOf(form);
  if (action === "add_line")
    return { lines: lines.length < 30 ? [...lines, EMPTY_LINE] : lines, create: false };
  if (action.startsWith("remove_line:")) {
    const index = Number(action.slice("remove_line:".length));
    return { lines: lines.filter((_, i) => i !== index), create: false };
  }
  return { lines, create: action !== "recompute" };
}

/** The form shown again: what was typed, the messages by field, the total of valid lines. */
export function submittedState(
  form: FormFields,
  lines: Line[],
  errors: Record<string, string>,
  problem?: string,
): FormState {
  return {
    values: { ...form, send_now: form.send_now ? "true" : "false" },
    lines: lines.length > 0 ? lines : [EMPTY_LINE],
    errors,
    problem,
    idempotencyKey: idempotencyKeyOf(form),
    ...totalsOf(lines, formCurrency(form)),
  };
}

const totalsOf = (lines: Line[], currency: Currency): Pick<FormState, "total" | "tax"> => {
  const priced = invoiceTotal(lines.map(lineToBody), currency);
  return { total: priced?.total ?? null, tax: priced?.tax ?? null };
};

/** The POST /api/invoices body of the form (the signed-in merchant's email, typed prices read). */
export function invoiceBody(
  form: FormFields,
  lines: Line[],
  merchantEmail: string,
  text: readonly string[] = INVOICE_TEXT,
): Record<string, unknown> {
  const body: Record<string, unknown> = {
    ...formToBody(form, text),
    merchant_email: merchantEmail,
    line_items: lines.map(lineToBody),
    send_now: Boolean(form.send_now),
  };
  if (body.wallet_type !== "byo") delete body.wallet_address;
  // A country code typed in lower case ("de") is the code; the API takes it in capitals.
  for (const key of ["merchant_country", "vendor_country"])
    if (typeof body[key] === "string") body[key] = body[key].toUpperCase();
  return body;
}

/**
 * The form shown again after the API refused it: the refusal's messages at their fields (a
 * price that cannot be read: the person's message, not the JSON API's strict one), and its
 * `message` above the form only when none is at a field.
 */
export function refusedState(
  form: FormFields,
  lines: Line[],
  fields: Record<string, string>,
  message: string,
): FormState {
  const errors = { ...fields, ...typedAmountErrors(typedLinePrices(lines)) };
  return submittedState(form, lines, errors, formProblem(errors, undefined, message));
}
