import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import SaxonJS from "saxon-js";
import { getDocumentProxy } from "unpdf";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { projectRoot } from "../../internal/projectRoot.ts";
import { claimedMerchant } from "../accounts/accounts.ts";
import { validateEn16931, validatePeppol } from "../einvoice/validate.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invoiceRequest, TAXED_PARTIES } from "./fixtures.ts";

type Json = Record<string, unknown>;

/**
 * `GET /api/invoices/{id}/einvoice?format=` on the running service: the UBL passes the CEN
 * EN 16931 and Peppol BIS rules, the CII the CEN rules, and both carry the API's amounts (each
 * line, each tax category, the totals); Factur-X is the stored PDF with that CII inside. An
 * invoice lacking what EN 16931 needs is a 409 naming the fields, a bad format a field-level
 * 400, another merchant's invoice a 404.
 */
describe("e-invoices of an invoice", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const create = async (overrides: Json) => {
    const response = await stack.request("/api/invoices", {
      method: "POST",
      json: invoiceRequest(overrides),
    });
    const body = (await response.json()) as Json;
    expect(response.status, JSON.stringify(body)).toBe(201);
    return body;
  };
  const einvoice = (id: unknown, format: string, headers: Record<string, string> = {}) =>
    stack.request(`/api/invoices/${id}/einvoice?format=${format}`, { headers });

  /** The texts an XPath expression selects in the XML, in document order. */
  const select = (xml: string, expression: string, namespaces: Record<string, string>) =>
    SaxonJS.XPath.evaluate(`array { parse-xml($xml)/(${expression})!string() }`, null, {
      params: { xml },
      namespaceContext: namespaces,
    }) as string[];
  const UBL = {
    cac: "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2",
    cbc: "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2",
  };
  const CII = {
    rsm: "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100",
    ram: "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100",
  };
  const findings = (result: { fatal: { id: string; text: string }[] }) =>
    result.fatal.map((finding) => `${finding.id}: ${finding.text}`);

  const taxed = {
    ...TAXED_PARTIES,
    tax_exemption_reason: "Exempt under Article 132(1)(i) of Directive 2006/112/EC",
    line_items: [
      { description: "Design work", quantity: 2, unit_price: "75.00", tax_rate: "19" },
      { description: "Hosting", quantity: 1, unit_price: "19.99", tax_rate: "7" },
      { description: "Support hours", quantity: 3.5, unit_price: "0.333333", tax_rate: "19" },
      { description: "Training", quantity: 1, unit_price: "40.00", tax_category: "E" },
    ],
  };

  test("UBL passes EN 16931 and Peppol BIS 3.0, CII passes EN 16931, both with the API's amounts", async () => {
    const created = await create(taxed);
    const invoice = (await (await stack.request(`/api/invoices/${created.invoice_id}`)).json()) as {
      invoice_number: string;
      total_amount: string;
      subtotal_amount: string;
      tax_amount: string;
      line_items: { line_total: string }[];
      tax_breakdown: { category: string; taxable_amount: string; tax_amount: string }[];
    };
    expect(invoice.total_amount).toBe("241.28");
    // The API's breakdown, column by column, as both syntaxes list it.
    const breakdown = {
      category: invoice.tax_breakdown.map((row) => row.category),
      taxable: invoice.tax_breakdown.map((row) => row.taxable_amount),
      tax: invoice.tax_breakdown.map((row) => row.tax_amount),
    };

    const ublResponse = await einvoice(created.invoice_id, "ubl");
    expect(ublResponse.status).toBe(200);
    expect(ublResponse.headers.get("content-type")).toMatch(/^application\/xml/);
    expect(ublResponse.headers.get("content-disposition")).toBe(
      `attachment; filename="${invoice.invoice_number}-ubl.xml"`,
    );
    const ubl = await ublResponse.text();
    const en16931 = await validateEn16931(ubl, "ubl");
    expect(en16931.firedRules).toBeGreaterThan(20);
    expect(findings(en16931)).toEqual([]);
    expect(findings(await validatePeppol(ubl))).toEqual([]);
    expect(select(ubl, "/*/cbc:ID", UBL)).toEqual([invoice.invoice_number]);
    expect(
      select(ubl, "//cac:InvoiceLine/cbc:LineExtensionAmount", UBL),
      "each line's net amount",
    ).toEqual(invoice.line_items.map((line) => line.line_total));
    const ublTotal = (name: string) => select(ubl, `/*/cac:LegalMonetaryTotal/cbc:${name}`, UBL);
    expect(ublTotal("TaxExclusiveAmount")).toEqual([invoice.subtotal_amount]);
    expect(ublTotal("TaxInclusiveAmount")).toEqual([invoice.total_amount]);
    expect(ublTotal("PayableAmount")).toEqual([invoice.total_amount]);
    expect(select(ubl, "/*/cac:TaxTotal/cbc:TaxAmount", UBL)).toEqual([invoice.tax_amount]);
    const subtotals = "/*/cac:TaxTotal/cac:TaxSubtotal";
    expect({
      category: select(ubl, `${subtotals}/cac:TaxCategory/cbc:ID`, UBL),
      taxable: select(ubl, `${subtotals}/cbc:TaxableAmount`, UBL),
      tax: select(ubl, `${subtotals}/cbc:TaxAmount`, UBL),
    }).toEqual(breakdown);

    const ciiResponse = await einvoice(created.invoice_id, "cii");
    expect(ciiResponse.status).toBe(200);
    expect(ciiResponse.headers.get("content-disposition")).toBe(
      `attachment; filename="${invoice.invoice_number}-cii.xml"`,
    );
    const cii = await ciiResponse.text();
    const ciiResult = await validateEn16931(cii, "cii");
    expect(ciiResult.firedRules).toBeGreaterThan(20);
    expect(findings(ciiResult)).toEqual([]);
    expect(select(cii, "//ram:IncludedSupplyChainTradeLineItem//ram:LineTotalAmount", CII)).toEqual(
      invoice.line_items.map((line) => line.line_total),
    );
    const settlement = "//ram:ApplicableHeaderTradeSettlement";
    const summation = `${settlement}/ram:SpecifiedTradeSettlementHeaderMonetarySummation`;
    expect(select(cii, `${summation}/ram:TaxBasisTotalAmount`, CII)).toEqual([
      invoice.subtotal_amount,
    ]);
    expect(select(cii, `${summation}/ram:TaxTotalAmount`, CII)).toEqual([invoice.tax_amount]);
    expect(select(cii, `${summation}/ram:GrandTotalAmount`, CII)).toEqual([invoice.total_amount]);
    expect(select(cii, `${summation}/ram:DuePayableAmount`, CII)).toEqual([invoice.total_amount]);
    expect({
      category: select(cii, `${settlement}/ram:ApplicableTradeTax/ram:CategoryCode`, CII),
      taxable: select(cii, `${settlement}/ram:ApplicableTradeTax/ram:BasisAmount`, CII),
      tax: select(cii, `${settlement}/ram:ApplicableTradeTax/ram:CalculatedAmount`, CII),
    }).toEqual(breakdown);

    // Factur-X: the stored PDF, byte for byte, then the update carrying that same CII.
    const facturXResponse = await einvoice(created.invoice_id, "facturx");
    expect(facturXResponse.status).toBe(200);
    expect(facturXResponse.headers.get("content-type")).toBe("application/pdf");
    expect(facturXResponse.headers.get("content-disposition")).toBe(
      `attachment; filename="${invoice.invoice_number}-facturx.pdf"`,
    );
    const facturX = Buffer.from(await facturXResponse.arrayBuffer());
    const stored = Buffer.from(
      await (await stack.request(`/api/invoices/${created.invoice_id}/pdf`)).arrayBuffer(),
    );
    expect(facturX.subarray(0, stored.byteLength).equals(stored)).toBe(true);
    const pdf = await getDocumentProxy(new Uint8Array(facturX));
    const embedded = (await pdf.getAttachmentContent("factur-x.xml")) as Uint8Array;
    expect(Buffer.from(embedded).toString("utf8")).toBe(cii);
    const { metadata } = (await pdf.getMetadata()) as unknown as {
      metadata: { get(name: string): unknown };
    };
    expect(metadata.get("pdfaid:part")).toBe("3");
    expect(metadata.get("fx:conformancelevel")).toBe("EN 16931");
    // Kept to be looked at: pdftoppm -png test-artifacts/einvoices/…-facturx.pdf page.
    const dir = path.join(projectRoot, "test-artifacts", "einvoices");
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, `${invoice.invoice_number}-facturx.pdf`), facturX);
    await writeFile(path.join(dir, `${invoice.invoice_number}-ubl.xml`), ubl);
  });

  test("an invoice without tax fields: 409 naming the fields to add, in every format", async () => {
    const created = await create({});
    for (const format of ["ubl", "cii", "facturx"]) {
      const response = await einvoice(created.invoice_id, format);
      expect(response.status).toBe(409);
      const { error } = (await response.json()) as {
        error: { code: string; fields: { path: string; code: string }[] };
      };
      expect(error.code).toBe("einvoice_fields_missing");
      expect(error.fields.map((field) => field.path)).toEqual([
        "merchant_country",
        "vendor_country",
        "line_items[0].tax_category",
        "line_items[1].tax_category",
      ]);
      expect(new Set(error.fields.map((field) => field.code))).toEqual(new Set(["required"]));
    }
  });

  test("taxed but without the parties' countries: 409 naming both", async () => {
    const { merchant_country: _m, vendor_country: _v, ...withoutCountries } = taxed;
    const created = await create(withoutCountries);
    const response = await einvoice(created.invoice_id, "cii");
    expect(response.status).toBe(409);
    const { error } = (await response.json()) as { error: { code: string; fields: Json[] } };
    expect(error.code).toBe("einvoice_fields_missing");
    expect(error.fields.map((field) => field.path)).toEqual(["merchant_country", "vendor_country"]);
  });

  test("a buyer Peppol cannot address (no VAT identifier): CII yes, UBL a 409 naming vendor_tax_id", async () => {
    const created = await create({
      ...taxed,
      vendor_tax_id: undefined,
      vendor_country: "US",
      vendor_address: "1 Market St\nSan Francisco",
      tax_exemption_reason: undefined,
      line_items: [
        { description: "Design work", quantity: 2, unit_price: "75.00", tax_category: "G" },
      ],
    });
    const cii = await einvoice(created.invoice_id, "cii");
    expect(cii.status).toBe(200);
    expect(findings(await validateEn16931(await cii.text(), "cii"))).toEqual([]);
    const ubl = await einvoice(created.invoice_id, "ubl");
    expect(ubl.status).toBe(409);
    const { error } = (await ubl.json()) as { error: { fields: Json[] } };
    expect(error.fields.map((field) => field.path)).toEqual(["vendor_tax_id"]);
  });

  test("a missing or unknown format is a field-level 400; another merchant's invoice a 404", async () => {
    const created = await create(taxed);
    for (const query of ["?format=pdf", "?format=", ""]) {
      const response = await stack.request(`/api/invoices/${created.invoice_id}/einvoice${query}`);
      expect(response.status, query).toBe(400);
      const { error } = (await response.json()) as {
        error: { code: string; fields: { path: string }[] };
      };
      expect(error.code).toBe("validation_failed");
      expect(error.fields.map((field) => field.path)).toEqual(["format"]);
    }
    const other = await claimedMerchant(stack.db);
    const response = await einvoice(created.invoice_id, "ubl", {
      authorization: `Bearer ${other.key}`,
    });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("not_found");
  });
});
