import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { seedMerchantVolume } from "../../bench/listsSeed.ts";
import type { Db } from "../../db/database.ts";
import { listInvoices, SEARCH_MATCH_CAP } from "../../db/queries/invoiceLists.ts";
import { containsPattern } from "../../db/queries/listPage.ts";
import { utcToday } from "../../domain/invoiceStatus.ts";
import { decodeListCursor } from "../../domain/listCursor.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";

/**
 * The invoice search (`q`) finds by index keys (migration 0048) what ILIKE finds: the keys only
 * narrow the candidates, so a key a matching document lacks would hide an invoice. Checked
 * against plain ILIKE on the search documents, page by page, on a seeded and analysed merchant
 * large enough for every way a search goes (rare term, common term, more matches than the cap,
 * no keys).
 */
describe("invoice search", () => {
  let database: TestDatabase;
  let db: Db;
  let merchant: string;
  const today = utcToday();

  beforeAll(async () => {
    database = await createTestDatabase();
    db = database.db;
    const [made] = await db
      .insertInto("app.merchants")
      .values([
        { email: `search-${randomUUID()}@example.com` },
        { email: `other-${randomUUID()}@example.com` },
      ])
      .returning("id")
      .execute();
    merchant = made?.id ?? "";
    const others = await db
      .selectFrom("app.merchants")
      .select("id")
      .where("id", "!=", merchant)
      .execute();
    await seedMerchantVolume(db, [merchant], {
      invoices: SEARCH_MATCH_CAP + 700,
      payments: 10,
      links: 0,
    });
    await seedMerchantVolume(
      db,
      others.map((o) => o.id),
      { invoices: 300, payments: 0, links: 0 },
    );
  }, 120_000);
  afterAll(async () => {
    await database?.drop();
  });

  /** What plain ILIKE on the merchant's search documents finds, newest first. */
  async function expected(term: string): Promise<string[]> {
    const { rows } = await sql<{ id: string }>`
      select f.invoice_id as id from app.invoice_search f
      where f.merchant_id = ${merchant} and f.document ilike ${containsPattern(term)}
      order by f.created_at desc, f.invoice_id desc`.execute(db);
    return rows.map((row) => row.id);
  }

  /** Every id the list finds for `term`, through its cursors, `limit` per page. */
  async function searched(term: string, limit: number): Promise<string[]> {
    const ids: string[] = [];
    let after: ReturnType<typeof decodeListCursor> = null;
    for (;;) {
      const page = await listInvoices(db, merchant, { today, q: term }, { limit, after });
      ids.push(...page.rows.map((row) => row.id));
      if (!page.nextCursor) return ids;
      after = decodeListCursor("invoices", page.nextCursor);
    }
  }

  const terms = [
    "Vendor 417", // rare: one key not among the most common
    "billing41", // rare, in the email
    "vendor 41", // every key common, few matches: its least common key
    "Consulting", // in every invoice: more matches than the cap
    "premium", // a quarter of them
    "INV-0004", // the number
    "41", // no keys: under three letters
    " 41", // a word boundary inside the term
    "dor 9",
    "ENDOR",
    "example",
    "@vendor1",
    "%",
    "nothing like it",
  ];

  test.each(terms)(
    "%j: the same invoices as ILIKE, page by page",
    async (term) => {
      const want = await expected(term);
      // Pages of 50 (the default) and of 7 (cursors deep into the walk); both in full when short.
      expect(await searched(term, 50)).toEqual(want);
      if (want.length < 400) expect(await searched(term, 7)).toEqual(want);
    },
    120_000,
  );

  test("with the list's other filters: the same invoices as ILIKE and those filters", async () => {
    const min = 300_000_000n; // 300 USDC: about 70 % of the seeded totals
    for (const term of ["Consulting", "premium", "vendor 41", "Vendor 417", "41"]) {
      const { rows } = await sql<{ id: string }>`
        select i.id from app.invoices i join app.invoice_search f on f.invoice_id = i.id
        where i.merchant_id = ${merchant} and f.document ilike ${containsPattern(term)}
          and i.status = 'paid' and i.total_amount >= ${min}
        order by i.created_at desc, i.id desc`.execute(db);
      if (term === "Consulting") expect(rows.length).toBeGreaterThan(100);
      const ids: string[] = [];
      let after: ReturnType<typeof decodeListCursor> = null;
      for (;;) {
        const page = await listInvoices(
          db,
          merchant,
          { today, q: term, statuses: ["paid"], amountMin: min },
          { limit: 7, after },
        );
        ids.push(...page.rows.map((row) => row.id));
        if (!page.nextCursor) break;
        after = decodeListCursor("invoices", page.nextCursor);
      }
      expect(ids, term).toEqual(rows.map((row) => row.id));
    }
  }, 120_000);

  test("the statistics make some terms common and some rare", async () => {
    await sql`analyze app.invoice_search`.execute(db);
    const kind = async (term: string) =>
      (
        await sql<{ keys: string[]; common: boolean }>`
          select keys, common from app.search_term_keys(${merchant}, ${term})`.execute(db)
      ).rows[0];
    expect((await kind("Consulting"))?.common).toBe(true);
    expect((await kind("Vendor 417"))?.common).toBe(false);
    expect((await kind("41"))?.keys).toEqual([]);
  }, 120_000);

  test("a document's keys hold every key of any piece of it, whatever its case and script", async () => {
    // Substrings of documents with punctuation, digits, accents and other scripts, cut at every
    // place, upper-cased or not: each one's keys are among its document's.
    const documents = [
      "INV-00042 Ünïcødé GmbH rechnung@straße.example Beratung, Projekt 7",
      "O'Brien & Co. — 3×4 widgets (v2.0) naïve café",
      "ΑΒΓ δέλτα 東京 株式会社 x-y_z 100%",
      "  leading and trailing  ",
    ];
    const { rows } = await sql<{ document: string; term: string; found: boolean; keyed: boolean }>`
      with d as (select unnest(${documents}::text[]) as document),
      pieces as (
        select d.document, substr(d.document, s, n) as term
        from d, generate_series(1, length(d.document)) s, generate_series(1, 12) n
        where s + n - 1 <= length(d.document)
      )
      select document, term, document ilike '%' || replace(replace(replace(term, '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%' as found,
        app.search_keys(${merchant}, document) @> app.term_keys(${merchant}, term)
          and app.search_keys(${merchant}, document) @> (app.search_term_keys(${merchant}, term)).keys as keyed
      from (select document, term from pieces union all select document, upper(term) from pieces) p`.execute(
      db,
    );
    expect(rows.length).toBeGreaterThan(1000);
    expect(rows.filter((row) => row.found && !row.keyed)).toEqual([]);
  }, 120_000);
});
