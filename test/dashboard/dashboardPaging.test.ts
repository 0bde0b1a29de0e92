import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { insertDashboardSession } from "../../db/queries/dashboardSessions.ts";
import { hashSecretToken } from "../../domain/apiKeys.ts";
import { newDashboardSessionToken } from "../../domain/dashboardSession.ts";
import { bearer, claimedMerchant } from "../accounts/accounts.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";

/**
 * The dashboard's lists page by the API's keyset cursors (Next / Newer), not by offset: every
 * invoice once across the pages, back to the same newest page, and a forged cursor shows the
 * newest page rather than an error.
 */
describe("dashboard paging", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({});
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const numbers = (html: string) =>
    [...html.matchAll(/href="\/dashboard\/invoices\/[0-9a-f-]{36}">(INV-\d+)</g)].map((m) => m[1]);
  const linkOf = (html: string, text: string) => {
    const match = new RegExp(`<a href="([^"]+)">${text}</a>`).exec(html);
    return match?.[1]?.replace(/&amp;/g, "&");
  };

  test("Next and Newer walk the invoices by cursor, each once, filters kept", async () => {
    const merchant = await claimedMerchant(stack.db);
    for (let i = 0; i < 27; i++) {
      const created = await stack.request("/api/invoices", {
        method: "POST",
        json: invoiceRequest({ merchant_email: merchant.email }),
        headers: bearer(merchant.key),
      });
      expect(created.status).toBe(201);
    }
    const token = newDashboardSessionToken();
    await insertDashboardSession(stack.db, {
      merchantId: merchant.merchantId,
      tokenHash: hashSecretToken(token),
      absoluteMinutes: 60,
    });
    const cookie = `remit_dashboard=${token}`;
    const page = async (path: string) => {
      const response = await stack.request(path, { headers: { cookie } });
      expect(response.status, path).toBe(200);
      return response.text();
    };

    const first = await page("/dashboard/invoices?status=sent");
    expect(numbers(first)).toHaveLength(25);
    expect(numbers(first)[0]).toBe("INV-0027");
    expect(linkOf(first, "← Newer")).toBeUndefined();
    const next = linkOf(first, "Next →");
    expect(next).toMatch(/^\/dashboard\/invoices\?status=sent&after=[A-Za-z0-9_-]+&newer=$/);

    const second = await page(String(next));
    expect(numbers(second)).toEqual(["INV-0002", "INV-0001"]);
    expect(linkOf(second, "Next →")).toBeUndefined();
    const newer = linkOf(second, "← Newer");
    expect(newer).toBe("/dashboard/invoices?status=sent");
    expect(numbers(await page(String(newer)))).toEqual(numbers(first));
    expect(new Set([...numbers(first), ...numbers(second)]).size).toBe(27);

    // A cursor of another list, or none at all: the newest page, never an error.
    const forged = await page("/dashboard/invoices?after=bm9wZQ&newer=x");
    expect(numbers(forged)).toEqual(numbers(first));
  });
});
