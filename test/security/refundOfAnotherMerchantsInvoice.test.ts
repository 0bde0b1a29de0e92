import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { answer, bearer, claimedMerchant, codeOf, readKeyOf } from "../accounts/accounts.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";
import { linkRequest } from "../links/fixtures.ts";
import { freshAddress } from "../refunds/helpers.ts";

/**
 * Refund and void are write routes of the invoice's (or link's) merchant alone: another
 * merchant's key sees a 404, as for an unknown id (no existence oracle), a claimed merchant's
 * invoice without a key is a 401, and the owner's read-only key is a 403. Nothing is written.
 */
describe("refunding or voiding another merchant's invoice", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({});
  });
  afterAll(async () => {
    await stack?.stop();
  });

  test("another merchant's key: 404; no key: 401; a read key: 403; nothing written", async () => {
    const owner = await claimedMerchant(stack.db);
    const other = await claimedMerchant(stack.db);
    const invoice = (await (
      await stack.request("/api/invoices", {
        method: "POST",
        json: invoiceRequest({ merchant_email: owner.email }),
        headers: bearer(owner.key),
      })
    ).json()) as { invoice_id: string };
    const link = (await (
      await stack.request("/api/links", {
        method: "POST",
        json: linkRequest({ merchant_email: owner.email }),
        headers: bearer(owner.key),
      })
    ).json()) as { slug: string };
    const reader = await readKeyOf(stack, owner);
    const routes = [
      [`/api/invoices/${invoice.invoice_id}/refunds`, { to: freshAddress() }],
      [`/api/invoices/${invoice.invoice_id}/refunds`, {}],
      [`/api/links/${link.slug}/refunds`, { to: freshAddress() }],
      [`/api/invoices/${invoice.invoice_id}/void`, undefined],
    ] as const;
    for (const [path, json] of routes) {
      const call = (headers: Record<string, string>) =>
        stack.request(path, { method: "POST", headers, ...(json ? { json } : {}) }).then(answer);
      const foreign = await call(bearer(other.key));
      expect(foreign.status, path).toBe(404);
      expect(codeOf(foreign.body)).toBe("not_found");
      expect((await call({})).status, path).toBe(401);
      expect((await call(bearer(reader))).status, path).toBe(403);
    }
    // Unknown ids and slugs answer the same 404 as someone else's.
    const unknown = await stack
      .request("/api/invoices/00000000-0000-4000-8000-000000000000/refunds", {
        method: "POST",
        json: {},
        headers: bearer(other.key),
      })
      .then(answer);
    expect(unknown.status).toBe(404);
    expect((await stack.db.selectFrom("app.refunds").select("id").execute()).length).toBe(0);
    const status = await stack
      .request(`/api/invoices/${invoice.invoice_id}/status`)
      .then((r) => r.json());
    expect(status).toEqual({ status: "sent" });
    const audit = await stack.db
      .selectFrom("app.audit_log")
      .select("action")
      .where("action", "in", ["refund.requested", "invoice.voided"])
      .execute();
    expect(audit).toEqual([]);
  });
});
