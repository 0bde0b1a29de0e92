import { extractText, getDocumentProxy } from "unpdf";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "./fixtures.ts";

type Json = Record<string, unknown>;

/**
 * Tax on invoice lines (issue 44) through the API: the amounts the API answers are the ones
 * the PDF prints, computed once (domain/tax.ts) — line net amounts and each category's tax to
 * the cent, total = subtotal + tax — and bad tax input is a field-level 400 that stores nothing.
 * An invoice without tax fields answers exactly the spec's body (no tax field at all).
 */
describe("tax on invoice lines", () => {
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
    return { status: response.status, body: (await response.json()) as Json };
  };
  const detail = async (id: unknown) =>
    (await (await stack.request(`/api/invoices/${id}`)).json()) as Json;
  const pdfText = async (id: unknown) => {
    const bytes = await (await stack.request(`/api/invoices/${id}/pdf`)).arrayBuffer();
    const document = await getDocumentProxy(new Uint8Array(bytes));
    return (await extractText(document, { mergePages: true })).text;
  };
  const invoiceCount = async () =>
    Number(
      (
        await stack.db
          .selectFrom("app.invoices")
          .select((eb) => eb.fn.countAll<string>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  test("mixed rates and an exempt line: the API's amounts are the PDF's, to the cent", async () => {
    const { status, body } = await create({
      merchant_tax_id: "DE 123.456.789",
      vendor_tax_id: "FR12345678901",
      merchant_country: "DE",
      vendor_country: "FR",
      tax_exemption_reason: "Exempt under Article 132(1)(i) of Directive 2006/112/EC",
      line_items: [
        { description: "Design work", quantity: 2, unit_price: "75.00", tax_rate: "19" },
        { description: "Hosting", quantity: 1, unit_price: "19.99", tax_rate: "7.0" },
        { description: "Support hours", quantity: 3.5, unit_price: "0.333333", tax_rate: "19" },
        { description: "Training", quantity: 1, unit_price: "40.00", tax_category: "E" },
      ],
    });
    expect(status, JSON.stringify(body)).toBe(201);
    // 150.00 + 19.99 + 1.17 (1.1666655 to the cent) + 40.00 = 211.16; 151.17 × 19 % = 28.72;
    // 19.99 × 7 % = 1.40; total 241.28.
    expect(body.total_amount).toBe("241.28");
    const invoice = await detail(body.invoice_id);
    expect(invoice).toMatchObject({
      total_amount: "241.28",
      amount_due: "241.28",
      subtotal_amount: "211.16",
      tax_amount: "30.12",
      merchant_tax_id: "DE123456789",
      vendor_tax_id: "FR12345678901",
      merchant_country: "DE",
      vendor_country: "FR",
      tax_breakdown: [
        {
          category: "S",
          rate: "19",
          taxable_amount: "151.17",
          tax_amount: "28.72",
          exemption_reason: null,
        },
        { category: "S", rate: "7", taxable_amount: "19.99", tax_amount: "1.40" },
        {
          category: "E",
          rate: "0",
          taxable_amount: "40.00",
          tax_amount: "0.00",
          exemption_reason: "Exempt under Article 132(1)(i) of Directive 2006/112/EC",
        },
      ],
    });
    expect((invoice.line_items as Json[]).map((line) => [line.line_total, line.tax_rate])).toEqual([
      ["150.00", "19"],
      ["19.99", "7"],
      ["1.17", "19"],
      ["40.00", "0"],
    ]);

    const text = await pdfText(body.invoice_id);
    for (const printed of [
      "VAT ID DE123456789",
      "VAT ID FR12345678901",
      "Subtotal",
      "211.16",
      "VAT 19 % on 151.17",
      "28.72",
      "VAT 7 % on 19.99",
      "1.40",
      "Exempt on 40.00",
      "241.28 USDC",
      "Exempt under Article 132(1)(i) of Directive 2006/112/EC",
    ])
      expect(text).toContain(printed);
  });

  test("reverse charge: no tax, the standard wording, and the payer owes the net", async () => {
    const { status, body } = await create({
      merchant_tax_id: "DE123456789",
      vendor_tax_id: "FR12345678901",
      line_items: [
        { description: "Consulting", quantity: 1, unit_price: "500.00", tax_category: "AE" },
      ],
    });
    expect(status, JSON.stringify(body)).toBe(201);
    const invoice = await detail(body.invoice_id);
    expect(invoice).toMatchObject({
      total_amount: "500.00",
      tax_amount: "0.00",
      tax_breakdown: [{ category: "AE", rate: "0", exemption_reason: "Reverse charge" }],
    });
    expect(await pdfText(body.invoice_id)).toContain("Reverse charge");
  });

  test("without tax fields: the spec's body, not one tax field", async () => {
    const { body } = await create({});
    const invoice = await detail(body.invoice_id);
    for (const field of [
      "subtotal_amount",
      "tax_amount",
      "tax_breakdown",
      "merchant_tax_id",
      "vendor_tax_id",
    ])
      expect(invoice).not.toHaveProperty(field);
    expect((invoice.line_items as Json[])[0]).toEqual({
      description: "Design work",
      quantity: 2,
      unit_price: "75.00",
      line_total: "150.00",
    });
    expect(invoice.total_amount).toBe("150.125");
  });

  test("bad tax input: a 400 on each field, and nothing stored", async () => {
    const before = await invoiceCount();
    const cases: [Json, string[]][] = [
      [
        { line_items: [{ description: "a", quantity: 1, unit_price: "1.00", tax_category: "X" }] },
        ["line_items[0].tax_category"],
      ],
      [
        { line_items: [{ description: "a", quantity: 1, unit_price: "1.00", tax_rate: "101" }] },
        ["line_items[0].tax_rate"],
      ],
      [
        {
          line_items: [
            { description: "a", quantity: 1, unit_price: "1.00", tax_rate: "19" },
            { description: "b", quantity: 1, unit_price: "1.00" },
          ],
        },
        ["line_items[1].tax_category"],
      ],
      [
        { line_items: [{ description: "a", quantity: 1, unit_price: "1.00", tax_category: "AE" }] },
        ["merchant_tax_id", "vendor_tax_id"],
      ],
      [
        { line_items: [{ description: "a", quantity: 1, unit_price: "1.00", tax_category: "E" }] },
        ["tax_exemption_reason"],
      ],
      [
        {
          line_items: [
            { description: "a", quantity: 1, unit_price: "1.00", tax_category: "S", tax_rate: "0" },
          ],
        },
        ["line_items[0].tax_rate"],
      ],
      [{ merchant_country: "XX", vendor_tax_id: "!" }, ["merchant_country", "vendor_tax_id"]],
    ];
    for (const [overrides, fields] of cases) {
      const { status, body } = await create(overrides);
      expect(status, JSON.stringify(body)).toBe(400);
      const error = body.error as { code: string; fields: { path: string }[] };
      expect(error.code).toBe("validation_failed");
      expect(error.fields.map((field) => field.path).sort(), JSON.stringify(body)).toEqual(
        [...fields].sort(),
      );
    }
    expect(await invoiceCount()).toBe(before);
  });
});
