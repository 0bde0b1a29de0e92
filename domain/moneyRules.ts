import { type Currency, groupByCurrency } from "./currencies.ts";
import type { RefundStatus, StoredInvoiceStatus } from "./statuses.ts";

/**
 * What is owed, received, refunded, credited and overdue: each rule once. Every surface that
 * shows money (the API's details and lists, the status endpoint, the dashboard, the CSV
 * exports, the webhooks and emails) reads these, so an accountant summing any of them gets one
 * answer. Figures are base units of 6 decimals of one unit: USDC, or for an invoice priced in a
 * currency, that currency (receivedInOwnUnit). Figures in different units are never added: the
 * totals over many invoices are per currency (outstandingByCurrency).
 */

/**
 * What an invoice asks for once its credit notes are taken off: its total less everything
 * credited (app.invoices.credited_amount, the sum of its credit notes). It is also what may
 * still be credited: a credit note never takes an invoice below zero.
 *
 * @example invoicedAmount(3_000_000n, 1_000_000n) // 2_000_000n
 */
export function invoicedAmount(total: bigint, credited: bigint): bigint {
  return total - credited;
}

/**
 * What is still due on an invoice: nothing once it is `paid` (a shortfall within the merchant's
 * underpayment tolerance is settled, so nobody asks for more) or `void` (cancelled: a payment
 * that still arrives is held for refund, not owed), otherwise what it asks for after its
 * credit notes (invoicedAmount) less what arrived, never below zero.
 *
 * @example invoiceAmountDue("paid", 3_000_000n, 2_950_000n, 0n) // 0n
 * @example invoiceAmountDue("void", 3_000_000n, 0n, 0n) // 0n
 * @example invoiceAmountDue("partial", 3_000_000n, 2_000_000n, 0n) // 1_000_000n
 * @example invoiceAmountDue("partial", 3_000_000n, 1_000_000n, 500_000n) // 1_500_000n
 */
export function invoiceAmountDue(
  status: StoredInvoiceStatus,
  total: bigint,
  received: bigint,
  credited: bigint,
): bigint {
  if (status === "paid" || status === "void") return 0n;
  return amountDue(invoicedAmount(total, credited), received);
}

/** What is still to pay on an amount (a payment link's): the amount less what arrived, ≥ 0. */
export function amountDue(amount: bigint, received: bigint): bigint {
  return amount > received ? amount - received : 0n;
}

/**
 * The stored statuses of an open invoice: sent to its customer and not settled (a draft is
 * nobody's debt yet; paid, excess and void owe nothing). Reminders go out for these and the aged
 * receivables count them (db/queries/receivables.ts reads the same list in SQL).
 */
export const OPEN_STORED_STATUSES = ["sent", "partial"] as const satisfies StoredInvoiceStatus[];

/**
 * What an open invoice still asks for: its amount due; 0 for any invoice that is not open.
 *
 * @example openAmountDue("partial", 3_000_000n, 2_000_000n, 0n) // 1_000_000n
 * @example openAmountDue("draft", 3_000_000n, 0n, 0n) // 0n
 */
export function openAmountDue(
  status: StoredInvoiceStatus,
  total: bigint,
  received: bigint,
  credited: bigint,
): bigint {
  if (!(OPEN_STORED_STATUSES as readonly string[]).includes(status)) return 0n;
  return invoiceAmountDue(status, total, received, credited);
}

/** The stored statuses an invoice reports as `overdue` once its due date has passed. */
export const OVERDUE_STORED_STATUSES = ["draft", "sent"] as const satisfies StoredInvoiceStatus[];

/**
 * Whether an invoice is overdue on `today` (both dates YYYY-MM-DD, UTC): its due date has passed
 * and nothing has arrived on it yet (stored `draft` or `sent`). A `partial` invoice past its due
 * date is not: the money received is the more useful fact; `paid`, `excess` and `void` owe
 * nothing. The SQL filter of the invoice list (db/queries/invoiceLists.ts) reads the same
 * statuses.
 *
 * @example isOverdue("sent", "2026-01-31", "2026-02-01") // true
 */
export function isOverdue(status: StoredInvoiceStatus, dueDate: string, today: string): boolean {
  return (OVERDUE_STORED_STATUSES as readonly string[]).includes(status) && dueDate < today;
}

/**
 * The refund status that counts as paid back: `confirmed`, whose transfer is mined (money that
 * has left). A requested or submitted refund has moved nothing yet and a failed one never will.
 * The SQL sums (db/queries/listPage.ts confirmedRefundsOf, the payments export, the status
 * endpoints' refundedAmountOf) filter on this same value.
 */
