import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { bearer, claimedMerchant } from "../accounts/accounts.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";

/**
 * The public invoice page printed the invoice's UUID in its PDF link, and that UUID opened
 * GET /api/invoices/{id} (both parties' emails, the payout wallet, the webhook URL and its
 * delivery log), /send and redelivery. The page now links to the PDF by slug, and the UUID
 * endpoints answer only the merchant.
 */
describe("the invoice id, read off the hosted invoice page", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ env: { AUTH_MODE: "keys" } });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  test("is not on the page; the PDF it links works without a key; the id opens nothing", async () => {
    const merchant = await claimedMerchant(stack.db);
    const created = await stack.request("/api/invoices", {
      method: "POST",
      json: invoiceRequest({
        merchant_email: merchant.email,
        webhook_url: "https://hooks.example.com/x",
      }),
      headers: bearer(merchant.key),
    });
    const invoice = (await created.json()) as {
      invoice_id: string;
      invoice_url: string;
      slug: string;
    };
    const html = await (await fetch(invoice.invoice_url)).text();
    expect(html).not.toContain(invoice.invoice_id);
    const pdfHref = /href="([^"]+\/pdf)"/.exec(html)?.[1] ?? "";
    expect(pdfHref).toBe(`${stack.api.url}/api/invoices/by-slug/${invoice.slug}/pdf`);
    const pdf = await fetch(pdfHref);
    expect([pdf.status, pdf.headers.get("content-type")]).toEqual([200, "application/pdf"]);
    const bytes = Buffer.from(await pdf.arrayBuffer());
    // The same bytes the merchant downloads by id with its key.
    const own = await stack.request(`/api/invoices/${invoice.invoice_id}/pdf`, {
      headers: bearer(merchant.key),
    });
    expect(Buffer.from(await own.arrayBuffer()).equals(bytes)).toBe(true);

    for (const path of [
      `/api/invoices/${invoice.invoice_id}`,
      `/api/invoices/${invoice.invoice_id}/pdf`,
      `/api/invoices/${invoice.invoice_id}/webhooks`,
    ])
      expect((await stack.request(path)).status).toBe(401);
    expect(
      (await stack.request(`/api/invoices/${invoice.invoice_id}/send`, { method: "POST" })).status,
    ).toBe(401);
    // An unknown slug is a 404 like any unknown record.
    expect((await stack.request("/api/invoices/by-slug/nosuchslug12/pdf")).status).toBe(404);
  });
});
