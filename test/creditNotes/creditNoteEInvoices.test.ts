import SaxonJS from "saxon-js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { usdcToBaseUnits } from "../../domain/money.ts";
import { answer } from "../accounts/accounts.ts";
import { validateEn16931, validatePeppol } from "../einvoice/validate.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invoiceRequest, TAXED_PARTIES } from "../invoices/fixtures.ts";

type Json = Record<string, unknown>;

/**
 * A credit note as an EN 16931 e-invoice (`GET /api/credit-notes/{id}/einvoice`): its UBL is a
 * `CreditNote` passing the CEN and Peppol BIS 3.0 rules, its CII (type 381) the CEN rules, each
 * naming the invoice it corrects and carrying the credit note's own amounts, per line, per tax
 * category and in total, as the API answered them. Partial and full, with and without the
 * vendor's address.
 */
describe("e-invoices of credit notes", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const UBL = {
    cac: "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2",
    cbc: "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2",
  };
  const CII = {
    rsm: "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100",
    ram: "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100",
  };
  const select = (xml: string, expression: string, namespaces: Record<string, string>) =>
    SaxonJS.XPath.evaluate(`array { parse-xml($xml)/(${expression})!string() }`, null, {
      params: { xml },
      namespaceContext: namespaces,
    }) as string[];
  const findings = (result: { fatal: { id: string; text: string }[] }) =>
    result.fatal.map((finding) => `${finding.id}: ${finding.text}`);

  const taxedInvoice = (overrides: Json = {}) =>
    invoiceRequest({
      ...TAXED_PARTIES,
      tax_exemption_reason: "Exempt under Article 132(1)(i) of Directive 2006/112/EC",
      line_items: [
        { description: "Design work", quantity: 2, unit_price: "75.00", tax_rate: "19" },
        { description: "Hosting", quantity: 1, unit_price: "19.99", tax_rate: "7" },
        { description: "Training", quantity: 1, unit_price: "40.00", tax_category: "E" },
      ],
      ...overrides,
    });

  async function creditNoteOf(invoice: Json, body: Json) {
    const created = await answer(
      await stack.request(`/api/invoices/${invoice.invoice_id}/credit-notes`, {
        method: "POST",
        json: body,
      }),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body as Json & {
      credit_note_id: string;
      credit_note_number: string;
      subtotal_amount: string;
      tax_amount: string;
      total_amount: string;
      line_items: { line_total: string }[];
      tax_breakdown: { category: string; taxable_amount: string; tax_amount: string }[];
    };
  }

  /** Both syntaxes of the credit note pass their rules and carry the API's amounts. */
  async function checkBoth(note: Awaited<ReturnType<typeof creditNoteOf>>, invoiceNumber: string) {
    const breakdown = {
      category: note.tax_breakdown.map((row) => row.category),
      taxable: note.tax_breakdown.map((row) => row.taxable_amount),
      tax: note.tax_breakdown.map((row) => row.tax_amount),
    };
    const ublResponse = await stack.request(
      `/api/credit-notes/${note.credit_note_id}/einvoice?format=ubl`,
    );
    expect(ublResponse.status).toBe(200);
    expect(ublResponse.headers.get("content-disposition")).toBe(
      `attachment; filename="${note.credit_note_number}-ubl.xml"`,
    );
    const ubl = await ublResponse.text();
    expect(select(ubl, "local-name(/*)", {})).toEqual(["CreditNote"]);
    const en16931 = await validateEn16931(ubl, "ubl");
    expect(en16931.firedRules).toBeGreaterThan(20);
    expect(findings(en16931)).toEqual([]);
    expect(findings(await validatePeppol(ubl))).toEqual([]);
    expect(select(ubl, "/*/cbc:ID", UBL)).toEqual([note.credit_note_number]);
    expect(select(ubl, "/*/cbc:CreditNoteTypeCode", UBL)).toEqual(["381"]);
    expect(select(ubl, "/*/cac:BillingReference/cac:InvoiceDocumentReference/cbc:ID", UBL)).toEqual(
      [invoiceNumber],
    );
    expect(select(ubl, "//cac:CreditNoteLine/cbc:LineExtensionAmount", UBL)).toEqual(
      note.line_items.map((line) => line.line_total),
    );
    const total = (name: string) => select(ubl, `/*/cac:LegalMonetaryTotal/cbc:${name}`, UBL);
    expect(total("TaxExclusiveAmount")).toEqual([note.subtotal_amount]);
    expect(total("TaxInclusiveAmount")).toEqual([note.total_amount]);
    expect(select(ubl, "/*/cac:TaxTotal/cbc:TaxAmount", UBL)).toEqual([note.tax_amount]);
    const subtotals = "/*/cac:TaxTotal/cac:TaxSubtotal";
    expect({
      category: select(ubl, `${subtotals}/cac:TaxCategory/cbc:ID`, UBL),
      taxable: select(ubl, `${subtotals}/cbc:TaxableAmount`, UBL),
      tax: select(ubl, `${subtotals}/cbc:TaxAmount`, UBL),
    }).toEqual(breakdown);

    const cii = await (
      await stack.request(`/api/credit-notes/${note.credit_note_id}/einvoice?format=cii`)
    ).text();
    const ciiResult = await validateEn16931(cii, "cii");
    expect(ciiResult.firedRules).toBeGreaterThan(20);
    expect(findings(ciiResult)).toEqual([]);
    expect(select(cii, "//rsm:ExchangedDocument/ram:TypeCode", CII)).toEqual(["381"]);
    const summation =
      "//ram:ApplicableHeaderTradeSettlement/ram:SpecifiedTradeSettlementHeaderMonetarySummation";
    expect(select(cii, `${summation}/ram:TaxBasisTotalAmount`, CII)).toEqual([
      note.subtotal_amount,
    ]);
    expect(select(cii, `${summation}/ram:GrandTotalAmount`, CII)).toEqual([note.total_amount]);
  }

  test("a partial credit note of a taxed invoice, then the rest in full", async () => {
    const invoice = (
      await answer(await stack.request("/api/invoices", { method: "POST", json: taxedInvoice() }))
    ).body;
    const partial = await creditNoteOf(invoice, {
      lines: [{ description: "Design work", quantity: 1, unit_price: "75.00", tax_rate: "19" }],
      reason: "One day less",
    });
    expect(partial.total_amount).toBe("89.25");
    await checkBoth(partial, String(invoice.invoice_number));
    const rest = await creditNoteOf(invoice, { full: true, reason: "Cancelled" });
    await checkBoth(rest, String(invoice.invoice_number));
    // Everything credited is the invoice's total, to the cent.
    expect(usdcToBaseUnits(partial.total_amount) + usdcToBaseUnits(rest.total_amount)).toBe(
      usdcToBaseUnits(String(invoice.total_amount)),
    );
  });

  test("a full credit note of an invoice without the vendor's address, reverse charge", async () => {
    const invoice = (
      await answer(
        await stack.request("/api/invoices", {
          method: "POST",
          json: taxedInvoice({
            vendor_address: undefined,
            tax_exemption_reason: undefined,
            line_items: [
              { description: "Consulting", quantity: 3, unit_price: "120.00", tax_category: "AE" },
            ],
          }),
        }),
      )
    ).body;
    const note = await creditNoteOf(invoice, { full: true, reason: "Cancelled" });
    await checkBoth(note, String(invoice.invoice_number));
  });

  test("a credit note of an invoice without tax fields is a 409 naming what to add", async () => {
    const invoice = (
      await answer(await stack.request("/api/invoices", { method: "POST", json: invoiceRequest() }))
    ).body;
    const note = await creditNoteOf(invoice, { full: true, reason: "Cancelled" });
    const response = await answer(
      await stack.request(`/api/credit-notes/${note.credit_note_id}/einvoice?format=cii`),
    );
    expect(response.status).toBe(409);
    expect(response.body.error).toMatchObject({ code: "einvoice_fields_missing" });
  });
});
