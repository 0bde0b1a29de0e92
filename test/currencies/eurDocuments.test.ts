import { extractText, getDocumentProxy } from "unpdf";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { answer } from "../accounts/accounts.ts";
import { validateEn16931, validatePeppol } from "../einvoice/validate.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { TAXED_PARTIES } from "../invoices/fixtures.ts";
import { createEurInvoice } from "./eurInvoices.ts";

/**
 * The documents of an invoice priced in EUR, from its stored row on the running service: its
 * e-invoices (UBL and CII) are in EUR and pass the official rules, and a credit note of it,
 * rendered from the row at its creation, credits in EUR. The invoice's own PDF was rendered at
 * creation, before the test priced it in EUR (the API takes no currency yet): the PDF in a
 * currency is proven by pdf/paymentBox.test.ts.
 */
describe("the documents of an invoice priced in EUR", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const findings = (result: { fatal: { id: string; text: string }[] }) =>
    result.fatal.map((finding) => `${finding.id}: ${finding.text}`);
  const taxed = {
    ...TAXED_PARTIES,
    line_items: [
      { description: "Design work", quantity: 2, unit_price: "75.00", tax_rate: "19" },
      { description: "Hosting", quantity: 1, unit_price: "19.99", tax_rate: "7" },
    ],
  };

  test("its e-invoices are in EUR and pass EN 16931 (and Peppol BIS); its credit note is in EUR", async () => {
    const invoice = await createEurInvoice(stack, taxed);
    const einvoice = async (path: string) => {
      const response = await stack.request(path);
      expect(response.status).toBe(200);
      return response.text();
    };

    const ubl = await einvoice(`/api/invoices/${invoice.invoice_id}/einvoice?format=ubl`);
    expect(ubl).toContain("<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>");
    expect(ubl).toContain('<cbc:PayableAmount currencyID="EUR">199.89</cbc:PayableAmount>');
    expect(ubl).not.toContain('currencyID="USD"');
    expect(ubl).toContain("Chainlink's EUR / USD and USDC / USD price feeds on Base");
    expect(findings(await validateEn16931(ubl, "ubl"))).toEqual([]);
    expect(findings(await validatePeppol(ubl))).toEqual([]);

    const cii = await einvoice(`/api/invoices/${invoice.invoice_id}/einvoice?format=cii`);
    expect(cii).toContain("<ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>");
    expect(cii).toContain("<ram:DuePayableAmount>199.89</ram:DuePayableAmount>");
    expect(findings(await validateEn16931(cii, "cii"))).toEqual([]);

    const created = await answer(
      await stack.request(`/api/invoices/${invoice.invoice_id}/credit-notes`, {
        method: "POST",
        json: {
          lines: [{ description: "Hosting", quantity: 1, unit_price: "19.99", tax_rate: "7" }],
          reason: "Hosting refunded",
        },
      }),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const note = created.body as { credit_note_id: string; total_amount: string };
    expect(note.total_amount).toBe("21.39");
    const pdf = await stack.request(`/api/credit-notes/${note.credit_note_id}/pdf`);
    expect(pdf.status).toBe(200);
    const document = await getDocumentProxy(new Uint8Array(await pdf.arrayBuffer()));
    const { text } = await extractText(document, { mergePages: true });
    expect(text).toContain("Total credited (EUR)");
    expect(text).toContain("21.39 EUR");
    expect(text).not.toContain("(USDC)");

    const noteUbl = await einvoice(`/api/credit-notes/${note.credit_note_id}/einvoice?format=ubl`);
    expect(noteUbl).toContain("<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>");
    expect(noteUbl).toContain('<cbc:PayableAmount currencyID="EUR">21.39</cbc:PayableAmount>');
    expect(findings(await validateEn16931(noteUbl, "ubl"))).toEqual([]);
  });
});
