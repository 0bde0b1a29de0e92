import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { seedMerchantVolume } from "../../bench/listsSeed.ts";
import { bearer, claimedMerchant, type Merchant } from "../accounts/accounts.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { linkRequest } from "../links/fixtures.ts";
import { getPage, walkList } from "../lists/pages.ts";

type Json = Record<string, unknown>;

/**
 * The attack: a merchant's key reads another merchant's invoices, links or payments through the
 * lists, the exports or a link's details — by paging with the other's cursor, by searching for
 * the other's vendor, by asking for the other's slug or invoice id. Every list is scoped to the
 * key's merchant in the query itself; nothing of globex's ever reaches acme.
 */
describe("the lists never show another merchant's records", () => {
  let stack: TestStack;
  let acme: Merchant;
  let globex: Merchant;
  let globexIds: Set<string>;

  beforeAll(async () => {
    stack = await startStack();
    acme = await claimedMerchant(stack.db);
    globex = await claimedMerchant(stack.db);
    await seedMerchantVolume(stack.db, [acme.merchantId], { invoices: 30, payments: 30, links: 4 });
    await seedMerchantVolume(stack.db, [globex.merchantId], {
      invoices: 40,
      payments: 50,
      links: 6,
    });
    const rows = await stack.db
      .selectFrom("app.invoices")
      .select("id")
      .where("merchant_id", "=", globex.merchantId)
      .union(
        stack.db
          .selectFrom("app.payment_links")
          .select("id")
          .where("merchant_id", "=", globex.merchantId),
      )
      .execute();
    globexIds = new Set(rows.map((r) => r.id));
  });
  afterAll(async () => {
    await stack?.stop();
  });

  test("lists, filters and searches hold only the key's merchant's rows", async () => {
    const invoices = await walkList(stack, acme.key, "/api/invoices?limit=9");
    expect(invoices.length).toBe(30);
    expect(invoices.filter((r) => globexIds.has(r.invoice_id as string))).toEqual([]);
    // Globex's vendors have the same names (the seed's): found only among acme's own.
    const searched = await walkList(stack, acme.key, "/api/invoices?q=vendor&limit=200");
    expect(searched.filter((r) => globexIds.has(r.invoice_id as string))).toEqual([]);
    const links = await walkList(stack, acme.key, "/api/links");
    expect(links.length).toBe(4);
    expect(links.filter((r) => globexIds.has(r.link_id as string))).toEqual([]);
    const payments = await walkList(stack, acme.key, "/api/payments?limit=7");
    expect(payments.length).toBe(30);
    expect(payments.filter((r) => globexIds.has(r.invoice_id as string))).toEqual([]);
  });

  test("globex's cursor, invoice id or slug in acme's requests: still only acme's rows, or a 404", async () => {
    const theirs = await getPage(stack, globex.key, "/api/invoices?limit=3");
    const withTheirCursor = await walkList(
      stack,
      acme.key,
      `/api/invoices?cursor=${encodeURIComponent(theirs.next as string)}`,
    );
    expect(withTheirCursor.filter((r) => globexIds.has(r.invoice_id as string))).toEqual([]);
    const invoiceId = theirs.data[0]?.invoice_id as string;
    expect(await walkList(stack, acme.key, `/api/payments?invoice_id=${invoiceId}`)).toEqual([]);

    const link = (await (
      await stack.request("/api/links", {
        method: "POST",
        json: linkRequest({ merchant_email: globex.email }),
        headers: bearer(globex.key),
      })
    ).json()) as Json;
    const probe = await stack.request(`/api/links/${link.slug}`, { headers: bearer(acme.key) });
    expect(probe.status).toBe(404);
    expect(await probe.text()).not.toContain(link.slug as string);
  });

  test("the exports hold only the key's merchant's rows", async () => {
    for (const path of ["/api/exports/invoices.csv", "/api/exports/payments.csv"]) {
      const response = await stack.request(path, { headers: bearer(acme.key) });
      expect(response.status).toBe(200);
      const rows = parse(await response.text(), { bom: true, columns: true }) as Json[];
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.filter((r) => globexIds.has(r.invoice_id as string))).toEqual([]);
    }
  });
});
