import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { bearer, claimedMerchant } from "../accounts/accounts.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";
import { csrfOf, postForm, signInByFetch } from "./dashboard.ts";

/** Session expiry (idle and absolute), and one merchant's dashboard never showing another's. */
describe("dashboard sessions", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ worker: true });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const status = async (cookie: string, path = "/dashboard") =>
    (await stack.request(path, { headers: { cookie }, redirect: "manual" })).status;
  const sessionOf = async (merchantId: string) =>
    stack.db
      .selectFrom("app.dashboard_sessions")
      .selectAll()
      .where("merchant_id", "=", merchantId)
      .executeTakeFirstOrThrow();

  test("idle for over 60 minutes, or past 12 hours: back to sign-in; activity restarts the idle clock", async () => {
    const idle = await claimedMerchant(stack.db);
    const old = await claimedMerchant(stack.db);
    const { cookie: idleCookie } = await signInByFetch(stack, idle.email);
    const { cookie: oldCookie } = await signInByFetch(stack, old.email);
    expect(await status(idleCookie)).toBe(200);

    // 59 idle minutes: still signed in, and the request restarts the clock.
    await stack.db
      .updateTable("app.dashboard_sessions")
      .set({ last_seen_at: sql<Date>`now() - interval '59 minutes'` })
      .where("merchant_id", "=", idle.merchantId)
      .execute();
    expect(await status(idleCookie)).toBe(200);
    const touched = await sessionOf(idle.merchantId);
    expect(Date.now() - touched.last_seen_at.getTime()).toBeLessThan(60_000);

    await stack.db
      .updateTable("app.dashboard_sessions")
      .set({ last_seen_at: sql<Date>`now() - interval '61 minutes'` })
      .where("merchant_id", "=", idle.merchantId)
      .execute();
    const response = await stack.request("/dashboard", {
      headers: { cookie: idleCookie },
      redirect: "manual",
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/dashboard/sign-in");

    // Active all along, but signed in more than 12 hours ago.
    const session = await sessionOf(old.merchantId);
    expect(session.expires_at.getTime() - session.created_at.getTime()).toBe(12 * 3_600_000);
    await stack.db
      .updateTable("app.dashboard_sessions")
      .set({ expires_at: sql<Date>`now() - interval '1 second'` })
      .where("merchant_id", "=", old.merchantId)
      .execute();
    expect(await status(oldCookie)).toBe(303);
  });

  test("another merchant's invoice is not found, and never listed", async () => {
    const owner = await claimedMerchant(stack.db);
    const other = await claimedMerchant(stack.db);
    const created = await stack.request("/api/invoices", {
      method: "POST",
      json: invoiceRequest({ merchant_email: owner.email, vendor_name: "Initech Owner-Only" }),
      headers: bearer(owner.key),
    });
    expect(created.status).toBe(201);
    const { invoice_id: id } = (await created.json()) as { invoice_id: string };
    const { cookie: owners } = await signInByFetch(stack, owner.email);
    const { cookie: others } = await signInByFetch(stack, other.email);
    expect(await status(owners, `/dashboard/invoices/${id}`)).toBe(200);
    expect(await status(others, `/dashboard/invoices/${id}`)).toBe(404);
    const list = await (
      await stack.request("/dashboard/invoices?q=Initech", { headers: { cookie: others } })
    ).text();
    expect(list).not.toContain("Initech Owner-Only");
    // Nor can the other merchant redeliver its webhooks, even with a valid form.
    const csrf = await csrfOf(stack, others);
    const redeliver = await postForm(
      stack,
      `/dashboard/invoices/${id}/events/00000000-0000-4000-8000-000000000000/redeliver`,
      { _csrf: csrf },
      { cookie: others },
    );
    expect(redeliver.status).toBe(404);
  });
});
