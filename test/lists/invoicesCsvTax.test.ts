import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { answer, bearer, claimedMerchant, type Merchant } from "../accounts/accounts.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";

type Json = Record<string, unknown>;

/**
 * The columns of the invoices CSV before tax, written out rather than read from
 * INVOICES_CSV_HEADER: a reader of them must see nothing move, and the test must notice if it did.
 */
const COLUMNS_BEFORE_TAX = [
  "invoice_number",
  "invoice_id",
  "status",
  "issue_date",
  "due_date",
  "created_at_utc",
  "sent_at_utc",
  "vendor_name",
  "vendor_email",
  "line",
  "description",
  "quantity",
  "unit_price",
  "line_total",
  "invoice_total",
  "paid_amount",
  "amount_due",
  "refunded_amount",
  "currency",
  "deposit_address",
  "metadata",
];

const TAX_COLUMNS = [
  "tax_category",
  "tax_rate",
  "subtotal_amount",
  "tax_amount",
  "merchant_tax_id",
  "vendor_tax_id",
  "merchant_country",
  "vendor_country",
  "tax_exemption_reason",
  "credited_amount",
];

/** After the tax and credit columns: prices in a currency (docs/currencies.md). */
const CURRENCY_COLUMNS = ["paid_amount_usdc"];

/**
 * The invoices CSV's tax columns: added after the existing ones (whose order and values stay),
 * each line's category and rate, and its invoice's subtotal and tax — the figures of
 * `GET /api/invoices/{id}` — with the parties' tax fields. An invoice without tax: empty
 * category and rate, subtotal = total, tax 0.00.
 */
describe("the invoices CSV's tax columns", () => {
  let stack: TestStack;
  let acme: Merchant;
  beforeAll(async () => {
    stack = await startStack();
    acme = await claimedMerchant(stack.db);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const create = async (overrides: Json) => {
    const created = await answer(
      await stack.request("/api/invoices", {
        method: "POST",
        headers: bearer(acme.key),
        json: invoiceRequest({ merchant_email: acme.email, ...overrides }),
      }),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body as Json & { invoice_id: string };
  };

  test("a taxed invoice's lines carry its tax, an untaxed one's read subtotal = total, tax 0", async () => {
    const taxed = await create({
      merchant_tax_id: "DE123456789",
      vendor_tax_id: "FR12345678901",
      merchant_country: "DE",
      vendor_country: "FR",
      tax_exemption_reason: "Exempt under Article 132(1)(i) of Directive 2006/112/EC",
      line_items: [
        { description: "Design work", quantity: 2, unit_price: "75.00", tax_rate: "19" },
        { description: "Hosting", quantity: 1, unit_price: "19.99", tax_rate: "7" },
        { description: "Training", quantity: 1, unit_price: "40.00", tax_category: "E" },
      ],
    });
    const plain = await create({
      line_items: [{ description: "Consulting", quantity: 3, unit_price: "33.333333" }],
    });
    const detail = (
      await answer(
        await stack.request(`/api/invoices/${taxed.invoice_id}`, { headers: bearer(acme.key) }),
      )
    ).body;

    const csv = await stack.request("/api/exports/invoices.csv?bom=false", {
      headers: bearer(acme.key),
    });
    expect(csv.status).toBe(200);
    const text = await csv.text();
    const header = text.split("\r\n")[0]?.split(",");
    expect(header).toEqual([...COLUMNS_BEFORE_TAX, ...TAX_COLUMNS, ...CURRENCY_COLUMNS]);
    const records = parse(text, { columns: true }) as Record<string, string>[];

    const lines = records.filter((r) => r.invoice_id === taxed.invoice_id);
    expect(lines.map((r) => [r.description, r.line_total, r.tax_category, r.tax_rate])).toEqual([
      ["Design work", "150.00", "S", "19"],
      ["Hosting", "19.99", "S", "7"],
      ["Training", "40.00", "E", "0"],
    ]);
    // 150.00 × 19 % = 28.50, 19.99 × 7 % = 1.40: the API's own figures, on every line.
    expect(detail).toMatchObject({
      subtotal_amount: "209.99",
      tax_amount: "29.90",
      total_amount: "239.89",
    });
    for (const line of lines)
      expect(line).toMatchObject({
        invoice_total: detail.total_amount,
        subtotal_amount: detail.subtotal_amount,
        tax_amount: detail.tax_amount,
        merchant_tax_id: "DE123456789",
        vendor_tax_id: "FR12345678901",
        merchant_country: "DE",
        vendor_country: "FR",
        tax_exemption_reason: "Exempt under Article 132(1)(i) of Directive 2006/112/EC",
      });

    const [untaxed] = records.filter((r) => r.invoice_id === plain.invoice_id);
    expect(untaxed).toMatchObject({
      line_total: "99.999999",
      invoice_total: "99.999999",
      tax_category: "",
      tax_rate: "",
      subtotal_amount: "99.999999",
      tax_amount: "0.00",
      merchant_tax_id: "",
      vendor_tax_id: "",
      merchant_country: "",
      vendor_country: "",
      tax_exemption_reason: "",
    });
  });
});
