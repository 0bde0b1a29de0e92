import type { Currency } from "../../domain/currencies.ts";
import { invoiceAmountDue, receivedInOwnUnit } from "../../domain/moneyRules.ts";
import type { StoredInvoiceStatus } from "../../domain/statuses.ts";

/** What a list or export row of an invoice holds of its money (db/queries/invoiceLists.ts). */
export type InvoiceRowAmounts = {
  status: StoredInvoiceStatus;
  currency: Currency;
  total_amount: bigint;
  credited_amount: bigint;
  received: bigint;
  received_in_currency: bigint | null;
};

/**
 * A list or export row's paid and due amounts in the invoice's own unit (domain/moneyRules.ts
 * receivedInOwnUnit, invoiceAmountDue), as the detail shows them: in USDC for an invoice priced
 * in USDC, in its currency for one priced in EUR, GBP or USD. `paidUsdc` is what arrived.
 *
 * @example invoiceRowMoney({ currency: "EUR", received: 55_000_000n, received_in_currency: 50_000_000n, … })
 * // { paid: 50_000_000n, due: 50_000_000n, paidUsdc: 55_000_000n } on a 100.00 EUR invoice
 */
export function invoiceRowMoney(row: InvoiceRowAmounts): {
  paid: bigint;
  due: bigint;
  paidUsdc: bigint;
} {
  const paid = receivedInOwnUnit(row.currency, {
    received: row.received,
    receivedInCurrency: row.received_in_currency,
  });
  return {
    paid,
    due: invoiceAmountDue(row.status, row.total_amount, paid, row.credited_amount),
    paidUsdc: row.received,
  };
}
