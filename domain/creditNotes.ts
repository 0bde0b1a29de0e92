import { type PricedLineItem, pricedTotals } from "./invoiceTotals.ts";
import { formatUsdc } from "./money.ts";
import { invoicedAmount } from "./moneyRules.ts";
import { invoiceStatusFor } from "./paymentState.ts";
import type { StoredInvoiceStatus } from "./statuses.ts";
import type { LineTax } from "./tax.ts";

/**
 * Credit notes (docs/api.md, "Credit notes"): the one way to correct or cancel an issued
 * invoice, which stays as it was issued. A credit note lowers what its invoice asks for
 * (moneyRules' invoicedAmount); these are its rules: which invoice may take one, how much,
 * what a full credit's lines are, and the invoice's status after it.
 */

/** CN-0001, CN-0002, …: per merchant, gap-free, like invoice numbers. */
export const formatCreditNoteNumber = (n: number): string => `CN-${String(n).padStart(4, "0")}`;

/** An invoice as its credit notes see it. */
export type CreditedInvoice = {
  status: StoredInvoiceStatus;
  total: bigint;
  credited: bigint;
};

/** Why an invoice cannot take a credit note now (a field-level refusal of the request), or null. */
export function creditRefusal(invoice: CreditedInvoice): { code: string; message: string } | null {
  if (invoice.status === "void")
    return {
      code: "invoice_void",
      message: "this invoice is void: it asks for nothing, so nothing can be credited",
    };
  if (invoice.status === "draft")
    return {
      code: "invoice_draft",
      message:
        "this invoice is a draft, never issued: void it (no credit note is needed) or send it first",
    };
  if (invoicedAmount(invoice.total, invoice.credited) === 0n)
    return {
      code: "nothing_to_credit",
      message: "this invoice has been credited in full already",
    };
  return null;
}

const sameTax = (a: LineTax, b: LineTax) =>
  a.category === b.category && (a.rate?.text ?? null) === (b.rate?.text ?? null);

/**
 * The lines of a credit of everything the invoice still asks for (`full: true`, and a void of a
 * sent invoice). Before any credit note, the invoice's own lines: the credit note mirrors the
 * invoice, line for line and tax for tax. After partial ones, what remains: one line per tax
 * category and rate still uncredited (one line without tax), each for the taxable amount left.
 * With tax, each category's tax is computed on what remains (BR-CO-17), which can differ by a
 * cent from the invoice's tax less the earlier notes' tax; the caller checks the total against
 * what may be credited.
 */
export function fullCreditLines(
  invoiceNumber: string,
  invoiceLines: readonly PricedLineItem[],
  earlierCreditLines: readonly PricedLineItem[],
  creditable: bigint,
): PricedLineItem[] {
  if (earlierCreditLines.length === 0) return invoiceLines.map((line) => ({ ...line }));
  const remaining = `Remaining amount of invoice ${invoiceNumber}`;
  const invoiceTax = pricedTotals(invoiceLines).tax;
  if (!invoiceTax)
    return [
      {
        description: remaining,
        quantity: "1",
        unitPrice: creditable,
        lineTotal: creditable,
        tax: null,
      },
    ];
  const credited = pricedTotals(earlierCreditLines).tax?.breakdown ?? [];
  return invoiceTax.breakdown.flatMap((row) => {
    const tax: LineTax = { category: row.category, rate: row.rate };
    const done = credited
      .filter((c) => sameTax({ category: c.category, rate: c.rate }, tax))
      .reduce((sum, c) => sum + c.taxableAmount, 0n);
    const left = row.taxableAmount - done;
    if (left <= 0n) return [];
    const label = row.rate ? `${row.category} ${row.rate.text}%` : row.category;
    return [
      {
        description: `${remaining} (${label})`,
        quantity: "1",
        unitPrice: left,
        lineTotal: left,
        tax,
      },
    ];
  });
}

/**
 * The field error of a credit note's lines against its invoice, or null: a credit note of a
 * taxed invoice states each line's tax, as one of the invoice's own categories and rates (one
 * credits what was invoiced, so the parties' tax IDs the invoice's categories needed are there);
 * a credit note of an invoice without tax has none.
 */
export function creditLineProblem(
  invoiceLines: readonly PricedLineItem[],
  creditLines: readonly PricedLineItem[],
): { index: number; field: string; code: string; message: string } | null {
  const invoiceTaxes = invoiceLines.flatMap((line) => (line.tax ? [line.tax] : []));
  for (const [index, line] of creditLines.entries()) {
    if (invoiceTaxes.length === 0 && line.tax)
      return {
        index,
        field: "tax_category",
        code: "invoice_untaxed",
        message: "the invoice carries no tax, so its credit note carries none",
      };
    if (invoiceTaxes.length > 0 && !line.tax)
      return {
        index,
        field: "tax_category",
        code: "tax_required",
        message: "the invoice is taxed: each credited line states its tax_category and tax_rate",
      };
    if (line.tax && !invoiceTaxes.some((tax) => line.tax && sameTax(tax, line.tax)))
      return {
        index,
        field: "tax_rate",
        code: "tax_not_on_invoice",
        message: `the invoice has no line taxed ${line.tax.category}${line.tax.rate ? ` at ${line.tax.rate.text}%` : ""}: a credit note credits what was invoiced`,
      };
  }
  return null;
}

/** The refusal of a credit above what the invoice still asks for, or null. */
export function creditAmountProblem(
  creditTotal: bigint,
  creditable: bigint,
): { code: string; message: string } | null {
  if (creditTotal <= 0n)
    return { code: "zero_total", message: "a credit note's total must be greater than 0" };
  if (creditTotal > creditable)
    return {
      code: "credit_exceeds_creditable",
      message: `this credit note's total (${formatUsdc(creditTotal)} USDC) is more than the invoice still asks for (${formatUsdc(creditable)} USDC)`,
    };
  return null;
}

/**
 * The invoice's stored status once a credit note has lowered what it asks for, given what it
 * has received: the rule of every status (paymentState's invoiceStatusFor) on the new amount, so
 * an invoice credited down to what arrived is `paid`, one credited below it is `excess` (the
 * rest refundable), one credited in full with nothing received is `void`.
 *
 * @example statusAfterCredit({ status: "partial", total: 3_000_000n, credited: 1_000_000n }, 2_000_000n, 0n) // "paid"
 */
export function statusAfterCredit(
  invoice: CreditedInvoice,
  received: bigint,
  tolerance: bigint,
): StoredInvoiceStatus {
  return invoiceStatusFor(
    invoicedAmount(invoice.total, invoice.credited),
    received,
    true,
    tolerance,
  );
}
