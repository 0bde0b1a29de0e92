import { lineTotal, numberToDecimal, usdcToBaseUnits } from "./money.ts";

export type LineItemInput = { description: string; quantity: number; unit_price: string };

export type PricedLineItem = {
  description: string;
  /** The quantity as an exact decimal string ("12.5"), as stored and printed. */
  quantity: string;
  unitPrice: bigint;
  lineTotal: bigint;
};

/** "12.5" for 12.5, "0.0000001" for 1e-7: the exact decimal, never exponent notation. */
export function quantityToString(quantity: number): string {
  const { digits, scale } = numberToDecimal(quantity);
  if (scale === 0) return digits.toString();
  const padded = digits.toString().padStart(scale + 1, "0");
  return `${padded.slice(0, -scale)}.${padded.slice(-scale)}`;
}

/**
 * Each line's total (quantity × unit price, rounded half-up to 6 decimals) and the invoice
 * total (their sum), in USDC base units.
 */
export function priceLineItems(items: readonly LineItemInput[]): {
  lines: PricedLineItem[];
  total: bigint;
} {
  const lines = items.map((item) => {
    const unitPrice = usdcToBaseUnits(item.unit_price);
    return {
      description: item.description,
      quantity: quantityToString(item.quantity),
      unitPrice,
      lineTotal: lineTotal(item.quantity, unitPrice),
    };
  });
  return { lines, total: lines.reduce((sum, line) => sum + line.lineTotal, 0n) };
}

/**
 * The largest invoice total accepted: 100 billion USDC in base units, more than all USDC in
 * existence, and far inside Postgres's bigint.
 */
export const MAX_TOTAL = 100_000_000_000n * 1_000_000n;
