import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { answer, bearer, claimedMerchant, codeOf, type Merchant } from "../accounts/accounts.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { newScheduleId } from "../schedules/fixtures.ts";

/**
 * The attack: run-now on one schedule, 4 requests at once, over and over: 61 of 150 answered 500
 * ("period N was issued by another run"). Now the run that loses the period answers 409
 * `schedule_busy`; each period is still issued once.
 */
describe("run-now on one schedule in parallel", () => {
  let stack: TestStack;
  let merchant: Merchant;

  beforeAll(async () => {
    stack = await startStack();
    merchant = await claimedMerchant(stack.db);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  test("4 at once, 10 rounds: 201 or 409 schedule_busy, never 500, each period once", async () => {
    const id = await newScheduleId(stack, merchant, { interval: "weekly" });
    const answers: Awaited<ReturnType<typeof answer>>[] = [];
    for (let round = 0; round < 10; round++)
      answers.push(
        ...(await Promise.all(
          Array.from({ length: 4 }, async () =>
            answer(
              await stack.request(`/api/invoice-schedules/${id}/run`, {
                method: "POST",
                headers: bearer(merchant.key),
              }),
            ),
          ),
        )),
      );
    const issued = answers.filter((a) => a.status === 201).length;
    const busy = answers.filter((a) => a.status === 409);
    expect(issued + busy.length, JSON.stringify(answers.map((a) => a.status))).toBe(40);
    expect(issued).toBeGreaterThanOrEqual(10);
    for (const refused of busy) expect(codeOf(refused.body)).toBe("schedule_busy");
    const periods = await stack.db
      .selectFrom("app.invoices")
      .select("schedule_period")
      .where("schedule_id", "=", id)
      .orderBy("schedule_period")
      .execute();
    // One invoice per period, no period twice.
    expect(periods).toHaveLength(issued);
    expect(new Set(periods.map((p) => String(p.schedule_period))).size).toBe(issued);
  });
});