export const COUNTED_REFUND_STATUS = "confirmed" satisfies RefundStatus;

/** What refunds paid back: the confirmed ones only (COUNTED_REFUND_STATUS). */
export function refundedAmount(
  refunds: readonly { status: RefundStatus; amount: bigint }[],
): bigint {
  return refunds.reduce(
    (sum, r) => (r.status === COUNTED_REFUND_STATUS ? sum + r.amount : sum),
    0n,
  );
}

/** What the merchant kept of what was received: received less what refunds paid back. */
export function netReceived(received: bigint, refunded: bigint): bigint {
  return received - refunded;
}

/** One invoice's money, every figure of it, from what is stored about it. */
export type InvoiceMoney = {
  /** What the invoice asks for after its credit notes (invoicedAmount). */
  invoiced: bigint;
  credited: bigint;
  /** In the invoice's unit (USDC, or its currency). */
  received: bigint;
  /** USDC: refunds pay back what arrived. */
  refunded: bigint;
  /** USDC: what arrived less what refunds paid back. */
  net: bigint;
  due: bigint;
  overdue: boolean;
};

/**
 * `received` is in the invoice's unit (receivedInOwnUnit); refunds are USDC, so `net` is what
 * the merchant kept in USDC: `receivedUsdc` (the USDC that arrived; the same figure for an
 * invoice priced in USDC) less refunds — never euros less USDC.
 */
export function invoiceMoney(
  invoice: { status: StoredInvoiceStatus; total: bigint; credited: bigint; dueDate: string },
  received: bigint,
  refunded: bigint,
  today: string,
  receivedUsdc: bigint = received,
): InvoiceMoney {
  return {
    invoiced: invoicedAmount(invoice.total, invoice.credited),
    credited: invoice.credited,
    received,
    refunded,
    net: netReceived(receivedUsdc, refunded),
    due: invoiceAmountDue(invoice.status, invoice.total, received, invoice.credited),
    overdue: isOverdue(invoice.status, invoice.dueDate, today),
  };
}

/** What the merchant's open invoices owe: all of it, and the part that is overdue. */
export type Outstanding = { due: bigint; count: number; overdue: bigint; overdueCount: number };

/** What the open invoices priced in one currency owe, in that currency. */
export type CurrencyOutstanding = Outstanding & { currency: Currency };

/**
 * An invoice's figures as the dashboard's totals of what is owed read them: `total`,
 * `credited` and `received` all in its `currency` (received: receivedInOwnUnit).
 */
export type OpenInvoiceFigures = {
  status: StoredInvoiceStatus;
  currency: Currency;
  total: bigint;
  credited: bigint;
  received: bigint;
  dueDate: string;
};

/**
 * The outstanding and overdue totals of a set of invoices of one currency: the invoices with
 * something due count, each for what it owes.
 */
export function outstanding(
  invoices: readonly Omit<OpenInvoiceFigures, "currency">[],
  today: string,
): Outstanding {
  const sum: Outstanding = { due: 0n, count: 0, overdue: 0n, overdueCount: 0 };
  for (const invoice of invoices) {
    const due = invoiceAmountDue(invoice.status, invoice.total, invoice.received, invoice.credited);
    if (due === 0n) continue;
    sum.due += due;
    sum.count += 1;
    if (isOverdue(invoice.status, invoice.dueDate, today)) {
      sum.overdue += due;
      sum.overdueCount += 1;
    }
  }
  return sum;
}

/**
 * What the invoices owe, per currency (USDC first, then by code): 100.00 EUR and 50.00 USDC owed
 * are two figures, never 150.00 of anything. A currency whose invoices owe nothing is left out.
 *
 * @example outstandingByCurrency([eurInvoiceOwing100, usdcInvoiceOwing50], today)
 * // [{ currency: "USDC", due: 50_000_000n, … }, { currency: "EUR", due: 100_000_000n, … }]
 */
export function outstandingByCurrency(
  invoices: readonly OpenInvoiceFigures[],
  today: string,
): CurrencyOutstanding[] {
  return groupByCurrency(invoices)
    .map(([currency, group]) => ({ currency, ...outstanding(group, today) }))
    .filter((owed) => owed.count > 0);
}

/**
 * The dashboard overview's figures: the month's money in and out, and what is owed. Money in and
 * out is USDC whatever the invoice is priced in (what arrived and what refunds sent back); what
 * is owed is in each invoice's currency, so it is given per currency.
 */
