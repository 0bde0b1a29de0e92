import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { waitFor } from "../../internal/process.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "./fixtures.ts";

type Json = Record<string, unknown>;

describe("invoice lifecycle: send, email, read, status", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ worker: true });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const create = async (overrides: Json = {}) =>
    (await (
      await stack.request("/api/invoices", { method: "POST", json: invoiceRequest(overrides) })
    ).json()) as Json;
  const json = async (path: string, init?: RequestInit) => {
    const response = await stack.request(path, init);
    return { status: response.status, body: (await response.json()) as Json };
  };
  const pdfBytes = async (id: unknown) =>
    Buffer.from(await (await stack.request(`/api/invoices/${id}/pdf`)).arrayBuffer());

  test("a sent invoice's email reaches the vendor with the hosted link and the very PDF the API serves", async () => {
    const created = await create({ vendor_email: "payables@globex.example" });
    const email = await stack.waitForEmail(
      (e) =>
        e.to.includes("payables@globex.example") &&
        e.subject.includes(created.invoice_number as string),
    );
    expect(email.subject).toBe(
      `Invoice ${created.invoice_number} from Acme Ltd: 150.125 USDC due 2099-12-31`,
    );
    expect(email.text).toContain(created.invoice_url as string);
    expect(email.html).toContain(`href="${created.invoice_url}"`);
    expect(email.text).toContain(created.deposit_address as string);
    expect(email.attachments).toHaveLength(1);
    const [attachment] = email.attachments;
    expect(attachment?.filename).toBe(`${created.invoice_number}.pdf`);
    expect(attachment?.type).toBe("application/pdf");
    const downloaded = await pdfBytes(created.invoice_id);
    expect(Buffer.from(attachment?.content ?? "", "base64").equals(downloaded)).toBe(true);
    expect(attachment?.sha256).toBe(createHash("sha256").update(downloaded).digest("hex"));
    // The worker marks the row sent only after SendGrid's 202, that is after the outbox has the
    // message: wait for the mark, then count the deliveries, now that the job is done with it.
    const row = await waitFor("the email marked sent", async () => {
      const stored = await stack.db
        .selectFrom("app.emails")
        .selectAll()
        .where("invoice_id", "=", created.invoice_id as string)
        .executeTakeFirst();
      return stored?.status === "sent" && stored;
    });
    expect(row).toMatchObject({
      kind: "vendor_invoice",
      status: "sent",
      attempts: 1,
      last_error: null,
    });
    expect((await stack.outbox()).find((e) => e.id === email.id)?.deliveries).toBe(1);
  });

  test("draft → send → sent: emails the vendor once; a second send is a 409", async () => {
    const created = await create({ send_now: false, vendor_email: "draft-vendor@globex.example" });
    expect((await json(`/api/invoices/${created.invoice_id}/status`)).body).toEqual({
      status: "draft",
    });

    const sent = await json(`/api/invoices/${created.invoice_id}/send`, { method: "POST" });
    expect(sent.status).toBe(200);
    expect(sent.body.status).toBe("sent");
    expect(Date.parse(sent.body.sent_at as string)).toBeGreaterThan(Date.now() - 60_000);
    expect((await json(`/api/invoices/${created.invoice_id}/status`)).body).toEqual({
      status: "sent",
    });
    await stack.waitForEmail((e) => e.to.includes("draft-vendor@globex.example"));

    const again = await json(`/api/invoices/${created.invoice_id}/send`, { method: "POST" });
    expect(again.status).toBe(409);
    expect((again.body.error as Json).code).toBe("invoice_not_draft");
    const concurrent = await create({ send_now: false });
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        json(`/api/invoices/${concurrent.invoice_id}/send`, { method: "POST" }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    const emails = await stack.db
      .selectFrom("app.emails")
      .selectAll()
      .where("invoice_id", "=", concurrent.invoice_id as string)
      .execute();
    expect(emails).toHaveLength(1);
  });

  test("GET /api/invoices/{id} returns every stored field, line totals and derived values, never the secret", async () => {
    const created = await create({ webhook_url: "https://hooks.example.com/a" });
    const { status, body } = await json(`/api/invoices/${created.invoice_id}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      invoice_id: created.invoice_id,
      invoice_number: created.invoice_number,
      slug: created.slug,
      status: "sent",
      stored_status: "sent",
      merchant_name_snapshot: "Acme Ltd",
      merchant_address_snapshot: "1 Market Street, San Francisco",
      vendor_email: "ap@globex.example",
      vendor_name: "Globex Corporation",
      vendor_address: "42 Industrial Way, Springfield",
      line_items: [
        { description: "Design work", quantity: 2, unit_price: "75.00", line_total: "150.00" },
        {
          description: "Hosting (November)",
          quantity: 1,
          unit_price: "0.125",
          line_total: "0.125",
        },
      ],
      total_amount: "150.125",
      currency: "USDC",
      chain_id: 8453,
      issue_date: "2026-11-01",
      due_date: "2099-12-31",
      notes: "Thank you for your business.",
      wallet_type: "managed",
      deposit_address: created.deposit_address,
      webhook_url: "https://hooks.example.com/a",
      sent_at: created.sent_at,
      invoice_url: created.invoice_url,
      pdf_url: created.pdf_url,
      paid_amount: "0.00",
      amount_due: "150.125",
      payments: [],
    });
    expect(body.payment_uri).toBe(
      `ethereum:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913@8453/transfer?address=${created.deposit_address}&uint256=150125000`,
    );
    expect(JSON.stringify(body)).not.toContain(created.webhook_secret as string);
    expect(body).not.toHaveProperty("webhook_secret");
  });

  test("status reports overdue for an unpaid invoice whose due date has passed (UTC), drafts included", async () => {
    const late = await create({ issue_date: "2024-01-01", due_date: "2024-01-31" });
    expect((await json(`/api/invoices/${late.invoice_id}/status`)).body).toEqual({
      status: "overdue",
    });
    const lateDraft = await create({
      issue_date: "2024-01-01",
      due_date: "2024-01-31",
      send_now: false,
    });
    expect((await json(`/api/invoices/${lateDraft.invoice_id}/status`)).body).toEqual({
      status: "overdue",
    });
    const today = new Date().toISOString().slice(0, 10);
    const dueToday = await create({ issue_date: today, due_date: today });
    expect((await json(`/api/invoices/${dueToday.invoice_id}/status`)).body).toEqual({
      status: "sent",
    });
    // The stored status is untouched: overdue is derived.
    expect((await json(`/api/invoices/${late.invoice_id}`)).body).toMatchObject({
      status: "overdue",
      stored_status: "sent",
    });
  });

  test("unknown or malformed ids are 404 JSON on every invoice endpoint", async () => {
    for (const id of ["00000000-0000-4000-8000-000000000000", "not-a-uuid", "1", "%27%3B--"]) {
      for (const [method, suffix] of [
        ["GET", ""],
        ["GET", "/pdf"],
        ["GET", "/status"],
        ["POST", "/send"],
      ] as const) {
        const response = await stack.request(`/api/invoices/${id}${suffix}`, { method });
        expect(response.status, `${method} ${id}${suffix}`).toBe(404);
        expect(response.headers.get("content-type")).toMatch(/application\/json/);
        expect(((await response.json()) as { error: Json }).error.code).toBe("not_found");
      }
    }
  });

  test("the PDF download is the stored PDF with a filename", async () => {
    const created = await create();
    const response = await stack.request(`/api/invoices/${created.invoice_id}/pdf`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toBe(
      `inline; filename="${created.invoice_number}.pdf"`,
    );
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
    const { body } = await json(`/api/invoices/${created.invoice_id}`);
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(body.pdf_sha256);
  });

  test("the OpenAPI document and the reference describe the invoice routes", async () => {
    const { status, body } = await json("/openapi.json");
    expect(status).toBe(200);
    expect(Object.keys(body.paths as Json)).toEqual(
      expect.arrayContaining([
        "/api/invoices",
        "/api/invoices/{id}",
        "/api/invoices/{id}/pdf",
        "/api/invoices/{id}/send",
        "/api/invoices/{id}/status",
      ]),
    );
    const docs = await stack.request("/docs");
    expect(docs.headers.get("content-type")).toMatch(/text\/html/);
    const html = await docs.text();
    expect(html).toContain("/api/invoices/{id}/send");
    expect(html).toContain("Create an invoice");
  });
});
