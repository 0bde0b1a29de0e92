import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";
import { runCli } from "./run.ts";

type Json = Record<string, unknown>;

/** Two rates and a reverse-charge line: every tax field the request takes. */
const taxedRequest = () =>
  invoiceRequest({
    merchant_tax_id: "DE123456789",
    vendor_tax_id: "FR12345678901",
    merchant_country: "DE",
    vendor_country: "FR",
    line_items: [
      { description: "Design work", quantity: 2, unit_price: "75.00", tax_rate: "19" },
      { description: "Hosting", quantity: 3, unit_price: "6.666666", tax_rate: "7" },
      { description: "Licence", quantity: 1, unit_price: "40.00", tax_category: "AE" },
    ],
  });

/**
 * The CLI with the tax fields (issue 44): `--stdin` passes them to the API, the dry run prices
 * them as the API does (the same subtotal, tax, breakdown and total, computed without a call),
 * and the CLI's local check refuses what the API would, field for field.
 */
describe("remit invoices create with tax", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  test("the dry run shows the API's own tax figures; --stdin creates the taxed invoice", async () => {
    const body = taxedRequest();
    const dry = await runCli(
      ["invoices", "create", "--stdin", "--dry-run", "--api", "http://127.0.0.1:9"],
      { stdin: JSON.stringify(body) },
    );
    expect(dry.code, dry.stderr).toBe(0);
    const preview = JSON.parse(dry.stdout) as Json;
    // 150.00 + 20.00 (19.999998 to the cent) + 40.00 = 210.00; 150.00 × 19 % = 28.50,
    // 20.00 × 7 % = 1.40, reverse charge 0.
    expect(preview).toMatchObject({
      subtotal_amount: "210.00",
      tax_amount: "29.90",
      total_amount: "239.90",
      request: { merchant_tax_id: "DE123456789", vendor_country: "FR" },
    });
    expect(
      (preview.line_items as Json[]).map((l) => [l.line_total, l.tax_category, l.tax_rate]),
    ).toEqual([
      ["150.00", "S", "19"],
      ["20.00", "S", "7"],
      ["40.00", "AE", "0"],
    ]);

    const created = await runCli(["invoices", "create", "--stdin", "--api", stack.api.url], {
      stdin: JSON.stringify(body),
    });
    expect(created.code, created.stderr).toBe(0);
    const id = (JSON.parse(created.stdout) as Json).invoice_id as string;
    const shown = await runCli(["invoices", "get", id, "--api", stack.api.url]);
    expect(shown.code, shown.stderr).toBe(0);
    const detail = JSON.parse(shown.stdout) as Json;
    // What the dry run promised is what the API stored and shows.
    expect({
      subtotal_amount: detail.subtotal_amount,
      tax_amount: detail.tax_amount,
      tax_breakdown: detail.tax_breakdown,
      total_amount: detail.total_amount,
    }).toEqual({
      subtotal_amount: preview.subtotal_amount,
      tax_amount: preview.tax_amount,
      tax_breakdown: preview.tax_breakdown,
      total_amount: preview.total_amount,
    });
    expect((preview.tax_breakdown as Json[]).map((row) => row.category)).toEqual(["S", "S", "AE"]);
    expect(detail).toMatchObject({ vendor_tax_id: "FR12345678901", merchant_country: "DE" });
  });

  test("an invoice without tax previews as before: no tax field at all", async () => {
    const dry = await runCli(
      ["invoices", "create", "--stdin", "--dry-run", "--api", "http://127.0.0.1:9"],
      { stdin: JSON.stringify(invoiceRequest()) },
    );
    expect(dry.code, dry.stderr).toBe(0);
    const preview = JSON.parse(dry.stdout) as Json;
    expect(preview.total_amount).toBe("150.125");
    for (const field of ["subtotal_amount", "tax_amount", "tax_breakdown"])
      expect(preview).not.toHaveProperty(field);
    expect(preview.line_items as Json[]).toEqual([
      { description: "Design work", quantity: "2", unit_price: "75.00", line_total: "150.00" },
      {
        description: "Hosting (November)",
        quantity: "1",
        unit_price: "0.125",
        line_total: "0.125",
      },
    ]);
  });

  test("reverse charge without the vendor's tax ID: the API's field error, nothing called", async () => {
    const { vendor_tax_id: _dropped, ...body } = taxedRequest();
    const cli = await runCli(
      ["invoices", "create", "--stdin", "--json", "--api", "http://127.0.0.1:9"],
      { stdin: JSON.stringify(body) },
    );
    expect(cli.code).toBe(1);
    const fromCli = (JSON.parse(cli.stderr) as { error: { fields: Json[] } }).error.fields;
    const fromApi = (
      (await (await stack.request("/api/invoices", { method: "POST", json: body })).json()) as {
        error: { fields: Json[] };
      }
    ).error.fields;
    expect(fromCli).toEqual(fromApi);
    expect(fromCli).toContainEqual(expect.objectContaining({ path: "vendor_tax_id" }));
  });
});
