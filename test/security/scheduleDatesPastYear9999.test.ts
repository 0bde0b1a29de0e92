import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { answer, bearer, claimedMerchant, type Merchant } from "../accounts/accounts.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { scheduleTemplate } from "../schedules/fixtures.ts";

type Json = Record<string, unknown>;
type Refused = { error: { fields?: { path: string; code: string }[] } };

/**
 * The attack: schedules whose periods fall after 9999-12-31 (run-now answered 500, Postgres'
 * "time zone displacement out of range"), and monthly ones starting in year 0099 or 0001, whose
 * next date came out as 1999-12-31 or 1901-01-31. Create and PATCH now take dates in the years
 * 1970 to 9000 only (a field's 400); a schedule's periods end at 9999-12-31.
 */
describe("schedule dates outside the calendar's range", () => {
  let stack: TestStack;
  let merchant: Merchant;

  beforeAll(async () => {
    stack = await startStack();
    merchant = await claimedMerchant(stack.db);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const call = async (method: string, path: string, json?: unknown) =>
    answer(
      await stack.request(path, {
        method,
        headers: bearer(merchant.key),
        ...(json === undefined ? {} : { json }),
      }),
    );
  const body = (overrides: Json) => ({
    invoice: scheduleTemplate(merchant),
    interval: "monthly",
    days_until_due: 7,
    ...overrides,
  });

  test("create: start or end before 1970 or after 9000 is a 400 at its field, nothing created", async () => {
    const cases: [Json, string][] = [
      [{ start_date: "0099-01-31" }, "start_date"],
      [{ start_date: "0001-01-01" }, "start_date"],
      [{ start_date: "1969-12-31" }, "start_date"],
      [{ start_date: "9999-12-01" }, "start_date"],
      [{ start_date: "9001-01-01" }, "start_date"],
      [{ start_date: "2030-01-01", end_date: "9999-12-31" }, "end_date"],
    ];
    for (const [dates, path] of cases) {
      const refused = await call("POST", "/api/invoice-schedules", body(dates));
      expect(refused.status, JSON.stringify(dates)).toBe(400);
      expect((refused.body as Refused).error.fields).toEqual([
        expect.objectContaining({ path, code: "out_of_range" }),
      ]);
    }
    const list = await call("GET", "/api/invoice-schedules");
    expect((list.body as { data: unknown[] }).data).toEqual([]);
  });

  test("PATCH: an end date after 9000 is a 400 and changes nothing", async () => {
    const created = await call(
      "POST",
      "/api/invoice-schedules",
      body({ start_date: "2040-01-31" }),
    );
    expect(created.status).toBe(201);
    const id = (created.body as Json).schedule_id as string;
    const refused = await call("PATCH", `/api/invoice-schedules/${id}`, {
      end_date: "9999-12-31",
    });
    expect(refused.status).toBe(400);
    expect((refused.body as Refused).error.fields).toEqual([
      expect.objectContaining({ path: "end_date", code: "out_of_range" }),
    ]);
    const after = await call("GET", `/api/invoice-schedules/${id}`);
    expect((after.body as Json).end_date).toBeNull();
  });

  test("a schedule at the end of the range runs now and stops at 9999-12-31, never a 500", async () => {
    const created = await call(
      "POST",
      "/api/invoice-schedules",
      body({ interval: "every_n_days", n: 366, start_date: "9000-12-31", count: 10_000 }),
    );
    expect(created.status).toBe(201);
    const id = (created.body as Json).schedule_id as string;
    // Move it to its last period as years of runs would, then run past it.
    await stack.db
      .updateTable("app.invoice_schedules")
      .set({ next_period: 995, next_issue_date: "9998-01-23" })
      .where("id", "=", id)
      .execute();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await call("POST", `/api/invoice-schedules/${id}/run`)).status);
    expect(
      statuses.every((s) => s === 201 || s === 409),
      JSON.stringify(statuses),
    ).toBe(true);
    const after = await call("GET", `/api/invoice-schedules/${id}`);
    expect((after.body as Json).status).toBe("completed");
  });
});
