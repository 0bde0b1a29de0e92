/**
 * Factur-X (profile EN 16931) made of an invoice's PDF: the embedded XML, read back out of the
 * PDF's bytes by pdf.js (unpdf), passes the official CEN rules for CII, and the file declares
 * PDF/A-3b as PDF/A and Factur-X require it. No database, no chain: rendering and the update are
 * pure. Run alone: npx vitest run --config test/einvoice/vitest.config.ts
 */
import { writeFileSync } from "node:fs";
import { getDocumentProxy } from "unpdf";
import { beforeAll, describe, expect, test } from "vitest";
import { invoiceTaxView } from "../../domain/invoiceTaxView.ts";
import { usdcPaymentUri } from "../../domain/paymentUri.ts";
import { toCii } from "../../einvoice/cii.ts";
import { amount, type EInvoiceDocument, figuresOf } from "../../einvoice/document.ts";
import { FACTUR_X_FILE_NAME, toFacturX } from "../../pdf/facturX.ts";
import { type InvoicePdfData, renderInvoicePdf } from "../../pdf/invoiceDocument.ts";
import { objectValue, objectValues, readPdf, resolve } from "../../pdf/pdfFile.ts";
import { dictionaryEntries, referenceNumber } from "../../pdf/pdfSyntax.ts";
import { DOCUMENTS } from "./documents.ts";
import { validateEn16931 } from "./validate.ts";

/** The PDF the service would have stored for the document's invoice. */
function pdfDataOf(document: EInvoiceDocument, merchantName: string): InvoicePdfData {
  const total = figuresOf(document).total;
  const deposit = (document.payment?.depositAddress ?? "0x") as `0x${string}`;
  const lines = document.lines.map((line) => ({
    description: line.description,
    quantity: line.quantity,
    unitPrice: line.unitPrice,
    lineTotal: line.netAmount,
    tax: line.tax,
  }));
  return {
    invoiceNumber: document.number,
    issueDate: document.issueDate,
    dueDate: document.dueDate ?? document.issueDate,
    createdAt: new Date(`${document.issueDate}T09:30:00.000Z`),
    merchant: { name: merchantName, address: document.seller.address ?? "", email: "b@x.example" },
    vendor: { name: document.buyer.name, email: document.buyer.email, address: null },
    lineItems: lines,
    totalAmount: total,
    tax: invoiceTaxView(
      {
        merchant_tax_id: document.seller.taxId,
        vendor_tax_id: document.buyer.taxId,
        merchant_country: document.seller.country,
        vendor_country: document.buyer.country,
        tax_exemption_reason: document.exemptionReason,
      },
      lines,
    ),
    notes: document.note,
    depositAddress: deposit,
    paymentUri: usdcPaymentUri(deposit, total),
    invoiceUrl: "http://localhost:3000/i/abc",
  };
}

const findings = (result: { fatal: { id: string; text: string }[] }) =>
  result.fatal.map((finding) => `${finding.id}: ${finding.text}`);

