import { expect } from "vitest";
import { answer, bearer, type Merchant } from "../accounts/accounts.ts";
import type { TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";

type Json = Record<string, unknown>;

/** A schedule's template: a valid invoice of `merchant`'s without the dates a schedule sets. */
export function scheduleTemplate(merchant: Merchant, overrides: Json = {}): Json {
  const {
    issue_date: _i,
    due_date: _d,
    ...template
  } = invoiceRequest({ merchant_email: merchant.email, ...overrides });
  return template;
}

/** POST /api/invoice-schedules as `merchant` (a monthly schedule far ahead unless `body` says). */
export async function postSchedule(
  stack: TestStack,
  merchant: Merchant,
  body: Json = {},
  template: Json = {},
) {
  return answer(
    await stack.request("/api/invoice-schedules", {
      method: "POST",
      headers: bearer(merchant.key),
      json: {
        invoice: scheduleTemplate(merchant, template),
        interval: "monthly",
        start_date: "2040-01-01",
        days_until_due: 7,
        ...body,
      },
    }),
  );
}

/** A new schedule's id (see postSchedule), its creation checked. */
export async function newScheduleId(
  stack: TestStack,
  merchant: Merchant,
  body: Json = {},
): Promise<string> {
  const created = await postSchedule(stack, merchant, body);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return (created.body as Json).schedule_id as string;
}

/** A call to the API as `merchant` (its key), with a JSON body when given. */
export const callAs =
  (stack: () => TestStack) =>
  async (merchant: Merchant, method: string, path: string, json?: unknown) =>
    answer(
      await stack().request(path, {
        method,
        headers: bearer(merchant.key),
        ...(json === undefined ? {} : { json }),
      }),
    );
