import { parse } from "csv-parse/sync";
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { resetLocalFeeds } from "../../chain/localFeeds.ts";
import { merchantOverviewFacts } from "../../db/queries/dashboard.ts";
import { utcToday } from "../../domain/invoiceStatus.ts";
import { monthStartOf, overview } from "../../domain/moneyRules.ts";
import { waitFor } from "../../internal/process.ts";
import { bearer, claimedMerchant, type Merchant } from "../accounts/accounts.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { EVENT_MS } from "../helpers/waits.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";
import { createEurInvoice, type EurInvoice, eurAt } from "./eurInvoices.ts";

type Json = Record<string, unknown>;

/**
 * One merchant's EUR invoice (100.00 EUR, 55 USDC paid at 1.10: 50.00 EUR) and USDC invoice
 * (50.00 USDC, 20 paid) on the real stack, through its list, exports, receivables and overview:
 * each figure in its invoice's own unit, and nothing added across units.
 */
describe("lists, exports and receivables of an EUR and a USDC invoice", () => {
  const chain = useChainForFile();
  let stack: TestStack;
  let acme: Merchant;
  let eur: EurInvoice;
  /** Priced in USDC, the spec's invoice (the same fields). */
  let usdc: EurInvoice;

  const get = async (path: string) => {
    const response = await stack.request(path, { headers: bearer(acme.key) });
    expect(response.status, path).toBe(200);
    return response;
  };
  const csv = async (path: string) =>
    parse(await (await get(path)).text(), { columns: true }) as Record<string, string>[];
  const stored = (invoice: EurInvoice, status: string) =>
    waitFor(
      `${invoice.invoice_id} ${status}`,
      async () => {
        const { rows } = await sql<{ status: string; converted: boolean }>`
          select i.status, (i.currency = 'USDC' or s.received_in_currency is not null) as converted
          from app.invoices i join app.payment_state s on s.deposit_address = i.deposit_address
          where i.id = ${invoice.invoice_id}`.execute(stack.db);
        return rows[0]?.status === status && rows[0].converted ? rows[0] : undefined;
      },
      { timeoutMs: EVENT_MS, intervalMs: 100 },
    );

  beforeAll(async () => {
    await chain.snapshot();
    stack = await startStack({ worker: true, indexer: true });
    acme = await claimedMerchant(stack.db);
    const own = { merchant_email: acme.email, due_date: "2099-12-31" };
    eur = await createEurInvoice(stack, own, bearer(acme.key));
    const created = await stack.request("/api/invoices", {
      method: "POST",
      headers: bearer(acme.key),
      json: invoiceRequest({
        ...own,
        line_items: [{ description: "Hosting", quantity: 1, unit_price: "50.00" }],
      }),
    });
    expect(created.status).toBe(201);
    usdc = (await created.json()) as EurInvoice;
    await eurAt(chain.url, "1.10");
    await chain.payUsdc(devAccount(1), eur.deposit_address, 55_000_000n);
    await chain.payUsdc(devAccount(2), usdc.deposit_address, 20_000_000n);
    await stored(eur, "partial");
    await stored(usdc, "partial");
  });
  afterAll(async () => {
    await stack?.stop();
    await chain.revert();
  });
  afterEach(() => resetLocalFeeds(chain.url));

  test("GET /api/invoices: each in its currency; the EUR one tells its USDC beside", async () => {
    const { data } = (await (await get("/api/invoices")).json()) as { data: Json[] };
    const byId = new Map(data.map((item) => [item.invoice_id, item]));
    expect(byId.get(eur.invoice_id)).toMatchObject({
      currency: "EUR",
      total_amount: "100.00",
      paid_amount: "50.00",
      amount_due: "50.00",
      paid_amount_usdc: "55.00",
      status: "partial",
    });
    const inUsdc = byId.get(usdc.invoice_id);
    expect(inUsdc).toMatchObject({
      currency: "USDC",
      total_amount: "50.00",
      paid_amount: "20.00",
      amount_due: "30.00",
    });
    // A USDC invoice's item is what it was: no field of the currencies.
    expect(inUsdc).not.toHaveProperty("paid_amount_usdc");
  });

  test("the invoices CSV: a currency column, amounts in it, paid_amount_usdc", async () => {
    const rows = await csv("/api/exports/invoices.csv?bom=false");
    const of = (id: string) => rows.find((r) => r.invoice_id === id);
    expect(of(eur.invoice_id)).toMatchObject({
      currency: "EUR",
      invoice_total: "100.00",
      paid_amount: "50.00",
      amount_due: "50.00",
      paid_amount_usdc: "55.00",
    });
    expect(of(usdc.invoice_id)).toMatchObject({
      currency: "USDC",
      invoice_total: "50.00",
      paid_amount: "20.00",
      amount_due: "30.00",
      paid_amount_usdc: "20.00",
    });
  });

  test("payments: the EUR invoice's payment with its currency, amount in it and rate", async () => {
    const { data } = (await (await get("/api/payments")).json()) as { data: Json[] };
    const toEur = data.find((p) => p.invoice_id === eur.invoice_id);
    expect(toEur).toMatchObject({
      amount: "55.00",
      currency: "EUR",
      amount_in_currency: "50.00",
      rate: "1.10000000",
    });
    const toUsdc = data.find((p) => p.invoice_id === usdc.invoice_id);
    expect(toUsdc).toMatchObject({ amount: "20.00" });
    for (const field of ["currency", "amount_in_currency", "rate"])
      expect(toUsdc).not.toHaveProperty(field);
    // The same as the detail shows of it.
    const detail = (await (await get(`/api/invoices/${eur.invoice_id}`)).json()) as {
      payments: Json[];
    };
    expect(detail.payments[0]).toMatchObject({ amount_in_currency: "50.00", rate: "1.10000000" });

    const rows = await csv("/api/exports/payments.csv?bom=false");
    expect(rows.find((r) => r.invoice_id === eur.invoice_id)).toMatchObject({
      entry: "payment",
      amount: "55.00",
      currency: "USDC",
      priced_in: "EUR",
      amount_in_currency: "50.00",
      rate: "1.10000000",
    });
    expect(rows.find((r) => r.invoice_id === usdc.invoice_id)).toMatchObject({
      amount: "20.00",
      currency: "USDC",
      priced_in: "",
      amount_in_currency: "",
      rate: "",
    });
  });

  test("aged receivables: one report per currency, never a total across them", async () => {
    const report = (await (await get("/api/reports/receivables")).json()) as Json & {
      other_currencies: Json[];
    };
    expect(report).toMatchObject({ currency: "USDC", total: "30.00", invoice_count: 1 });
    expect(report.other_currencies).toEqual([
      expect.objectContaining({ currency: "EUR", total: "50.00", invoice_count: 1 }),
    ]);
    expect((report.totals as Json).current).toBe("30.00");
    expect(report.other_currencies[0]?.totals).toMatchObject({ current: "50.00" });

    const rows = await csv("/api/exports/receivables.csv?bom=false");
    expect(rows.filter((r) => r.vendor_name === "Total").map((r) => [r.currency, r.total])).toEqual(
      [
        ["USDC", "30.00"],
        ["EUR", "50.00"],
      ],
    );
    // Nothing reads 80.00: a euro and a USDC are never added.
    expect(rows.every((r) => r.total !== "80.00")).toBe(true);
  });

  test("the overview: owed per currency (its SQL prefilter reads the EUR one in euros)", async () => {
    const today = utcToday();
    const figures = overview(
      await merchantOverviewFacts(stack.db, acme.merchantId, monthStartOf(today)),
      today,
    );
    expect(figures.outstanding).toBe(30_000_000n);
    expect(figures.outstandingCount).toBe(1);
    expect(figures.owedInCurrencies).toEqual([
      { currency: "EUR", due: 50_000_000n, count: 1, overdue: 0n, overdueCount: 0 },
    ]);
    // Money in is USDC whatever the invoice is priced in: 55 + 20 arrived.
    expect(figures.receivedThisMonth).toBe(75_000_000n);
  });
});
