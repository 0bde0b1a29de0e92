import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { answer, bearer, claimedMerchant, codeOf, type Merchant } from "../accounts/accounts.ts";
import { csrfOf, postForm, signInByFetch } from "../dashboard/dashboard.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";
import { newScheduleId } from "../schedules/fixtures.ts";

const PER_MINUTE = 3;

/**
 * The attack: `POST /api/invoice-schedules/{id}/run` ×100 and the dashboard's
 * `/dashboard/schedules/{id}/run` ×80 each issued (and emailed) every time, while
 * `POST /api/invoices` from the same address was already refused: run-now had no limit of its
 * own. Now run-now, the API's and the dashboard's, charges the invoice-creation budget of
 * POST /api/invoices (one budget per address), and the dashboard's issuing forms a budget per
 * session too.
 */
describe("run-now cannot be looped past the invoice-creation limit", () => {
  let stack: TestStack;
  let merchant: Merchant;

  beforeAll(async () => {
    stack = await startStack({
      worker: true,
      env: { RATE_LIMIT_INVOICES_PER_MIN: String(PER_MINUTE) },
    });
    merchant = await claimedMerchant(stack.db);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const issuedBy = async (scheduleId: string) =>
    (
      await stack.db
        .selectFrom("app.invoices")
        .select("id")
        .where("schedule_id", "=", scheduleId)
        .execute()
    ).length;
  /** The budget's tokens: a full bucket, plus what refilled while the loop ran. */
  const budgetOver = (elapsedMs: number) =>
    PER_MINUTE + Math.floor((elapsedMs * PER_MINUTE) / 60_000);

  test("the dashboard's run-now ×10: the budget's worth issued, the rest 429 and not issued; then the API's is refused too", async () => {
    const scheduleId = await newScheduleId(stack, merchant);
    const { cookie } = await signInByFetch(stack, merchant.email);
    const csrf = await csrfOf(stack, cookie, `/dashboard/schedules/${scheduleId}`);
    const started = Date.now();
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const response = await postForm(
        stack,
        `/dashboard/schedules/${scheduleId}/run`,
        { _csrf: csrf },
        { cookie },
      );
      statuses.push(response.status);
      if (response.status === 429)
        expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    const allowed = budgetOver(Date.now() - started);
    const issued = statuses.filter((s) => s === 303).length;
    expect(issued).toBeGreaterThanOrEqual(1);
    expect(issued).toBeLessThanOrEqual(allowed);
    expect(statuses.filter((s) => s !== 303).every((s) => s === 429)).toBe(true);
    expect(await issuedBy(scheduleId)).toBe(issued);

    // The same address's budget: the API's run-now and POST /api/invoices are refused.
    const run = await answer(
      await stack.request(`/api/invoice-schedules/${scheduleId}/run`, {
        method: "POST",
        headers: bearer(merchant.key),
      }),
    );
    expect([run.status, codeOf(run.body)]).toEqual([429, "rate_limited"]);
    const direct = await stack.request("/api/invoices", {
      method: "POST",
      headers: bearer(merchant.key),
      json: invoiceRequest({ merchant_email: merchant.email }),
    });
    expect(direct.status).toBe(429);
    expect(await issuedBy(scheduleId)).toBe(issued);
  });
});
