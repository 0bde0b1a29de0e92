import { type FieldError, fieldErrors } from "../api/errors.ts";
import {
  type CreateCreditNoteInput,
  CreateCreditNoteSchema,
  createCreditNoteKnownKeys,
} from "../app/creditNotes/schema.ts";
import {
  type CreateInvoiceInput,
  CreateInvoiceSchema,
  createInvoiceKnownKeys,
} from "../app/invoices/schema.ts";
import {
  type CreateLinkInput,
  CreateLinkSchema,
  createLinkKnownKeys,
} from "../app/links/schema.ts";
import { currencyField } from "../app/schemaFields.ts";
import type { Currency } from "../domain/currencies.ts";
import { utcToday } from "../domain/invoiceStatus.ts";
import { invoiceTaxView, taxAmountFields } from "../domain/invoiceTaxView.ts";
import { MAX_TOTAL, priceInvoice } from "../domain/invoiceTotals.ts";
import { formatUsdc, usdcToBaseUnits } from "../domain/money.ts";

export type Validation<T> = { ok: true; value: T } | { ok: false; fields: FieldError[] };

/**
 * The API's rules for `POST /api/invoices`, run locally with the very same schema: the fields,
 * then the total (> 0), which the API checks after the schema too.
 */
export function validateInvoice(body: unknown): Validation<CreateInvoiceInput> {
  const parsed = CreateInvoiceSchema.safeParse(body);
  if (!parsed.success)
    return { ok: false, fields: fieldErrors(parsed.error, body, createInvoiceKnownKeys) };
  const { total } = priceInvoice(parsed.data.line_items, parsed.data.currency);
  if (total > MAX_TOTAL) {
    return {
      ok: false,
      fields: [
        {
          path: "line_items",
          code: "too_large",
          message: "the invoice total must be at most 100000000000.00 USDC",
        },
      ],
    };
  }
  if (total <= 0n) {
    return {
      ok: false,
      fields: [
        {
          path: "line_items",
          code: "zero_total",
          message: "the invoice total must be greater than 0",
        },
      ],
    };
  }
  return { ok: true, value: parsed.data };
}

export function validateLink(body: unknown): Validation<CreateLinkInput> {
  const parsed = CreateLinkSchema.safeParse(body);
  if (!parsed.success)
    return { ok: false, fields: fieldErrors(parsed.error, body, createLinkKnownKeys) };
  if (usdcToBaseUnits(parsed.data.amount) <= 0n) {
    return {
      ok: false,
      fields: [{ path: "amount", code: "not_positive", message: "must be greater than 0" }],
    };
  }
  return { ok: true, value: parsed.data };
}

/** `--currency` as the API judges `currency` (currencyField): its message at the field. */
export function validateCurrency(value: string): Validation<Currency> {
  const parsed = currencyField.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  return {
    ok: false,
    fields: fieldErrors(parsed.error, value).map((field) => ({ ...field, path: "currency" })),
  };
}

/**
 * The API's schema for `POST /api/invoices/{id}/credit-notes`: lines or `full`, and a reason.
 * What can be credited depends on the invoice, and only the API knows it.
 */
export function validateCreditNote(body: unknown): Validation<CreateCreditNoteInput> {
  const parsed = CreateCreditNoteSchema.safeParse(body);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, fields: fieldErrors(parsed.error, body, createCreditNoteKnownKeys) };
}

/**
 * What --dry-run prints for an invoice: the request as the API would see it, the `currency` its
 * amounts are in, its lines and total, priced as the API prices them (priceInvoice: in a
 * currency, each line to the cent); on an invoice with tax, each line's category and rate and
 * the detail's `subtotal_amount`, `tax_amount` and `tax_breakdown` (domain/invoiceTaxView.ts,
 * the API's rule).
 */
export function invoicePreview(input: CreateInvoiceInput) {
  const { lines, total } = priceInvoice(input.line_items, input.currency);
  const tax = invoiceTaxView(input, lines);
  return {
    valid: true,
    request: {
      ...input,
      issue_date: input.issue_date ?? utcToday(),
      send_now: input.send_now ?? true,
    },
    currency: input.currency ?? "USDC",
    line_items: lines.map((line) => ({
      description: line.description,
      quantity: line.quantity,
      unit_price: formatUsdc(line.unitPrice),
      line_total: formatUsdc(line.lineTotal),
      ...(line.tax
        ? { tax_category: line.tax.category, tax_rate: line.tax.rate?.text ?? null }
        : {}),
    })),
    ...(tax ? taxAmountFields(tax) : {}),
    total_amount: formatUsdc(total),
  };
}