export type Overview = {
  /** Counted payments this calendar month (UTC), by block time, on invoices and links, in USDC. */
  receivedThisMonth: bigint;
  /** Refunds confirmed this month, in USDC. */
  refundedThisMonth: bigint;
  /** Received less refunded, this month, in USDC. */
  netThisMonth: bigint;
  /** Still due on the invoices priced in USDC that owe something (invoiceAmountDue). */
  outstanding: bigint;
  outstandingCount: number;
  overdue: bigint;
  overdueCount: number;
  /** The same for the invoices priced in a currency: one entry per currency owed, by code. */
  owedInCurrencies: CurrencyOutstanding[];
};

export function overview(
  facts: {
    receivedThisMonth: bigint;
    refundsThisMonth: readonly { status: RefundStatus; amount: bigint }[];
    openInvoices: readonly OpenInvoiceFigures[];
  },
  today: string,
): Overview {
  const refunded = refundedAmount(facts.refundsThisMonth);
  const owed = outstandingByCurrency(facts.openInvoices, today);
  const inUsdc = owed.find((o) => o.currency === "USDC");
  return {
    receivedThisMonth: facts.receivedThisMonth,
    refundedThisMonth: refunded,
    netThisMonth: netReceived(facts.receivedThisMonth, refunded),
    outstanding: inUsdc?.due ?? 0n,
    outstandingCount: inUsdc?.count ?? 0,
    overdue: inUsdc?.overdue ?? 0n,
    overdueCount: inUsdc?.overdueCount ?? 0,
    owedInCurrencies: owed.filter((o) => o.currency !== "USDC"),
  };
}

/** The first moment (UTC) of the month `today` (YYYY-MM-DD) is in. */
export const monthStartOf = (today: string): Date => new Date(`${today.slice(0, 7)}-01T00:00:00Z`);

/**
 * Half a cent, in base units of 6 decimals: how far the converted sum of the payments to an
 * invoice or link priced in a currency may be from its amount and still count as that amount.
 * Each conversion rounds to a base unit (what to send up, what arrived down: domain/rates.ts),
 * so a payer who sent exactly what was asked can land a unit or two off the amount; a currency
 * is settled to its cent, and half of one is no payment anybody makes on purpose.
 */
export const CONVERSION_ROUNDING = 5_000n;

/**
 * What the converted payments count as when judging a currency-priced owner's status: the
 * amount itself when their sum is within CONVERSION_ROUNDING of it, otherwise their sum.
 *
 * @example receivedInCurrencyForStatus(100_000_000n, 99_999_999n) // 100_000_000n
 * @example receivedInCurrencyForStatus(100_000_000n, 60_000_000n) // 60_000_000n
 */
export function receivedInCurrencyForStatus(amount: bigint, convertedSum: bigint): bigint {
  const off = convertedSum > amount ? convertedSum - amount : amount - convertedSum;
  return off <= CONVERSION_ROUNDING ? amount : convertedSum;
}

/**
 * What an invoice or link has received in its own unit: its counted payments in USDC, or for
 * one priced in a currency their conversions' sum (payment_state.received_in_currency, 0 until
 * the first is converted). Every figure of such an owner (paid, due, status) is in its currency;
 * USDC stays what arrived, what the books count and what is swept and refunded.
 *
 * @example receivedInOwnUnit("USDC", { received: 5_000_000n }) // 5_000_000n
 * @example receivedInOwnUnit("EUR", { received: 5_500_000n, receivedInCurrency: 5_000_000n }) // 5_000_000n
 */
export function receivedInOwnUnit(
  currency: Currency,
  state: { received: bigint; receivedInCurrency?: bigint | null },
): bigint {
  return currency === "USDC" ? state.received : (state.receivedInCurrency ?? 0n);
}

/** A cent of a currency, in its 6-decimal base units. */
const CENT = 10_000n;

/**
 * What `usdc` of an owner's counted payments stands for in its currency: that share of what the
 * payments were converted to (their rates averaged by amount), rounded down to the cent (never
 * overcounted). What a refund of an owner priced in a currency returns in it.
 *
 * @example shareInCurrency(11_000_000n, { received: 121_000_000n, receivedInCurrency: 110_000_000n }) // 10_000_000n
 * @example shareInCurrency(1_000_000n, { received: 0n, receivedInCurrency: 0n }) // 0n
 */
export function shareInCurrency(
  usdc: bigint,
  state: { received: bigint; receivedInCurrency: bigint },
): bigint {
  if (state.received === 0n) return 0n;
  const share = (usdc * state.receivedInCurrency) / state.received;
  return (share / CENT) * CENT;
}
