import { extractText, getDocumentProxy, getMeta } from "unpdf";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { invoicePdfData } from "../../app/invoices/invoicePdfData.ts";
import { findLineItems } from "../../db/queries/invoices.ts";
import { renderInvoicePdf } from "../../pdf/invoiceDocument.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "./fixtures.ts";

describe("the invoice PDF", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const createAndDownload = async (overrides: Record<string, unknown>) => {
    const created = (await (
      await stack.request("/api/invoices", { method: "POST", json: invoiceRequest(overrides) })
    ).json()) as Record<string, string>;
    const pdf = Buffer.from(
      await (await stack.request(`/api/invoices/${created.invoice_id}/pdf`)).arrayBuffer(),
    );
    return { created, pdf };
  };
  const textOf = async (pdf: Buffer) =>
    (await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: true })).text;

  test("shows the number, both parties, every line, the total and how to pay", async () => {
    const { created, pdf } = await createAndDownload({
      merchant_name: "Müller & Straße GmbH",
      merchant_address: "Hauptstraße 5, 10115 Berlin",
      vendor_name: "王小明 Trading Co.",
      vendor_address: "上海市浦东新区 88号",
      line_items: [
        { description: "Café menu design (é, ß)", quantity: 12.5, unit_price: "80.00" },
        { description: "翻译服务 (translation)", quantity: 3, unit_price: "33.333333" },
        { description: "Hosting", quantity: 1, unit_price: "0.125" },
      ],
      notes: "Payment terms: net 30.",
    });
    const text = await textOf(pdf);
    for (const expected of [
      created.invoice_number,
      "Müller & Straße GmbH",
      "Hauptstraße 5, 10115 Berlin",
      "王小明 Trading Co.",
      "上海市浦东新区 88号",
      "Café menu design (é, ß)",
      "12.5",
      "1,000.00",
      "翻译服务 (translation)",
      "33.333333",
      "99.999999",
      "Hosting",
      "0.125",
      "1,100.124999",
      created.deposit_address,
      "Base (chain 8453)",
      "USDC on Base only",
      created.invoice_url,
      "Payment terms: net 30.",
      "2026-11-01",
      "2099-12-31",
    ]) {
      expect(text).toContain(expected);
    }
  });

  test("is the stored record rendered: rendering the record again gives the downloaded bytes", async () => {
    const { created, pdf } = await createAndDownload({});
    const invoice = await stack.db
      .selectFrom("app.invoices")
      .selectAll()
      .where("id", "=", created.invoice_id ?? "")
      .executeTakeFirstOrThrow();
    const lines = (await findLineItems(stack.db, invoice.id)).map((line) => ({
      description: line.description,
      quantity: line.quantity,
      unitPrice: line.unit_price,
      lineTotal: line.line_total,
      tax: null,
    }));
    // Rendered twice from what is stored, not from the request: the same bytes each time, and
    // the bytes every download gets.
    const data = invoicePdfData(invoice, lines, created.invoice_url ?? "");
    const [first, second] = [await renderInvoicePdf(data), await renderInvoicePdf(data)];
    expect(first.equals(second)).toBe(true);
    expect(first.equals(pdf)).toBe(true);
    // Dated from the stored record (created_at), not from the moment of rendering.
    const { info } = await getMeta(new Uint8Array(pdf));
    expect(info.CreationDate).toBe(
      `D:${invoice.created_at.toISOString().replace(/[-:T]/g, "").slice(0, 14)}Z`,
    );
  });
});