describe("Factur-X: the invoice's PDF, PDF/A-3b, with its CII embedded", () => {
  const document = DOCUMENTS["mixed rates"] as EInvoiceDocument;
  // An ampersand and umlauts: the XMP must escape what the information dictionary holds.
  const merchantName = "Müller & Söhne GmbH";
  let stored: Buffer;
  let facturX: Buffer;
  beforeAll(async () => {
    stored = await renderInvoicePdf(pdfDataOf(document, merchantName));
    facturX = toFacturX(stored, toCii(document));
    // To look at it: FACTURX_OUT=/tmp/facturx.pdf, then pdftoppm -png /tmp/facturx.pdf page.
    if (process.env.FACTURX_OUT) writeFileSync(process.env.FACTURX_OUT, facturX);
  });

  test("the stored PDF's bytes come first, unchanged: the rest is an incremental update", () => {
    expect(facturX.subarray(0, stored.byteLength).equals(stored)).toBe(true);
    expect(facturX.byteLength).toBeGreaterThan(stored.byteLength);
    // Pure: the same PDF and XML give the same file.
    expect(toFacturX(stored, toCii(document)).equals(facturX)).toBe(true);
  });

  test("the embedded factur-x.xml, read back by pdf.js, passes the CEN EN 16931 rules for CII", async () => {
    const pdf = await getDocumentProxy(new Uint8Array(facturX));
    // pdf.js lists the document's embedded files by name and reads one's bytes by its name.
    const attachments = (await pdf.getAttachments()) as Map<string, { filename: string }>;
    expect([...attachments.values()].map((a) => a.filename)).toEqual([FACTUR_X_FILE_NAME]);
    const content = (await pdf.getAttachmentContent(FACTUR_X_FILE_NAME)) as Uint8Array;
    const xml = Buffer.from(content).toString("utf8");
    expect(xml).toBe(toCii(document));
    expect(xml).toContain("<ram:ID>urn:cen.eu:en16931:2017</ram:ID>");
    const result = await validateEn16931(xml, "cii");
    expect(result.firedRules).toBeGreaterThan(20);
    expect(findings(result)).toEqual([]);
    expect(xml).toContain(`<ram:GrandTotalAmount>${amount(figuresOf(document).total)}<`);
    // The same pages as the stored PDF.
    expect(pdf.numPages).toBe((await getDocumentProxy(new Uint8Array(stored))).numPages);
  });

  test("XMP: PDF/A-3 conformance B, the Factur-X properties and their extension schema", async () => {
    const pdf = await getDocumentProxy(new Uint8Array(facturX));
    const { info, metadata } = (await pdf.getMetadata()) as unknown as {
      info: Record<string, unknown>;
      metadata: { get(name: string): unknown; getRaw(): string } | null;
    };
    expect(metadata?.get("pdfaid:part")).toBe("3");
    expect(metadata?.get("pdfaid:conformance")).toBe("B");
    expect(metadata?.get("fx:documenttype")).toBe("INVOICE");
    expect(metadata?.get("fx:documentfilename")).toBe("factur-x.xml");
    expect(metadata?.get("fx:version")).toBe("1.0");
    expect(metadata?.get("fx:conformancelevel")).toBe("EN 16931");
    const raw = metadata?.getRaw() ?? "";
    expect(raw).toContain(
      "<pdfaSchema:namespaceURI>urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#</pdfaSchema:namespaceURI>",
    );
    for (const name of ["DocumentFileName", "DocumentType", "Version", "ConformanceLevel"])
      expect(raw).toContain(`<pdfaProperty:name>${name}</pdfaProperty:name>`);
    // The information dictionary's entries, again in XMP (ISO 19005-3 §6.6.2.3.1).
    expect(info.Author).toBe(merchantName);
    expect(metadata?.get("dc:creator")).toEqual([merchantName]);
    expect(metadata?.get("dc:title")).toBe(info.Title);
    expect(metadata?.get("dc:description")).toBe(info.Subject);
    expect(raw).toContain("<xmp:CreateDate>2026-11-20T09:30:00Z</xmp:CreateDate>");
    expect(raw).toContain("<xmp:ModifyDate>2026-11-20T09:30:00Z</xmp:ModifyDate>");
    expect(raw).toContain("<pdf:Producer>Remit</pdf:Producer>");
  });

  test("catalog: /AF with AFRelationship /Data, factur-x.xml in /EmbeddedFiles, an sRGB output intent", () => {
    const file = readPdf(facturX);
    const catalog = dictionaryEntries(
      objectValue(file, referenceNumber(file.trailer.get("Root")) as number),
    );
    expect(catalog.get("Version")).toBe("/1.7");
    expect(file.trailer.get("ID")).toMatch(/^\[<[0-9a-f]{32}> <[0-9a-f]{32}>\]$/);

    const af = /^\[(\d+) 0 R\]$/.exec(catalog.get("AF") ?? "");
    const filespec = dictionaryEntries(objectValue(file, Number(af?.[1])));
    expect(filespec.get("Type")).toBe("/Filespec");
    expect(filespec.get("AFRelationship")).toBe("/Data");
    expect(filespec.get("F")).toBe("(factur-x.xml)");
    expect(filespec.get("UF")).toBe("(factur-x.xml)");
    const names = dictionaryEntries(resolve(file, catalog.get("Names")) ?? "");
    expect(names.get("EmbeddedFiles")).toContain(`(factur-x.xml) ${af?.[1]} 0 R`);
    const ef = dictionaryEntries(filespec.get("EF") ?? "");
    const stream = dictionaryEntries(objectValue(file, referenceNumber(ef.get("F")) as number));
    expect(stream.get("Type")).toBe("/EmbeddedFile");
    expect(stream.get("Subtype")).toBe("/text#2Fxml");
    expect(dictionaryEntries(stream.get("Params") ?? "").get("ModDate")).toBe(
      "(D:20261120093000Z)",
    );

    const intents = /^\[(\d+) 0 R\]$/.exec(catalog.get("OutputIntents") ?? "");
    const intent = dictionaryEntries(objectValue(file, Number(intents?.[1])));
    expect(intent.get("S")).toBe("/GTS_PDFA1");
    const profile = objectValue(file, referenceNumber(intent.get("DestOutputProfile")) as number);
    expect(dictionaryEntries(profile).get("N")).toBe("3");
    const metadata = dictionaryEntries(
      objectValue(file, referenceNumber(catalog.get("Metadata")) as number),
    );
    expect(metadata.get("Subtype")).toBe("/XML");
    // PDF/A: no filter on the XMP, so that it can be read without a PDF parser.
    expect(metadata.has("Filter")).toBe(false);
  });

  test("every font is embedded: the stored PDF's Courier became an embedded Courier Prime", () => {
    const storedFonts = [...objectValues(readPdf(stored))]
      .map(([, value]) => value)
      .filter((value) => value.includes("/Type /Font") && value.includes("/Subtype /Type1"));
    // The stored PDF names a standard font: what PDF/A forbids, and what the update replaces.
    expect(storedFonts.length).toBeGreaterThan(0);
    const file = readPdf(facturX);
    const fonts = [...objectValues(file)]
      .map(([, value]) => value)
      .filter((value) => value.startsWith("<<"))
      .map(dictionaryEntries)
      .filter((entries) => entries.get("Type") === "/Font");
    expect(fonts.length).toBeGreaterThan(0);
    for (const font of fonts) {
      if (font.get("Subtype") === "/Type0") continue; // its descendant carries the descriptor
      const descriptor = dictionaryEntries(resolve(file, font.get("FontDescriptor")) ?? "<< >>");
      expect(
        ["FontFile", "FontFile2", "FontFile3"].some((key) => descriptor.has(key)),
        `${font.get("BaseFont")} is embedded`,
      ).toBe(true);
    }
    const courier = fonts.filter((font) => font.get("BaseFont")?.startsWith("/CourierPrime"));
    expect(courier.length).toBe(storedFonts.length);
    for (const font of courier) {
      // Courier's metrics: every glyph 600/1000 em, so the stored layout holds.
      expect(new Set(font.get("Widths")?.slice(1, -1).split(" "))).toEqual(new Set(["600"]));
      expect(font.get("Encoding")).toBe("/WinAnsiEncoding");
      const descriptor = dictionaryEntries(resolve(file, font.get("FontDescriptor")) ?? "");
      const program = objectValue(file, referenceNumber(descriptor.get("FontFile2")) as number);
      expect(dictionaryEntries(program).get("Filter")).toBe("/FlateDecode");
    }
  });

  test("a PDF that is not pdfkit's classic layout is refused, never half-converted", () => {
    expect(() => toFacturX(Buffer.from("%PDF-1.7\nnot really\n"), "<x/>")).toThrow(SyntaxError);
  });
});
