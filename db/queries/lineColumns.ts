import type { PricedLineItem } from "../../domain/invoiceTotals.ts";

/**
 * A priced line as its row's columns, the same for an invoice's line items and a credit note's
 * lines (migrations 0002, 0039, 0040): quantity as its exact decimal, the tax as stored.
 */
export const lineColumns = (line: PricedLineItem, position: number) => ({
  position,
  description: line.description,
  quantity: line.quantity,
  unit_price: line.unitPrice,
  line_total: line.lineTotal,
  tax_category: line.tax?.category ?? null,
  tax_rate: line.tax?.rate?.text ?? null,
});
