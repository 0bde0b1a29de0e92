import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "./fixtures.ts";

describe("invoices are append-only in the database", () => {
  let stack: TestStack;
  let id: string;
  beforeAll(async () => {
    stack = await startStack();
    const response = await stack.request("/api/invoices", {
      method: "POST",
      json: invoiceRequest({ send_now: false }),
    });
    id = ((await response.json()) as { invoice_id: string }).invoice_id;
    // Its PDF is stored by its first render (no worker here: this download's).
    expect((await stack.request(`/api/invoices/${id}/pdf`)).status).toBe(200);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const refused = async (statement: ReturnType<typeof sql>) => {
    await expect(statement.execute(stack.db)).rejects.toThrow(/append-only/);
  };

  test.each([
    ["merchant_name_snapshot", "'Someone Else'"],
    ["merchant_address_snapshot", "'Elsewhere'"],
    ["invoice_number", "'INV-9999'"],
    ["total_amount", "1"],
    ["deposit_address", "'0x0000000000000000000000000000000000000001'"],
    ["vendor_email", "'x@example.com'"],
    ["due_date", "'2000-01-01'"],
    ["metadata", `'{"order_id": "changed"}'`],
  ])("UPDATE of %s is refused", async (column, value) => {
    await refused(
      sql`update app.invoices set ${sql.raw(column)} = ${sql.raw(value)} where id = ${id}`,
    );
  });

  test("line items and PDFs can be neither changed nor deleted", async () => {
    await refused(sql`update app.invoice_line_items set line_total = 0 where invoice_id = ${id}`);
    await refused(sql`delete from app.invoice_line_items where invoice_id = ${id}`);
    await refused(sql`update app.invoice_pdfs set pdf = '\\x00' where invoice_id = ${id}`);
    await refused(sql`delete from app.invoice_pdfs where invoice_id = ${id}`);
  });

  test("DELETE and TRUNCATE are refused", async () => {
    await refused(sql`delete from app.invoices where id = ${id}`);
    await refused(sql`truncate app.invoices cascade`);
    await refused(sql`truncate app.invoice_pdfs`);
  });

  test("the lifecycle columns still change (draft → sent)", async () => {
    await sql`update app.invoices set status = 'sent', sent_at = now() where id = ${id}`.execute(
      stack.db,
    );
    const row = await stack.db
      .selectFrom("app.invoices")
      .select(["status", "merchant_name_snapshot"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: "sent", merchant_name_snapshot: "Acme Ltd" });
  });
});
