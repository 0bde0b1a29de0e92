import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { claimedMerchant, type Merchant } from "../accounts/accounts.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { callAs, postSchedule, scheduleTemplate } from "./fixtures.ts";

type Json = Record<string, unknown>;
type Fields = { error: { fields: { path: string; code: string; message: string }[] } };

/**
 * A schedule priced in a currency (issue 45): its template's `currency`, checked as
 * POST /api/invoices checks it (field errors under `invoice.`), shown as the schedule's
 * `currency`, and every invoice it issues priced in it (each line to the cent).
 */
describe("schedules priced in a currency", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });
  const call = callAs(() => stack);
  const schedulesOf = (merchant: Merchant) =>
    stack.db
      .selectFrom("app.invoice_schedules")
      .select("id")
      .where("merchant_id", "=", merchant.merchantId)
      .execute();
  // 1.5 × 33.33 is 49.995: in EUR each line settles to the cent, 50.00.
  const lines = [{ description: "Retainer", quantity: 1.5, unit_price: "33.33" }];

  test("an EUR template: the schedule says EUR, and the invoices it issues are priced in it", async () => {
    const merchant = await claimedMerchant(stack.db);
    const created = await postSchedule(stack, merchant, {}, { currency: "EUR", line_items: lines });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ currency: "EUR", invoice: { currency: "EUR" } });
    const id = (created.body as Json).schedule_id as string;

    const run = await call(merchant, "POST", `/api/invoice-schedules/${id}/run`);
    expect(run.status).toBe(201);
    expect(run.body).toMatchObject({ total_amount: "50.00" });
    const detail = await call(merchant, "GET", `/api/invoices/${run.body.invoice_id}`);
    expect(detail.body).toMatchObject({
      currency: "EUR",
      total_amount: "50.00",
      amount_due: "50.00",
      line_items: [expect.objectContaining({ unit_price: "33.33", line_total: "50.00" })],
    });

    // A change of template may change the currency of what is still to come.
    const changed = await call(merchant, "PATCH", `/api/invoice-schedules/${id}`, {
      invoice: scheduleTemplate(merchant, { currency: "GBP", line_items: lines }),
    });
    expect(changed.body).toMatchObject({ currency: "GBP" });
    const next = await call(merchant, "POST", `/api/invoice-schedules/${id}/run`);
    expect(
      (await call(merchant, "GET", `/api/invoices/${next.body.invoice_id}`)).body,
    ).toMatchObject({ currency: "GBP", total_amount: "50.00" });
  });

  test("a template without currency is USDC, as before", async () => {
    const merchant = await claimedMerchant(stack.db);
    const created = await postSchedule(stack, merchant, {}, { line_items: lines });
    expect(created.body).toMatchObject({ currency: "USDC" });
    expect((created.body as { invoice: Json }).invoice).not.toHaveProperty("currency");
    const id = (created.body as Json).schedule_id as string;
    const run = await call(merchant, "POST", `/api/invoice-schedules/${id}/run`);
    expect(run.body).toMatchObject({ total_amount: "49.995" });
  });

  test("what POST /api/invoices refuses in a currency is refused at the template's field, and nothing is stored", async () => {
    const merchant = await claimedMerchant(stack.db);
    const refusals = [
      [{ currency: "XYZ" }, "invoice.currency", "invalid_enum"],
      [
        { currency: "EUR", line_items: [{ description: "x", quantity: 1, unit_price: "12.505" }] },
        "invoice.line_items[0].unit_price",
        "too_many_decimals",
      ],
      // 0.001 × 1.00 is 0.00 EUR to the cent (0.001 USDC would be a total): priced as the
      // invoice will be, so the schedule is not paused at its first period for it.
      [
        {
          currency: "EUR",
          line_items: [{ description: "x", quantity: 0.001, unit_price: "1.00" }],
        },
        "invoice.line_items",
        "zero_total",
      ],
    ] as const;
    for (const [template, path, code] of refusals) {
      const refused = await postSchedule(stack, merchant, {}, template);
      expect(refused.status, JSON.stringify(template)).toBe(400);
      const fields = (refused.body as unknown as Fields).error.fields;
      expect(fields).toContainEqual(expect.objectContaining({ path, code }));
      // The same refusal, field for field, as POST /api/invoices gives it.
      const direct = await call(merchant, "POST", "/api/invoices", {
        ...scheduleTemplate(merchant, template),
        due_date: "2099-01-01",
      });
      expect(fields).toEqual(
        (direct.body as unknown as Fields).error.fields.map((f) => ({
          ...f,
          path: `invoice.${f.path}`,
        })),
      );
    }
    expect(await schedulesOf(merchant)).toEqual([]);
  });
});
