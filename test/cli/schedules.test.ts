import { sql } from "kysely";
import { afterAll, beforeAll, expect, test } from "vitest";
import { bearer, claimedMerchant, type Merchant } from "../accounts/accounts.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";
import { runCli } from "./run.ts";

/** `remit invoices remind` and `remit schedules …` over the running API. */
let stack: TestStack;
let acme: Merchant;

beforeAll(async () => {
  stack = await startStack();
  acme = await claimedMerchant(stack.db);
});
afterAll(async () => {
  await stack?.stop();
});

const remit = (args: string[], stdin?: string) =>
  runCli(args, {
    env: { REMIT_API_URL: stack.api.url, REMIT_API_KEY: acme.key },
    ...(stdin === undefined ? {} : { stdin }),
  });

test("invoices remind: a line, or the API's JSON; nothing due is the API's 409, exit 1", async () => {
  const created = await stack.request("/api/invoices", {
    method: "POST",
    json: invoiceRequest({ merchant_email: acme.email }),
    headers: bearer(acme.key),
  });
  const { invoice_id: id } = (await created.json()) as { invoice_id: string };
  // Emailed to the vendor a day ago: a first reminder may go (never within a day of the invoice).
  await sql`update app.invoices set sent_at = sent_at - interval '25 hours'
    where id = ${id}::uuid`.execute(stack.db);
  const json = await remit(["invoices", "remind", id, "--json"]);
  expect(JSON.parse(json.stdout)).toMatchObject({ invoice_id: id, amount_due: "150.125" });
  // The next one waits a day: the API's 429, exit 1.
  const held = await remit(["invoices", "remind", id]);
  expect(held.code).toBe(1);
  expect(held.stderr).toContain("reminded less than 24 hours ago");
  // A second invoice of the same customer, emailed long ago: a line, but not today (one a day).
  const other = await stack.request("/api/invoices", {
    method: "POST",
    json: invoiceRequest({ merchant_email: acme.email }),
    headers: bearer(acme.key),
  });
  const { invoice_id: otherId } = (await other.json()) as { invoice_id: string };
  await sql`update app.invoices set sent_at = sent_at - interval '25 hours'
    where id = ${otherId}::uuid`.execute(stack.db);
  const capped = await remit(["invoices", "remind", otherId]);
  expect(capped.stderr).toContain("at most 1 a day per customer");
  await sql`update app.invoice_reminders set sent_at = sent_at - interval '25 hours'
    where invoice_id = ${id}::uuid`.execute(stack.db);
  const line = await remit(["invoices", "remind", otherId]);
  expect(line.code).toBe(0);
  expect(line.stdout).toMatch(/^reminder [0-9a-f-]{36} queued: 150\.125 USDC still due\n$/);
  await stack.request(`/api/invoices/${id}/void`, { method: "POST", headers: bearer(acme.key) });
  const refused = await remit(["invoices", "remind", id]);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain("nothing is due on this invoice");
});

test("schedules create --stdin, list, run, pause, resume, cancel", async () => {
  const {
    issue_date: _i,
    due_date: _d,
    ...template
  } = invoiceRequest({
    merchant_email: acme.email,
  });
  const body = {
    invoice: template,
    interval: "monthly",
    start_date: "2099-01-31",
    days_until_due: 30,
  };
  const created = await remit(["schedules", "create", "--stdin", "--json"], JSON.stringify(body));
  expect(created.code, created.stderr).toBe(0);
  const { schedule_id: id } = JSON.parse(created.stdout) as { schedule_id: string };
  const list = await remit(["schedules", "list"]);
  expect(list.stdout).toMatch(/^ID\s+STATUS\s+INTERVAL\s+NEXT\s+ISSUED\s+VENDOR/);
  expect(list.stdout).toContain(id);
  const run = await remit(["schedules", "run", id]);
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(/^INV-\d{4}: 150\.125 USDC, sent/);
  expect((await remit(["schedules", "pause", id])).stdout).toContain(
    "paused, monthly, next 2099-02-28, 1 issued",
  );
  expect((await remit(["schedules", "resume", id])).stdout).toContain("active");
  expect((await remit(["schedules", "cancel", id])).stdout).toContain("cancelled");
  const again = await remit(["schedules", "run", id]);
  expect(again.code).toBe(1);
  expect(again.stderr).toContain("this schedule is cancelled");
  const bad = await remit(
    ["schedules", "create", "--stdin"],
    JSON.stringify({ ...body, invoice: {} }),
  );
  expect(bad.code).toBe(1);
  expect(bad.stderr).toContain("invoice.merchant_email");
});
