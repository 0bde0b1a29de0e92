import type { Content, TDocumentDefinitions } from "pdfmake/interfaces";
import type { Currency } from "../domain/currencies.ts";
import type { InvoiceTaxView } from "../domain/invoiceTaxView.ts";
import { formatAmountForDisplay, formatUsdcForDisplay } from "../domain/money.ts";
import { TAX_CATEGORY_NAMES } from "../domain/tax.ts";
import { creditNoteReason } from "./creditNoteReason.ts";
import { ACCENT, INK, label, MUTED, RULE } from "./documentStyle.ts";
import { ascentOf } from "./fontFaces.ts";
import { type FontRun, fontRuns } from "./fonts.ts";
import { currencyPaymentBox, usdcPaymentBox } from "./paymentBox.ts";
import { renderPdf } from "./renderPdf.ts";

export type InvoicePdfData = {
  invoiceNumber: string;
  issueDate: string;
  dueDate: string;
  /** Fixes the PDF's creation and modification dates, so the bytes are reproducible. */
  createdAt: Date;
  merchant: { name: string; address: string; email: string };
  vendor: { name: string; email: string; address: string | null };
  lineItems: {
    description: string;
    quantity: string;
    unitPrice: bigint;
    lineTotal: bigint;
    tax?: { category: string; rate: { text: string } | null } | null;
  }[];
  totalAmount: bigint;
  /** The tax breakdown and the parties' VAT identifiers; absent for an invoice without tax. */
  tax?: InvoiceTaxView | null;
  notes: string | null;
  /**
   * What the amounts are in; absent: USDC. An invoice priced in a currency is paid in USDC at
   * the rate at payment, so its document asks for no USDC amount (pdf/paymentBox.ts).
   */
  currency?: Currency;
  depositAddress: string;
  /** An invoice priced in USDC: the EIP-681 URI of its QR code, for exactly its total. */
  paymentUri: string;
  invoiceUrl: string;
  /**
   * Present for a credit note (app/creditNotes): the same document titled CREDIT NOTE, naming
   * the invoice it credits and why, with no payment instructions (nothing is to be paid).
   */
  creditNote?: { creditsInvoice: string; reason: string } | null;
};

/**
 * The invoice as a pdfmake document: pure data from the stored record, no I/O. Rendered once
 * at creation (renderInvoicePdf) and kept.
 */
/** The body text's size in points (pdfmake's defaultStyle). */
const BODY_FONT_SIZE = 10;

/**
 * How far below a Roboto line the first line of `runs` sits, in points: the tallest ascent of
 * its fonts above Roboto's, at `fontSize`.
 */
export function baselineDrop(runs: FontRun[], fontSize: number): number {
  const firstLine: FontRun[] = [];
  for (const run of runs) {
    firstLine.push(run);
    if (/[\r\n]/.test(run.text)) break;
  }
  const tallest = Math.max(...firstLine.map((run) => ascentOf(run.font)));
  const drop = (tallest - ascentOf("Roboto")) * fontSize;
  return drop > 0.05 ? Math.round(drop * 100) / 100 : 0;
}

