import { getAddress } from "viem";
import { findLineItems, type InvoiceRow } from "../../db/queries/invoices.ts";
import { BASE_CHAIN_ID, USDC_ADDRESS } from "../../domain/constants.ts";
import { type StoredLine, storedLineTax } from "../../domain/invoiceTaxView.ts";
import { toCii } from "../../einvoice/cii.ts";
import {
  type EInvoiceDocument,
  figuresOf,
  type MissingField,
  missingForEn16931,
  missingForPeppol,
} from "../../einvoice/document.ts";
import { toUbl } from "../../einvoice/ubl.ts";
import { toFacturX } from "../../pdf/facturX.ts";
import type { Actor } from "../actor.ts";
import { authorizedInvoice } from "../authorize.ts";
import { type DocumentPdfDeps, storedDocumentPdf } from "../documentPdf.ts";
import { notFound, Refusal } from "../refusal.ts";

/** The e-invoice formats: Peppol BIS UBL, UN/CEFACT CII, and the PDF with the CII in it. */
export const EINVOICE_FORMATS = ["ubl", "cii", "facturx"] as const;
export type EInvoiceFormat = (typeof EINVOICE_FORMATS)[number];

/** An e-invoice file as downloaded. */
export type EInvoiceFile = { bytes: Uint8Array; contentType: string; fileName: string };

/**
 * The EN 16931 document a stored invoice is, or what it lacks to be one. Built from the record
 * alone, as its PDF is (app/invoices/invoicePdfData.ts): the same invoice always gives the same
 * document. Nothing received is stated (BT-113 stays 0): the document is the invoice as issued,
 * like its PDF, and the payments are matched to it in the books, not written into it.
 */
export function invoiceEInvoiceDocument(
  invoice: InvoiceRow,
  lines: readonly StoredLine[],
  /** For a credit note of the invoice: its own number, date, lines and total. */
  creditNote?: { number: string; issueDate: string; total: bigint },
): { document: EInvoiceDocument } | { missing: MissingField[] } {
  const seller = {
    name: invoice.merchant_name_snapshot,
    email: invoice.merchant_email,
    peppolId: null,
    address: invoice.merchant_address_snapshot,
    country: invoice.merchant_country,
    taxId: invoice.merchant_tax_id,
  };
  const buyer = {
    name: invoice.vendor_name,
    email: invoice.vendor_email,
    peppolId: null,
    address: invoice.vendor_address,
    country: invoice.vendor_country,
    taxId: invoice.vendor_tax_id,
  };
  const taxed = lines.map((line) => ({ line, tax: storedLineTax(line) }));
  const missing = missingForEn16931({
    seller,
    buyer,
    lines: taxed,
    exemptionReason: invoice.tax_exemption_reason,
  });
  if (missing.length > 0) return { missing };
  const document: EInvoiceDocument = {
    type: creditNote ? "credit_note" : "invoice",
    // Its amounts, and its credit notes', are in the currency it is priced in (the stored row's).
    currency: invoice.currency,
    number: creditNote?.number ?? invoice.invoice_number,
    issueDate: creditNote?.issueDate ?? invoice.issue_date,
    dueDate: creditNote ? null : invoice.due_date,
    buyerReference: invoice.invoice_number,
    note: creditNote ? null : invoice.notes,
    // A credit note names the invoice it corrects (BG-3).
    precedingInvoice: creditNote
      ? { number: invoice.invoice_number, issueDate: invoice.issue_date }
      : null,
    seller,
    buyer,
    lines: taxed.flatMap(({ line, tax }) =>
      tax
        ? [
            {
              description: line.description,
              quantity: line.quantity,
              unitPrice: line.unit_price,
              netAmount: line.line_total,
              tax,
            },
          ]
        : [],
    ),
    exemptionReason: invoice.tax_exemption_reason,
    paidAmount: 0n,
    // A credit note is paid by nobody: it lowers what the invoice asks for.
    payment: creditNote
      ? null
      : {
          depositAddress: getAddress(invoice.deposit_address),
          chainId: BASE_CHAIN_ID,
          token: USDC_ADDRESS,
        },
  };
  // The stored total was computed by the same rule (domain/tax.ts): a document that disagreed
  // with the amount the payer is asked for must not leave, whatever the cause.
  const total = figuresOf(document).total;
  const stored = creditNote?.total ?? invoice.total_amount;
  if (total !== stored)
    throw new Error(
      `${document.number} of invoice ${invoice.id}: the e-invoice's total ${total} is not the stored ${stored}`,
    );
  return { document };
}

