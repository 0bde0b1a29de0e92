import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { seedMerchantVolume } from "../../bench/listsSeed.ts";
import { reportedStatus, utcToday } from "../../domain/invoiceStatus.ts";
import { bearer, claimedMerchant, type Merchant, readKeyOf } from "../accounts/accounts.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";
import { linkRequest } from "../links/fixtures.ts";
import { fieldCodes, getPage, walkList } from "./pages.ts";

type Json = Record<string, unknown>;

/** GET /api/invoices, /api/links, /api/payments on the real API, with a seeded merchant. */
describe("lists", () => {
  let stack: TestStack;
  let acme: Merchant;
  let reader: string;

  beforeAll(async () => {
    stack = await startStack();
    acme = await claimedMerchant(stack.db);
    reader = await readKeyOf(stack, acme);
    await seedMerchantVolume(stack.db, [acme.merchantId], {
      invoices: 120,
      payments: 150,
      links: 12,
    });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  test("a list needs a key: 401 without one, even in open mode", async () => {
    for (const path of [
      "/api/invoices",
      "/api/links",
      "/api/payments",
      "/api/exports/invoices.csv",
    ]) {
      const response = await stack.request(path);
      expect([path, response.status]).toEqual([path, 401]);
    }
  });

  test("pages cover every invoice exactly once while new invoices arrive", async () => {
    const { rows: before } = await sql<{ id: string }>`
      select id from app.invoices where merchant_id = ${acme.merchantId}`.execute(stack.db);
    let arrivals = 0;
    const rows = await walkList(stack, reader, "/api/invoices?limit=7", async () => {
      // New invoices between pages: through the API, and a batch straight into the table.
      arrivals++;
      if (arrivals % 4 === 0) {
        const created = await stack.request("/api/invoices", {
          method: "POST",
          json: invoiceRequest({ merchant_email: acme.email, send_now: false }),
          headers: bearer(acme.key),
        });
        expect(created.status).toBe(201);
      } else if (arrivals % 4 === 2) {
        await seedMerchantVolume(stack.db, [acme.merchantId], {
          invoices: 3,
          payments: 0,
          links: 0,
        });
      }
    });
    const ids = rows.map((r) => r.invoice_id as string);
    expect(new Set(ids).size).toBe(ids.length);
    const seen = new Set(ids);
    expect(before.filter((r) => !seen.has(r.id))).toEqual([]);
    expect(arrivals).toBeGreaterThan(10);
    const times = rows.map((r) => r.created_at as string);
    expect([...times].sort().reverse()).toEqual(times);
  });

  test("limit: default 50, 1 to 200, anything else a 400 on limit", async () => {
    expect((await getPage(stack, reader, "/api/invoices")).data.length).toBe(50);
    expect((await getPage(stack, reader, "/api/invoices?limit=1")).data.length).toBe(1);
    expect((await getPage(stack, reader, "/api/invoices?limit=200")).data.length).toBe(
      Math.min(
        200,
        Number(
          (
            await sql<{
              n: string;
            }>`select count(*)::text as n from app.invoices where merchant_id = ${acme.merchantId}`.execute(
              stack.db,
            )
          ).rows[0]?.n,
        ),
      ),
    );
    for (const limit of ["0", "201", "-1", "abc", "1.5", "99999999999"]) {
      const page = await getPage(stack, reader, `/api/invoices?limit=${limit}`);
      expect([limit, page.status, fieldCodes(page.body)]).toEqual([
        limit,
        400,
        [`limit:out_of_range`],
      ]);
    }
  });

  test("a cursor that is not one of this list's: 400 on cursor, never a 500", async () => {
    const links = await getPage(stack, reader, "/api/links?limit=2");
    const invoice = await getPage(stack, reader, "/api/invoices?limit=2");
    const forged = (text: string) => Buffer.from(text).toString("base64url");
    const bad = [
      "nonsense",
      "!!!",
      links.next as string,
      forged("invoices|2026-13-45T00:00:00.000000Z|7d1c6f2a-4b3e-4f5a-9c8d-1e2f3a4b5c6d"),
      forged("invoices|2026-01-01T00:00:00.000000Z|'; drop table app.invoices; --"),
      forged("invoices|2026-01-01T00:00:00.000000Z|7d1c6f2a-4b3e-4f5a-9c8d-1e2f3a4b5c6d|x"),
      `${invoice.next}x`,
      "a".repeat(201),
    ];
    for (const cursor of bad) {
      const page = await getPage(
        stack,
        reader,
        `/api/invoices?cursor=${encodeURIComponent(cursor)}`,
      );
      expect([cursor, page.status]).toEqual([cursor, 400]);
      expect(fieldCodes(page.body)[0]).toMatch(/^cursor:/);
    }
    // A well-formed cursor of any moment is just a position: the rows after it.
    const early = forged(
      "invoices|2000-01-01T00:00:00.000000Z|00000000-0000-4000-8000-000000000000",
    );
    expect(await getPage(stack, reader, `/api/invoices?cursor=${early}`)).toMatchObject({
      status: 200,
      data: [],
      next: null,
    });
  });

  test("nothing a client writes in a query string is a 500", async () => {
    const values = [
      "",
      "%00",
      "%F0%9F%92%A9",
      "%E0%80",
      "'",
      "\\",
      "1e309",
      "-0",
      "0x10",
      "9".repeat(300),
      "null",
      "[]",
    ];
    const params = [
      "limit",
      "cursor",
      "status",
      "created_from",
      "created_to",
      "due_to",
      "amount_min",
      "q",
      "kind",
      "payer",
      "paid_from",
      "from",
    ];
    for (const path of [
      "/api/invoices",
      "/api/links",
      "/api/payments",
      "/api/exports/payments.csv",
    ])
      for (const name of params)
        for (const value of values) {
          const response = await stack.request(`${path}?${name}=${value}&${name}=${value}`, {
            headers: bearer(reader),
          });
          await response.arrayBuffer();
          expect([path, name, value, response.status < 500]).toEqual([path, name, value, true]);
        }
  });

  test("status filters, overdue derived, void accepted", async () => {
    const all = await walkList(stack, reader, "/api/invoices?limit=200");
    const today = utcToday();
    for (const status of ["draft", "sent", "overdue", "paid", "partial", "excess"]) {
      const rows = await walkList(stack, reader, `/api/invoices?status=${status}&limit=200`);
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((r) => r.status === status)).toBe(true);
      expect(rows.length).toBe(all.filter((r) => r.status === status).length);
      expect(
        rows.every(
          (r) => reportedStatus(r.stored_status as "sent", r.due_date as string, today) === status,
        ),
      ).toBe(true);
    }
    const two = await walkList(stack, reader, "/api/invoices?status=paid,partial&limit=200");
    expect(two.length).toBe(
      all.filter((r) => r.status === "paid" || r.status === "partial").length,
    );
    expect((await getPage(stack, reader, "/api/invoices?status=void")).status).toBe(200);
    const bad = await getPage(stack, reader, "/api/invoices?status=paid,unpaid");
    expect([bad.status, fieldCodes(bad.body)]).toEqual([400, ["status:invalid_enum"]]);
  });

  test("created and due date ranges, amount ranges", async () => {
    const all = await walkList(stack, reader, "/api/invoices?limit=200");
    const times = all.map((r) => r.created_at as string).sort();
    const from = times[20] as string;
    const to = times[60] as string;
    const ranged = await walkList(
      stack,
      reader,
      `/api/invoices?created_from=${from}&created_to=${to}&limit=200`,
    );
    expect(ranged.length).toBe(
      all.filter((r) => (r.created_at as string) >= from && (r.created_at as string) < to).length,
    );
    const day = utcToday();
    const today = await walkList(
      stack,
      reader,
      `/api/invoices?created_from=${day}&created_to=${day}&limit=200`,
    );
    expect(today.length).toBe(all.filter((r) => (r.created_at as string).startsWith(day)).length);
    const due = await walkList(stack, reader, `/api/invoices?due_from=${day}&limit=200`);
    expect(due.length).toBe(all.filter((r) => (r.due_date as string) >= day).length);

    const amounts = await walkList(
      stack,
      reader,
      "/api/invoices?amount_min=100&amount_max=500.5&limit=200",
    );
    const inRange = (r: Json) => Number(r.total_amount) >= 100 && Number(r.total_amount) <= 500.5;
    expect(amounts.length).toBe(all.filter(inRange).length);
    expect(amounts.length).toBeGreaterThan(0);

    const reversed = await getPage(
      stack,
      reader,
      `/api/invoices?created_from=2026-02-01&created_to=2026-01-01`,
    );
    expect([reversed.status, fieldCodes(reversed.body)]).toEqual([
      400,
      ["created_to:before_start"],
    ]);
    const badDate = await getPage(
      stack,
      reader,
      "/api/invoices?created_from=2026-02-30&amount_min=1e3&due_to=tomorrow",
    );
    expect([badDate.status, fieldCodes(badDate.body).sort()]).toEqual([
      400,
      ["amount_min:invalid_decimal", "created_from:invalid_date", "due_to:invalid_date"],
    ]);
    const typo = await getPage(stack, reader, "/api/invoices?stauts=paid");
    expect([typo.status, fieldCodes(typo.body)]).toEqual([400, ["stauts:unknown_field"]]);
  });

  test("search: invoice number, vendor name and email, line item descriptions, in any case", async () => {
    const created = (await (
      await stack.request("/api/invoices", {
        method: "POST",
        json: invoiceRequest({
          merchant_email: acme.email,
          send_now: false,
          vendor_name: "Initech 100% Ltd",
          vendor_email: "payables@initech.example",
          line_items: [{ description: "TPS report_covers", quantity: 3, unit_price: "9.99" }],
        }),
        headers: bearer(acme.key),
      })
    ).json()) as Json;
    const search = async (q: string) =>
      (await walkList(stack, reader, `/api/invoices?q=${encodeURIComponent(q)}`)).map(
        (r) => r.invoice_id,
      );
    for (const q of [
      "initech 100%",
      "PAYABLES@INITECH",
      "report_covers",
      "tps REPORT",
      created.invoice_number as string,
    ])
      expect([q, await search(q)]).toEqual([q, [created.invoice_id]]);
    expect(await search("100%_")).toEqual([]);
    const vendor = await walkList(stack, reader, "/api/invoices?q=vendor%2041&limit=200");
    expect(vendor.length).toBeGreaterThan(0);
    expect(vendor.every((r) => (r.vendor_name as string).startsWith("Vendor 41"))).toBe(true);
    const empty = await getPage(stack, reader, `/api/invoices?q=${"x".repeat(101)}`);
    expect([empty.status, fieldCodes(empty.body)]).toEqual([400, ["q:too_long"]]);
  });

  test("links: list, filters, search, and GET /api/links/{slug}", async () => {
    const made = (await (
      await stack.request("/api/links", {
        method: "POST",
        json: linkRequest({
          merchant_email: acme.email,
          description: "Gift card, blue edition",
          amount: "42.00",
        }),
        headers: bearer(acme.key),
      })
    ).json()) as Json;
    const all = await walkList(stack, reader, "/api/links?limit=5");
    expect(all.length).toBe(13);
    expect(all[0]).toMatchObject({
      slug: made.slug,
      amount: "42.00",
      status: "pending",
      amount_received: "0.00",
    });
    const pending = await walkList(stack, reader, "/api/links?status=pending");
    expect(pending.every((r) => r.status === "pending")).toBe(true);
    expect(
      (await walkList(stack, reader, "/api/links?q=BLUE%20edition")).map((r) => r.slug),
    ).toEqual([made.slug]);
    expect(
      (await walkList(stack, reader, "/api/links?amount_min=42&amount_max=42")).map((r) => r.slug),
    ).toContain(made.slug);

    const detail = await getPage(stack, reader, `/api/links/${made.slug}`);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({
      link_id: made.link_id,
      slug: made.slug,
      amount: "42.00",
      amount_due: "42.00",
      description: "Gift card, blue edition",
      metadata: { order_id: "1042", gift: false },
      iframe_snippet: made.iframe_snippet,
      js_widget_snippet: made.js_widget_snippet,
      payments: [],
      sweeps: [],
    });
    expect(detail.body).not.toHaveProperty("webhook_secret");
    expect((await stack.request(`/api/links/${made.slug}`)).status).toBe(401);
    expect((await getPage(stack, reader, "/api/links/NoSuchSlug123")).status).toBe(404);
  });

  test("payments: every counted one, with what it paid, kind and amount filters", async () => {
    const all = await walkList(stack, reader, "/api/payments?limit=40");
    const { rows } = await sql<{ n: string; total: string }>`
      select count(*)::text as n, sum(amount)::text as total from app.payments where merchant_id = ${acme.merchantId}`.execute(
      stack.db,
    );
    expect(all.length).toBe(Number(rows[0]?.n));
    expect(new Set(all.map((p) => p.payment_id)).size).toBe(all.length);
    expect(all[0]).toMatchObject({
      kind: "invoice",
      invoice_number: expect.stringMatching(/^INV-/),
      explorer_url: null,
    });
    expect(typeof all[0]?.confirmations).toBe("number");
    expect(await walkList(stack, reader, "/api/payments?kind=link")).toEqual([]);
    const one = all[0] as Json;
    const ofInvoice = await walkList(stack, reader, `/api/payments?invoice_id=${one.invoice_id}`);
    expect(ofInvoice.every((p) => p.invoice_id === one.invoice_id)).toBe(true);
    const bad = await getPage(
      stack,
      reader,
      "/api/payments?kind=refund&payer=0x12&invoice_id=nope",
    );
    expect([bad.status, fieldCodes(bad.body).sort()]).toEqual([
      400,
      ["invoice_id:invalid_format", "kind:invalid_enum", "payer:invalid_address"],
    ]);
  });
});
