import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { seedMerchantVolume } from "../../bench/listsSeed.ts";
import type { Db } from "../../db/database.ts";
import { invoiceExportBatch, paymentExportBatch } from "../../db/queries/exports.ts";
import { type InvoiceListFilters, listInvoices } from "../../db/queries/invoiceLists.ts";
import { listLinks } from "../../db/queries/linkLists.ts";
import type { ListResult } from "../../db/queries/listPage.ts";
import { listPayments } from "../../db/queries/paymentLists.ts";
import { reportedStatus, utcToday } from "../../domain/invoiceStatus.ts";
import { decodeListCursor, type ListKind } from "../../domain/listCursor.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";

/** Every row of a list, page by page, through the cursors. */
async function walk<Row>(
  kind: ListKind,
  read: (after: ReturnType<typeof decodeListCursor>) => Promise<ListResult<Row>>,
): Promise<{ rows: Row[]; pages: number }> {
  const rows: Row[] = [];
  let after: ReturnType<typeof decodeListCursor> = null;
  let pages = 0;
  for (;;) {
    const page = await read(after);
    pages++;
    rows.push(...page.rows);
    if (!page.nextCursor) return { rows, pages };
    after = decodeListCursor(kind, page.nextCursor);
    expect(after).not.toBeNull();
  }
}

/** The query layer on a seeded database: pages, filters and exports agree with plain SQL. */
describe("list queries", () => {
  let database: TestDatabase;
  let db: Db;
  let acme: string;
  let globex: string;
  const today = utcToday();
  const all: InvoiceListFilters = { today };

  beforeAll(async () => {
    database = await createTestDatabase();
    db = database.db;
    const made = await db
      .insertInto("app.merchants")
      .values([
        { email: `acme-${randomUUID()}@example.com` },
        { email: `globex-${randomUUID()}@example.com` },
      ])
      .returning("id")
      .execute();
    [acme, globex] = made.map((m) => m.id) as [string, string];
    await seedMerchantVolume(db, [acme], { invoices: 300, payments: 400, links: 40 });
    await seedMerchantVolume(db, [globex], { invoices: 50, payments: 60, links: 5 });
  });
  afterAll(async () => {
    await database?.drop();
  });

  test("pages of invoices cover every one of the merchant's exactly once, newest first", async () => {
    const { rows, pages } = await walk("invoices", (after) =>
      listInvoices(db, acme, all, { limit: 7, after }),
    );
    expect(pages).toBe(Math.ceil(300 / 7));
    expect(new Set(rows.map((r) => r.id)).size).toBe(300);
    const sorted = [...rows].sort((a, b) =>
      a.list_at === b.list_at ? b.id.localeCompare(a.id) : b.list_at.localeCompare(a.list_at),
    );
    expect(rows.map((r) => r.id)).toEqual(sorted.map((r) => r.id));
    // Pairs share a moment: the id breaks the tie.
    expect(new Set(rows.map((r) => r.list_at)).size).toBeLessThan(300);
  });

  test("status filters follow the reported status, overdue derived", async () => {
    for (const status of [
      "draft",
      "sent",
      "overdue",
      "paid",
      "partial",
      "excess",
      "void",
    ] as const) {
      const { rows } = await walk("invoices", (after) =>
        listInvoices(db, acme, { today, statuses: [status] }, { limit: 50, after }),
      );
      const { rows: every } = await walk("invoices", (after) =>
        listInvoices(db, acme, all, { limit: 500, after }),
      );
      const expected = every.filter((r) => reportedStatus(r.status, r.due_date, today) === status);
      expect([status, rows.map((r) => r.id).sort()]).toEqual([
        status,
        expected.map((r) => r.id).sort(),
      ]);
      if (status !== "void") expect([status, rows.length > 0]).toEqual([status, true]);
    }
  });

  test("amount ranges, created ranges and the search", async () => {
    const min = 100_000_000n;
    const max = 500_000_000n;
    const { rows } = await walk("invoices", (after) =>
      listInvoices(db, acme, { today, amountMin: min, amountMax: max }, { limit: 100, after }),
    );
    const { rows: counted } = await sql<{ n: string }>`
      select count(*)::text as n from app.invoices where merchant_id = ${acme} and total_amount between ${min} and ${max}`.execute(
      db,
    );
    expect(rows.length).toBe(Number(counted[0]?.n));
    expect(rows.every((r) => r.total_amount >= min && r.total_amount <= max)).toBe(true);

    const found = await listInvoices(db, acme, { today, q: "vendor 41" }, { limit: 500 });
    expect(found.rows.length).toBeGreaterThan(0);
    expect(found.rows.every((r) => r.vendor_name.startsWith("Vendor 41"))).toBe(true);
    const byLine = await listInvoices(db, acme, { today, q: '"PREMIUM"' }, { limit: 500 });
    expect(byLine.rows.length).toBeGreaterThan(0);
    const wildcard = await listInvoices(db, acme, { today, q: "%" }, { limit: 500 });
    expect(wildcard.rows).toEqual([]);
  });

  test("another merchant's rows never appear", async () => {
    const acmeIds = new Set(
      (
        await walk("invoices", (after) => listInvoices(db, acme, all, { limit: 100, after }))
      ).rows.map((r) => r.id),
    );
    const globexRows = (
      await walk("invoices", (after) => listInvoices(db, globex, all, { limit: 100, after }))
    ).rows;
    expect(globexRows.length).toBe(50);
    expect(globexRows.some((r) => acmeIds.has(r.id))).toBe(false);
    const links = (await walk("links", (after) => listLinks(db, globex, {}, { limit: 2, after })))
      .rows;
    expect(links.length).toBe(5);
    const payments = (
      await walk("payments", (after) => listPayments(db, globex, {}, { limit: 9, after }))
    ).rows;
    expect(payments.length).toBe(60);
  });

  test("payments page through every counted one; exports read every line and payment", async () => {
    const { rows } = await walk("payments", (after) =>
      listPayments(db, acme, {}, { limit: 13, after }),
    );
    expect(new Set(rows.map((r) => r.id)).size).toBe(400);
    expect(rows.every((r) => r.invoice_number?.startsWith("INV-"))).toBe(true);

    let lines = 0;
    let after = null;
    for (;;) {
      const batch = await invoiceExportBatch(db, acme, {}, after, 17);
      if (!batch.length) break;
      lines += batch.length;
      const last = batch.at(-1);
      after = last ? { at: last.list_at, id: last.id } : null;
    }
    const { rows: lineCount } = await sql<{ n: string }>`
      select count(*)::text as n from app.invoice_line_items l join app.invoices i on i.id = l.invoice_id
      where i.merchant_id = ${acme}`.execute(db);
    expect(lines).toBe(Number(lineCount[0]?.n));
    const payments = await paymentExportBatch(db, acme, {}, null, 1000);
    expect(payments.length).toBe(400);
  });
});