/**
 * Peppol names a party by a Peppol identifier or a VAT identifier of a country Peppol has a
 * scheme for (einvoice/peppolEndpoint.ts). The API takes no Peppol identifier, so what the
 * merchant can add is the VAT identifier: the field named is that one.
 */
const PEPPOL_FIELDS: Record<string, string> = {
  merchant_peppol_id: "merchant_tax_id",
  vendor_peppol_id: "vendor_tax_id",
};
const PEPPOL_MESSAGE =
  "Peppol addresses each party by its VAT identifier, of a country Peppol has a VAT scheme for (DE, FR, BE, NL, IT, …); the CII and Factur-X formats need none";

function refuseMissing(missing: MissingField[]): Refusal {
  return new Refusal(
    "conflict",
    "einvoice_fields_missing",
    `the invoice lacks what an EN 16931 e-invoice requires: ${missing.map((m) => m.field).join(", ")} (invoices are append-only: issue a new invoice with these fields)`,
    missing.map(({ field, message }) => ({ path: field, message, code: "required" })),
  );
}

/**
 * The invoice `id` as an e-invoice, for whoever may see it (authorizedInvoice, as its PDF):
 * UBL (Peppol BIS Billing 3.0), CII, or Factur-X (the stored PDF with the CII embedded). An
 * invoice that lacks what the format requires is refused (409, the fields to add), never
 * written as an invalid document.
 */
export async function authorizedInvoiceEInvoice(
  deps: DocumentPdfDeps,
  actor: Actor,
  id: string,
  format: EInvoiceFormat,
): Promise<EInvoiceFile> {
  const invoice = await authorizedInvoice(deps.db, actor.identity, id);
  const built = invoiceEInvoiceDocument(invoice, await findLineItems(deps.db, invoice.id));
  return eInvoiceFile(
    built,
    format,
    async () => (await storedDocumentPdf(deps, "invoice", invoice.id))?.pdf,
  );
}

/**
 * A built document (or what it lacks) as the file of `format`: a 409 naming the fields to add,
 * else UBL, CII, or Factur-X from the stored PDF `storedPdf` reads. Invoices and credit notes alike.
 */
export async function eInvoiceFile(
  built: { document: EInvoiceDocument } | { missing: MissingField[] },
  format: EInvoiceFormat,
  storedPdf: () => Promise<Buffer | undefined>,
): Promise<EInvoiceFile> {
  const missing = missingForFormat(built, format);
  if (missing.length > 0 || "missing" in built) throw refuseMissing(missing);
  const { document } = built;
  const name = document.number.replace(/[^\w.-]/g, "_");
  if (format === "ubl") return file(toUbl(document), "application/xml", `${name}-ubl.xml`);
  if (format === "cii") return file(toCii(document), "application/xml", `${name}-cii.xml`);
  const pdf = await storedPdf();
  if (!pdf) throw notFound(document.type === "invoice" ? "invoice" : "credit note");
  return {
    bytes: toFacturX(pdf, toCii(document)),
    contentType: "application/pdf",
    fileName: `${name}-facturx.pdf`,
  };
}

/** What a built document lacks for `format` (UBL also needs Peppol's addressing); none: it can be written. */
function missingForFormat(
  built: { document: EInvoiceDocument } | { missing: MissingField[] },
  format: EInvoiceFormat,
): MissingField[] {
  if ("missing" in built) return built.missing;
  if (format !== "ubl") return [];
  return missingForPeppol(built.document).map((m) => {
    const field = PEPPOL_FIELDS[m.field];
    return field ? { field, message: PEPPOL_MESSAGE } : m;
  });
}

/**
 * What the invoice lacks for each e-invoice format, without writing one: the 409's fields of
 * each download, for a page that links to them (an empty list: the download answers). Its
 * credit notes carry its parties and its own tax categories, so they lack the same.
 *
 * @example eInvoiceMissingFields(invoice, lines).cii // [{ field: "vendor_country", message: "is required" }]
 */
export function eInvoiceMissingFields(
  invoice: InvoiceRow,
  lines: readonly StoredLine[],
): Record<EInvoiceFormat, MissingField[]> {
  const built = invoiceEInvoiceDocument(invoice, lines);
  return {
    ubl: missingForFormat(built, "ubl"),
    cii: missingForFormat(built, "cii"),
    facturx: missingForFormat(built, "facturx"),
  };
}

const file = (xml: string, contentType: string, fileName: string): EInvoiceFile => ({
  bytes: Buffer.from(xml, "utf8"),
  contentType,
  fileName,
});
