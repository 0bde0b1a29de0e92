import { type Currency, feedsOf, PRICE_FEEDS } from "../domain/currencies.ts";
import { formatUsdc } from "../domain/money.ts";
import {
  CATEGORIES_NEEDING_BOTH_TAX_IDS,
  CATEGORIES_NEEDING_SELLER_TAX_ID,
  CENT,
  exemptionReasonFor,
  type LineTax,
  type TaxBreakdownRow,
  type TaxTotals,
  taxBreakdown,
  taxTotals,
} from "../domain/tax.ts";
import { peppolEndpoint } from "./peppolEndpoint.ts";

/**
 * What an EN 16931 e-invoice says, independent of its syntax (UBL, CII): the one model both
 * writers read, built from a stored invoice or credit note by the application layer.
 *
 * Currency: a document is written in the invoice's currency (BT-5), and its payment means say
 * that it is paid in USDC on Base, to the invoice's deposit address (docs/einvoices.md). ISO
 * 4217 has no code for USDC: a document of an invoice priced in USDC is written in **USD**
 * (USDC is redeemable 1:1 for US dollars by its issuer).
 */
export type EInvoiceParty = {
  name: string;
  /** Where documents and notices reach the party (its contact's e-mail, BT-43/BT-58). */
  email: string;
  /** Its Peppol participant identifier, "scheme:id" (einvoice/peppolEndpoint.ts). */
  peppolId: string | null;
  /** Free text, one line or several; the first line is the street. */
  address: string | null;
  /** ISO 3166-1 alpha-2. */
  country: string | null;
  /** The VAT identifier, with its country prefix (DE123456789). */
  taxId: string | null;
};

export type EInvoiceLine = {
  description: string;
  /** The quantity as an exact decimal string. */
  quantity: string;
  /** Base units, 6 decimals. */
  unitPrice: bigint;
  /** Base units, whole cents: quantity × unit price rounded (domain/tax.ts lineNetAmount). */
  netAmount: bigint;
  tax: LineTax;
};

export type EInvoiceDocument = {
  type: "invoice" | "credit_note";
  /** What the invoice is priced in: its amounts are in it, and it is paid in USDC. */
  currency: Currency;
  number: string;
  issueDate: string;
  /** Invoices only. */
  dueDate: string | null;
  /** Peppol requires a buyer reference or an order reference (PEPPOL-EN16931-R003). */
  buyerReference: string;
  note: string | null;
  /** The invoice a credit note corrects (BG-3). */
  precedingInvoice: { number: string; issueDate: string } | null;
  seller: EInvoiceParty;
  buyer: EInvoiceParty;
  lines: EInvoiceLine[];
  /** The merchant's reason, stated on every row of a category that needs one. */
  exemptionReason: string | null;
  /** Already received, base units (BT-113); the payable amount is the total less this. */
  paidAmount: bigint;
  /** Where the invoice is paid: its deposit address on Base, in USDC. */
  payment: { depositAddress: string; chainId: number; token: string } | null;
};

/**
 * The document's ISO 4217 currency code (BT-5): the invoice's currency, USD for one priced in
 * USDC (see above).
 *
 * @example documentCurrency("USDC") // "USD"
 * @example documentCurrency("EUR") // "EUR"
 */
export const documentCurrency = (currency: Currency): string =>
  currency === "USDC" ? "USD" : currency;

/**
 * The payment terms (BT-20) of an invoice paid to `payment`: a USDC invoice's amount is what
 * is sent, one priced in a currency is sent in USDC at the rate at payment (docs/currencies.md).
 */
export function paymentTerms(
  currency: Currency,
  payment: NonNullable<EInvoiceDocument["payment"]>,
): string {
  const pay = `Pay in USDC on Base (chain ${payment.chainId}) to ${payment.depositAddress}`;
  if (currency === "USDC") return `${pay}; 1 USDC settles 1 USD.`;
  const feeds = feedsOf(currency).map((feed) => PRICE_FEEDS[feed].pair);
  return `${pay}, at the rate at payment of Chainlink's ${feeds.join(" and ")} price feeds on Base; the invoice page quotes the USDC amount.`;
}