export function invoiceDocument(
  invoice: InvoicePdfData,
  options: { scriptFonts: boolean } = { scriptFonts: true },
): TDocumentDefinitions {
  /** User-supplied text, in fonts that have its glyphs (or all Roboto, the fallback). */
  const runs = (value: string) => (options.scriptFonts ? fontRuns(value) : value);
  const text = (value: string, style: Record<string, unknown> = {}): Content => ({
    text: runs(value),
    ...style,
  });

  const currency = invoice.currency ?? "USDC";
  const total = formatAmountForDisplay(invoice.totalAmount, currency);
  // A USDC invoice's columns carry no unit (its total says USDC): its bytes stay as they were.
  const inCurrency = (name: string) => (currency === "USDC" ? name : `${name} (${currency})`);
  const creditNote = invoice.creditNote ?? null;
  const documentName = creditNote ? "Credit note" : "Invoice";
  const tax = invoice.tax ?? null;
  const right = (value: string, drop: number): Content => ({
    text: value,
    alignment: "right",
    margin: [0, drop, 0, 0],
  });
  const itemRows: Content[][] = invoice.lineItems.map((item, index) => {
    const description = runs(item.description);
    // The row's other cells sit on the description's first baseline, which a taller script font
    // lowers (pdfkit places a line by its tallest font).
    const drop = typeof description === "string" ? 0 : baselineDrop(description, BODY_FONT_SIZE);
    return [
      { text: String(index + 1), color: MUTED, margin: [0, drop, 0, 0] },
      { text: description },
      right(item.quantity, drop),
      right(formatUsdcForDisplay(item.unitPrice), drop),
      ...(tax ? [right(lineTaxLabel(item.tax), drop)] : []),
      right(formatUsdcForDisplay(item.lineTotal), drop),
    ];
  });

  const content: Content[] = [
    {
      columns: [
        {
          width: "*",
          stack: [
            text(invoice.merchant.name, { style: "merchantName" }),
            text(invoice.merchant.address, { color: MUTED, margin: [0, 4, 0, 0] }),
            text(invoice.merchant.email, { color: MUTED }),
            ...(tax?.merchantTaxId ? [text(`VAT ID ${tax.merchantTaxId}`, { color: MUTED })] : []),
          ],
        },
        {
          width: 200,
          stack: [
            { text: documentName.toUpperCase(), style: "title", alignment: "right" },
            {
              alignment: "right",
              margin: [0, 6, 0, 0],
              table: {
                widths: ["*", "auto"],
                body: [
                  [
                    { text: "Number", color: MUTED },
                    { text: invoice.invoiceNumber, bold: true },
                  ],
                  [{ text: "Issued", color: MUTED }, invoice.issueDate],
                  creditNote
                    ? [
                        { text: "Credits", color: MUTED },
                        { text: creditNote.creditsInvoice, bold: true },
                      ]
                    : [
                        { text: "Due", color: MUTED },
                        { text: invoice.dueDate, bold: true },
                      ],
                ],
              },
              layout: "noBorders",
            },
          ],
        },
      ],
    },
    {
      margin: [0, 28, 0, 0],
      columns: [
        {
          width: "*",
          stack: [
            label("Bill to"),
            text(invoice.vendor.name, { bold: true, margin: [0, 4, 0, 0] }),
            ...(invoice.vendor.address ? [text(invoice.vendor.address, { color: MUTED })] : []),
            text(invoice.vendor.email, { color: MUTED }),
            ...(tax?.vendorTaxId ? [text(`VAT ID ${tax.vendorTaxId}`, { color: MUTED })] : []),
          ],
        },
        {
          width: 200,
          stack: [
            label(creditNote ? "Amount credited" : "Amount due"),
            { text: total, style: "amountDue", margin: [0, 4, 0, 0] },
            creditNote
              ? { text: `off invoice ${creditNote.creditsInvoice}`, color: MUTED }
              : { text: `by ${invoice.dueDate}`, color: MUTED },
          ],
          alignment: "right",
        },
      ],
    },
    {
      margin: [0, 24, 0, 0],
      table: {
        headerRows: 1,
        widths: tax ? [18, "*", 40, 80, 44, 80] : [18, "*", 50, 90, 90],
        body: [
          [
            { text: "#", style: "tableHeader" },
            { text: "Description", style: "tableHeader" },
            { text: "Qty", style: "tableHeader", alignment: "right" },
            { text: inCurrency("Unit price"), style: "tableHeader", alignment: "right" },
            ...(tax ? [{ text: "Tax", style: "tableHeader", alignment: "right" } as Content] : []),
            {
              text: inCurrency(tax ? "Net" : "Amount"),
              style: "tableHeader",
              alignment: "right",
            },
          ],
          ...itemRows,
        ],
      },
      layout: {
        hLineWidth: (i: number, node: { table: { body: unknown[] } }) =>
          i === 0 || i === node.table.body.length ? 0 : i === 1 ? 1 : 0.5,
        vLineWidth: () => 0,
        hLineColor: (i: number) => (i === 1 ? INK : RULE),
        paddingTop: () => 6,
        paddingBottom: () => 6,
      },
    },
    {
      margin: [0, 8, 0, 0],
      columns: [
        { width: "*", text: "" },
        {
          width: 230,
          table: {
            widths: ["*", "auto"],
            body: [
              ...(tax ? taxRows(tax) : []),
              [
                {
                  text: `${creditNote ? "Total credited" : "Total"} (${currency})`,
                  bold: true,
                  margin: [0, 4, 0, 4],
                },
                {
                  text: formatUsdcForDisplay(invoice.totalAmount),
                  bold: true,
                  alignment: "right",
                  margin: [0, 4, 0, 4],
                },
              ],
            ],
          },
          layout: {
            // The rule sits above the total: below the tax rows when there are some.
            hLineWidth: (i: number) => (i === (tax ? taxRows(tax).length : 0) ? 1 : 0),
            vLineWidth: () => 0,
            hLineColor: () => INK,
          },
        },
      ],
    },
    ...(tax ? exemptionNotes(tax, text) : []),
    creditNote
      ? creditNoteReason(creditNote, text)
      : currency === "USDC"
        ? usdcPaymentBox(invoice, total)
        : currencyPaymentBox(invoice, currency),
  ];

  if (invoice.notes) {
    content.push({
      stack: [label("Notes"), text(invoice.notes, { margin: [0, 4, 0, 0] })],
      margin: [0, 24, 0, 0],
    });
  }

  return {
    pageSize: "A4",
    pageMargins: [48, 48, 48, 56],
    info: {
      title: `${documentName} ${invoice.invoiceNumber}`,
      author: invoice.merchant.name,
      subject: `${documentName} ${invoice.invoiceNumber} for ${invoice.vendor.name}`,
      creator: "Remit",
      producer: "Remit",
      creationDate: invoice.createdAt,
      modDate: invoice.createdAt,
    },
    content,
    footer: (currentPage: number, pageCount: number) => ({
      columns: [
        { text: runs(`${invoice.invoiceNumber} · ${invoice.merchant.name}`) },
        { text: `Page ${currentPage} of ${pageCount}`, alignment: "right" },
      ],
      margin: [48, 20, 48, 0],
      fontSize: 8,
      color: MUTED,
    }),
    defaultStyle: { font: "Roboto", fontSize: BODY_FONT_SIZE, color: INK, lineHeight: 1.2 },
    styles: {
      merchantName: { fontSize: 18, bold: true },
      title: { fontSize: 24, bold: true, color: ACCENT, characterSpacing: 2 },
      label: { fontSize: 8, bold: true, color: MUTED, characterSpacing: 1 },
      amountDue: { fontSize: 16, bold: true },
      tableHeader: { bold: true, fontSize: 9, color: MUTED },
      payTitle: { fontSize: 12, bold: true },
      warning: { fontSize: 8.5, color: "#b44d12" },
    },
  };
}

