import { parse } from "csv-parse/sync";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Remit } from "../../clients/typescript/src/index.ts";
import { answer, bearer, claimedMerchant, codeOf, type Merchant } from "../accounts/accounts.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { startWebhookReceiver } from "../helpers/webhookReceiver.ts";
import { priced, until } from "../refunds/helpers.ts";
import { invoiceRequest } from "./fixtures.ts";

type Json = Record<string, unknown>;

/**
 * `metadata` on invoices (issue 42), as payment links have it: the same limits and rules (one
 * schema), returned by the invoice's detail and the list, which filters on a key
 * (`?metadata[order_id]=1042`, the typed client's `metadata: {…}` too), in the CSV export, and
 * in the invoice's webhooks and event log.
 */
describe("invoice metadata", () => {
  const chain = useChainForFile();
  let stack: TestStack;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let acme: Merchant;

  beforeAll(async () => {
    await chain.snapshot();
    receiver = await startWebhookReceiver();
    stack = await startStack({ worker: true, indexer: true });
    acme = await claimedMerchant(stack.db);
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.stop();
    await chain.revert();
  });

  const call = async (method: string, path: string, json?: unknown) =>
    answer(
      await stack.request(path, {
        method,
        headers: bearer(acme.key),
        ...(json === undefined ? {} : { json }),
      }),
    );
  const create = async (overrides: Json) => {
    const created = await call(
      "POST",
      "/api/invoices",
      invoiceRequest({ merchant_email: acme.email, ...overrides }),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body as Json & { invoice_id: string; deposit_address: Address };
  };
  const listed = async (query: string) => {
    const page = await call("GET", `/api/invoices?limit=200&${query}`);
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    return (page.body.data as Json[]).map((row) => row.invoice_id);
  };

  test("the same rules as links: at most 20 flat keys, values strings, numbers, booleans or null", async () => {
    const cases: [unknown, string, string][] = [
      [{ order: { nested: true } }, "metadata.order", "invalid_metadata_value"],
      [{ note: "x".repeat(501) }, "metadata.note", "invalid_metadata_value"],
      [
        Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, i])),
        "metadata",
        "too_many",
      ],
    ];
    for (const [metadata, path, code] of cases) {
      const refused = await call(
        "POST",
        "/api/invoices",
        invoiceRequest({ merchant_email: acme.email, metadata }),
      );
      expect(refused.status).toBe(400);
      const fields = (refused.body.error as { fields: Json[] }).fields;
      expect(fields, JSON.stringify(metadata).slice(0, 80)).toContainEqual(
        expect.objectContaining({ path, code }),
      );
      // The link endpoint answers the same body for the same metadata: one schema.
      const link = await call("POST", "/api/links", {
        merchant_email: acme.email,
        amount: "1.00",
        description: "x",
        wallet_type: "managed",
        metadata,
      });
      expect((link.body.error as { fields: Json[] }).fields).toEqual(fields);
    }
    const badKey = await call(
      "POST",
      "/api/invoices",
      invoiceRequest({ merchant_email: acme.email, metadata: { "order id": "1" } }),
    );
    expect(badKey.status).toBe(400);
  });

  test("round trip: the detail, the list and its filter by key, the CSV", async () => {
    const metadata = { order_id: "1042", customer: "cus_77", priority: 2, gift: false, note: null };
    const tagged = await create({ metadata });
    const numeric = await create({ metadata: { order_id: 1042 } });
    const other = await create({ metadata: { order_id: "1043", customer: "cus_77" } });
    const plain = await create({});

    const detail = await call("GET", `/api/invoices/${tagged.invoice_id}`);
    expect(detail.body.metadata).toEqual(metadata);
    expect((await call("GET", `/api/invoices/${plain.invoice_id}`)).body.metadata).toEqual({});

    const all = await call("GET", "/api/invoices?limit=200");
    const row = (all.body.data as Json[]).find((r) => r.invoice_id === tagged.invoice_id);
    expect(row?.metadata).toEqual(metadata);

    // One key: the string and the number it spells; two keys: both must match.
    expect((await listed("metadata[order_id]=1042")).sort()).toEqual(
      [tagged.invoice_id, numeric.invoice_id].sort(),
    );
    expect((await listed("metadata[customer]=cus_77")).sort()).toEqual(
      [tagged.invoice_id, other.invoice_id].sort(),
    );
    expect(await listed("metadata[customer]=cus_77&metadata[order_id]=1042")).toEqual([
      tagged.invoice_id,
    ]);
    expect(await listed("metadata[gift]=false")).toEqual([tagged.invoice_id]);
    expect(await listed("metadata[priority]=2")).toEqual([tagged.invoice_id]);
    expect(await listed("metadata[order_id]=9999")).toEqual([]);
    // With the other filters, and in the typed client (`metadata[order_id]=…` on the wire).
    expect(await listed("status=sent,overdue&metadata[order_id]=1043")).toEqual([other.invoice_id]);
    const remit = new Remit({ baseUrl: stack.api.url, apiKey: acme.key });
    const viaClient: string[] = [];
    for await (const invoice of remit.invoices.list({ metadata: { order_id: "1043" } }))
      viaClient.push(invoice.invoice_id);
    expect(viaClient).toEqual([other.invoice_id]);

    // Another merchant's invoice with the same key is never listed.
    const stranger = await claimedMerchant(stack.db);
    const theirs = await answer(
      await stack.request("/api/invoices", {
        method: "POST",
        headers: bearer(stranger.key),
        json: invoiceRequest({ merchant_email: stranger.email, metadata: { order_id: "1042" } }),
      }),
    );
    expect(theirs.status).toBe(201);
    expect(await listed("metadata[order_id]=1042")).not.toContain(theirs.body.invoice_id);

    // A bad filter is a 400 naming it; a parameter the list does not know still is.
    const badKey = await call("GET", "/api/invoices?metadata[order%20id]=1");
    expect([badKey.status, codeOf(badKey.body)]).toEqual([400, "validation_failed"]);
    expect((badKey.body.error as { fields: Json[] }).fields[0]).toMatchObject({
      path: "metadata[order id]",
      code: "invalid_metadata_key",
    });
    const long = await call("GET", `/api/invoices?metadata[order_id]=${"x".repeat(501)}`);
    expect(long.status).toBe(400);
    const unknown = await call("GET", "/api/invoices?metadata_order_id=1");
    expect((unknown.body.error as { fields: Json[] }).fields[0]).toMatchObject({
      path: "metadata_order_id",
      code: "unknown_field",
    });

    // The CSV: a `metadata` column, JSON on each line of the invoice, empty without any.
    const csv = await stack.request("/api/exports/invoices.csv?bom=false", {
      headers: bearer(acme.key),
    });
    const records = parse(await csv.text(), { columns: true }) as Record<string, string>[];
    const lines = records.filter((r) => r.invoice_id === tagged.invoice_id);
    expect(lines.length).toBe(2);
    for (const line of lines) expect(JSON.parse(line.metadata ?? "")).toEqual(metadata);
    expect(records.find((r) => r.invoice_id === plain.invoice_id)?.metadata).toBe("");
  });

  test("a payment's webhook and the event log carry the invoice's metadata", async () => {
    const invoice = await create({
      ...priced("2.00"),
      webhook_url: receiver.url,
      metadata: { order_id: "A-7" },
    });
    await chain.payUsdc(devAccount(3), invoice.deposit_address, 2_000_000n);
    const hook = await until("the invoice.paid webhook", async () =>
      receiver.received.find((h) => h.body.includes(invoice.invoice_id)),
    );
    expect(JSON.parse(hook.body)).toMatchObject({
      type: "invoice.paid",
      invoice_id: invoice.invoice_id,
      metadata: { order_id: "A-7" },
    });
    const events = await call("GET", "/api/events?type=invoice.paid");
    const event = (events.body.data as Json[]).find((e) => e.invoice_id === invoice.invoice_id);
    expect(event?.metadata).toEqual({ order_id: "A-7" });
  });

  test("a schedule's template carries metadata to every invoice it issues", async () => {
    const {
      issue_date: _i,
      due_date: _d,
      ...template
    } = invoiceRequest({
      merchant_email: acme.email,
      metadata: { plan: "pro" },
    });
    const schedule = await call("POST", "/api/invoice-schedules", {
      invoice: template,
      interval: "monthly",
      start_date: "2040-01-01",
      days_until_due: 7,
    });
    expect(schedule.status, JSON.stringify(schedule.body)).toBe(201);
    const run = await call("POST", `/api/invoice-schedules/${schedule.body.schedule_id}/run`);
    expect(run.status, JSON.stringify(run.body)).toBe(201);
    expect(await listed("metadata[plan]=pro")).toHaveLength(1);
  });
});