/** The document's figures, from the one tax rule (domain/tax.ts). */
export type EInvoiceFigures = TaxTotals & {
  breakdown: TaxBreakdownRow[];
  payable: bigint;
};

export function figuresOf(document: EInvoiceDocument): EInvoiceFigures {
  const breakdown = taxBreakdown(document.lines);
  const totals = taxTotals(document.lines, breakdown);
  return { ...totals, breakdown, payable: totals.total - document.paidAmount };
}

/** An amount as EN 16931 writes it: two decimals, no separators ("1234.50"). */
export function amount(units: bigint): string {
  if (units % CENT !== 0n)
    throw new RangeError(`an e-invoice amount must be whole cents: ${formatUsdc(units)}`);
  const sign = units < 0n ? "-" : "";
  const cents = (units < 0n ? -units : units) / CENT;
  return `${sign}${cents / 100n}.${(cents % 100n).toString().padStart(2, "0")}`;
}

/** A unit price as written: its decimals as given, at least two ("0.333333", "75.00"). */
export const price = (units: bigint): string => formatUsdc(units);

/** What must be added to an invoice before it can be an EN 16931 document: field → why. */
export type MissingField = { field: string; message: string };

/**
 * The fields an invoice lacks for EN 16931, named as the API names them: both parties'
 * countries (BR-09, BR-11), a tax category on every line (BR-CO-04), the seller's VAT
 * identifier where a category needs it (BR-S-02 …), both where reverse charge or an
 * intra-community supply is billed (BR-AE-02, BR-IC-02), an exemption reason for exempt lines
 * (BR-E-10). Empty when the document can be written.
 */
export function missingForEn16931(document: {
  seller: Pick<EInvoiceParty, "country" | "taxId">;
  buyer: Pick<EInvoiceParty, "country" | "taxId">;
  lines: { tax: LineTax | null }[];
  exemptionReason: string | null;
}): MissingField[] {
  const missing: MissingField[] = [];
  if (!document.seller.country)
    missing.push({ field: "merchant_country", message: "the seller's country is required" });
  if (!document.buyer.country)
    missing.push({ field: "vendor_country", message: "the buyer's country is required" });
  const categories = new Set<string>();
  document.lines.forEach((line, index) => {
    if (line.tax) categories.add(line.tax.category);
    else
      missing.push({
        field: `line_items[${index}].tax_category`,
        message: "every line needs a tax category (and a rate where it is taxed)",
      });
  });
  const has = (list: readonly string[]) => list.some((category) => categories.has(category));
  if (!document.seller.taxId && has(CATEGORIES_NEEDING_SELLER_TAX_ID))
    missing.push({ field: "merchant_tax_id", message: "the seller's VAT identifier is required" });
  if (!document.buyer.taxId && has(CATEGORIES_NEEDING_BOTH_TAX_IDS))
    missing.push({
      field: "vendor_tax_id",
      message:
        "the buyer's VAT identifier is required for reverse charge and intra-community supplies",
    });
  for (const category of categories)
    if (
      category !== "S" &&
      category !== "Z" &&
      !exemptionReasonFor(category as LineTax["category"], document.exemptionReason)
    )
      missing.push({
        field: "tax_exemption_reason",
        message: `the reason no tax is charged is required for category ${category}`,
      });
  return missing;
}

/**
 * What a Peppol BIS document needs beyond EN 16931: both parties' electronic addresses (their
 * Peppol identifiers, or VAT identifiers of a country Peppol has a VAT scheme for).
 */
export function missingForPeppol(document: {
  seller: Pick<EInvoiceParty, "peppolId" | "taxId">;
  buyer: Pick<EInvoiceParty, "peppolId" | "taxId">;
}): MissingField[] {
  const missing: MissingField[] = [];
  for (const [who, field] of [
    [document.seller, "merchant_peppol_id"],
    [document.buyer, "vendor_peppol_id"],
  ] as const)
    if (!peppolEndpoint(who))
      missing.push({
        field,
        message:
          'a Peppol identifier ("0208:0123456789") is required where the VAT identifier names no Peppol scheme',
      });
  return missing;
}

/** The address's lines: the first is the street, the second its continuation, the rest one line. */
export function addressLines(address: string | null): string[] {
  return (address ?? "")
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "");
}
