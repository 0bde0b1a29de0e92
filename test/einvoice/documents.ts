import { usdcToBaseUnits } from "../../domain/money.ts";
import { lineNetAmount, resolveLineTax, type TaxCategory } from "../../domain/tax.ts";
import type { EInvoiceDocument, EInvoiceLine } from "../../einvoice/document.ts";

/**
 * The documents the e-invoice tests write: one per tax case of issue 44, built as the service
 * builds them (each line's tax resolved and its net amount rounded by domain/tax.ts).
 */

type LineInput = {
  description: string;
  quantity: number;
  unit_price: string;
  tax_rate?: string;
  tax_category?: TaxCategory;
};

export function line(input: LineInput): EInvoiceLine {
  const tax = resolveLineTax(input.tax_rate, input.tax_category);
  if ("code" in tax) throw new Error(`${input.description}: ${tax.message}`);
  const unitPrice = usdcToBaseUnits(input.unit_price);
  return {
    description: input.description,
    quantity: String(input.quantity),
    unitPrice,
    netAmount: lineNetAmount(input.quantity, unitPrice),
    tax,
  };
}

const base: EInvoiceDocument = {
  type: "invoice",
  currency: "USDC",
  number: "INV-0042",
  issueDate: "2026-11-20",
  dueDate: "2026-12-20",
  buyerReference: "INV-0042",
  note: "Thank you for your business.",
  precedingInvoice: null,
  seller: {
    name: "Acme GmbH",
    email: "billing@acme.example",
    peppolId: null,
    address: "Hauptstraße 1\n10115 Berlin",
    country: "DE",
    taxId: "DE123456789",
  },
  buyer: {
    name: "Globex SAS",
    email: "ap@globex.example",
    peppolId: null,
    address: "12 rue de la Paix\n75002 Paris",
    country: "FR",
    taxId: "FR12345678901",
  },
  lines: [],
  exemptionReason: null,
  paidAmount: 0n,
  payment: {
    depositAddress: "0x8ba1f109551bD432803012645Ac136ddd64DBA72",
    chainId: 8453,
    token: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
  },
};

const design = { description: "Design work", quantity: 2, unit_price: "75.00" };
const hosting = { description: "Hosting, November", quantity: 1, unit_price: "19.99" };
const hours = { description: "Support hours", quantity: 3.5, unit_price: "0.333333" };
const training = { description: "Training (exempt)", quantity: 1, unit_price: "40.00" };
const EXEMPTION = "Exempt under Article 132(1)(i) of Directive 2006/112/EC";

/** Every case the issue names, by name. */
export const DOCUMENTS: Record<string, EInvoiceDocument> = {
  "standard-rated": { ...base, lines: [line({ ...design, tax_rate: "19" })] },
  "mixed rates": {
    ...base,
    lines: [
      line({ ...design, tax_rate: "19" }),
      line({ ...hosting, tax_rate: "7" }),
      line({ ...hours, tax_rate: "19" }),
      line({ ...training, tax_category: "E" }),
    ],
    exemptionReason: EXEMPTION,
  },
  "zero-rated": {
    ...base,
    lines: [line({ ...design, tax_rate: "0", tax_category: "Z" })],
  },
  exempt: {
    ...base,
    lines: [line({ ...design, tax_category: "E" })],
    exemptionReason: EXEMPTION,
  },
  "reverse charge": { ...base, lines: [line({ ...design, tax_category: "AE" })] },
  "intra-community supply": {
    ...base,
    lines: [line({ ...design, tax_category: "K" }), line({ ...hosting, tax_category: "K" })],
  },
  "export outside the EU": {
    ...base,
    buyer: {
      ...base.buyer,
      country: "US",
      taxId: null,
      peppolId: "0060:123456789",
      address: "1 Market St\nSan Francisco",
    },
    lines: [line({ ...design, tax_category: "G" })],
  },
  "outside the scope of tax": {
    ...base,
    // Out of scope: no VAT identifier on either side (BR-O-02); the seller is known by its
    // Peppol identifier instead (BR-CO-26).
    seller: { ...base.seller, taxId: null, peppolId: "0088:4000001000005" },
    buyer: { ...base.buyer, taxId: null, peppolId: "0009:12345678200077" },
    lines: [line({ ...design, tax_category: "O" })],
  },
  "without the vendor's address": {
    ...base,
    buyer: { ...base.buyer, address: null },
    lines: [line({ ...design, tax_rate: "19" })],
  },
  "partly paid": {
    ...base,
    lines: [line({ ...design, tax_rate: "19" })],
    paidAmount: usdcToBaseUnits("100.00"),
  },
  // Priced in a currency (issue 45): the document is in that currency, paid in USDC at the rate.
  "priced in EUR": {
    ...base,
    currency: "EUR",
    lines: [
      line({ ...design, tax_rate: "19" }),
      line({ ...hosting, tax_rate: "7" }),
      line({ ...training, tax_category: "E" }),
    ],
    exemptionReason: EXEMPTION,
  },
  "priced in GBP, reverse charge": {
    ...base,
    currency: "GBP",
    lines: [line({ ...design, tax_category: "AE" })],
  },
  "credit note, partial": {
    ...base,
    type: "credit_note",
    number: "CN-0001",
    dueDate: null,
    note: "Two hours were billed twice.",
    precedingInvoice: { number: "INV-0042", issueDate: "2026-11-20" },
    lines: [line({ description: "Design work", quantity: 1, unit_price: "75.00", tax_rate: "19" })],
    payment: null,
  },
  "credit note, full": {
    ...base,
    type: "credit_note",
    number: "CN-0002",
    dueDate: null,
    note: "Invoice INV-0042 cancelled.",
    precedingInvoice: { number: "INV-0042", issueDate: "2026-11-20" },
    lines: [
      line({ ...design, tax_rate: "19" }),
      line({ ...hosting, tax_rate: "7" }),
      line({ ...hours, tax_rate: "19" }),
    ],
    payment: null,
  },
  "credit note of an invoice priced in EUR": {
    ...base,
    currency: "EUR",
    type: "credit_note",
    number: "CN-0003",
    dueDate: null,
    note: "Hosting refunded.",
    precedingInvoice: { number: "INV-0042", issueDate: "2026-11-20" },
    lines: [line({ ...hosting, tax_rate: "7" })],
    payment: null,
  },
};
