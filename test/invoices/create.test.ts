import { getAddress } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { BYO_WALLET, invoiceRequest } from "./fixtures.ts";

describe("POST /api/invoices", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const create = async (body: Record<string, unknown>, headers: Record<string, string> = {}) => {
    const response = await stack.request("/api/invoices", { method: "POST", json: body, headers });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  test("answers 201 with exactly the fields of spec §2.2", async () => {
    const { status, body } = await create(invoiceRequest());
    expect(status).toBe(201);
    expect(Object.keys(body).sort()).toEqual(
      ["deposit_address", "invoice_id", "invoice_number", "invoice_url", "pdf_url", "sent_at", "slug", "status", "total_amount"].sort(),
    );
    expect(body.invoice_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.invoice_number).toBe("INV-0001");
    expect(body.slug).toMatch(/^[1-9A-HJ-NP-Za-km-z]{12}$/);
    expect(body.invoice_url).toBe(`${stack.api.url}/i/${body.slug}`);
    expect(body.pdf_url).toBe(`${stack.api.url}/api/invoices/${body.invoice_id}/pdf`);
    expect(body.deposit_address).toBe(getAddress(body.deposit_address as string));
    expect(body.total_amount).toBe("150.125");
    expect(body.status).toBe("sent");
    expect(new Date(body.sent_at as string).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });
});