/** A line's tax as its column shows it: "19 %", or the category where no rate applies. */
function lineTaxLabel(tax: { category: string; rate: { text: string } | null } | null | undefined) {
  if (!tax) return "";
  return tax.category === "S" ? `${tax.rate?.text ?? ""} %` : tax.category;
}

/** The subtotal and one row per category and rate of the breakdown, above the total. */
function taxRows(tax: InvoiceTaxView): Content[][] {
  const row = (name: string, amount: bigint): Content[] => [
    { text: name, color: MUTED, margin: [0, 2, 0, 2] },
    { text: formatUsdcForDisplay(amount), alignment: "right", margin: [0, 2, 0, 2] },
  ];
  return [
    row("Subtotal", tax.subtotal),
    ...tax.breakdown.map((line) =>
      row(
        line.category === "S" || line.category === "Z"
          ? `VAT ${line.rate ?? "0"} % on ${formatUsdcForDisplay(line.taxableAmount)}`
          : `${TAX_CATEGORY_NAMES[line.category]} on ${formatUsdcForDisplay(line.taxableAmount)}`,
        line.taxAmount,
      ),
    ),
  ];
}

/** Why no tax is charged on the categories that say so (reverse charge, exemption, …). */
function exemptionNotes(
  tax: InvoiceTaxView,
  text: (value: string, style?: Record<string, unknown>) => Content,
): Content[] {
  const notes = tax.breakdown.flatMap((line) => (line.exemption ? [line.exemption.text] : []));
  if (notes.length === 0) return [];
  return [
    {
      stack: [label("Tax"), ...notes.map((note) => text(note, { margin: [0, 4, 0, 0] }))],
      margin: [0, 16, 0, 0],
    },
  ];
}

/**
 * Renders an invoice. Should a font fail on some character, the invoice is rendered again with
 * Roboto alone (missing glyphs show as boxes) rather than the creation failing.
 */
export async function renderInvoicePdf(invoice: InvoicePdfData): Promise<Buffer> {
  try {
    return await renderPdf(invoiceDocument(invoice));
  } catch {
    return renderPdf(invoiceDocument(invoice, { scriptFonts: false }));
  }
}
