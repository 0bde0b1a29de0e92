import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { currentDocument } from "../../../scripts/generate-client.ts";
import { Remit } from "../src/index.ts";
import { scriptedApi } from "./scriptedApi.ts";

/**
 * One call of every method of the client, with placeholder arguments: the requests they make
 * are matched with the API's OpenAPI document. A route added to the API without a method here,
 * or a method added without a line here, fails a test below.
 */
const CALLS: Record<string, (remit: Remit) => Promise<unknown>> = {
  "invoices.create": (r) => r.invoices.create({} as never),
  "invoices.get": (r) => r.invoices.get("id-1"),
  "invoices.list": (r) => r.invoices.list().firstPage(),
  "invoices.status": (r) => r.invoices.status("id-1"),
  "invoices.send": (r) => r.invoices.send("id-1"),
  "invoices.void": (r) => r.invoices.void("id-1"),
  "invoices.pdf": (r) => r.invoices.pdf("id-1"),
  "invoices.einvoice": (r) => r.invoices.einvoice("id-1", "ubl"),
  "creditNotes.create": (r) => r.creditNotes.create("id-1", { full: true, reason: "r" }),
  "creditNotes.get": (r) => r.creditNotes.get("id-1"),
  "creditNotes.list": (r) => r.creditNotes.list({ invoice_id: "id-1" }),
  "creditNotes.pdf": (r) => r.creditNotes.pdf("id-1"),
  "creditNotes.einvoice": (r) => r.creditNotes.einvoice("id-1", "cii"),
  "invoices.pdfBySlug": (r) => r.invoices.pdfBySlug("slug-1"),
  "invoices.refund": (r) => r.invoices.refund("id-1", {}),
  "invoices.webhooks": (r) => r.invoices.webhooks("id-1"),
  "invoices.redeliver": (r) => r.invoices.redeliver("id-1", "event-1"),
  "invoices.remind": (r) => r.invoices.remind("id-1"),
  "links.create": (r) => r.links.create({} as never),
  "links.get": (r) => r.links.get("slug-1"),
  "links.list": (r) => r.links.list().firstPage(),
  "links.refund": (r) => r.links.refund("slug-1", {}),
  "payouts.create": (r) => r.payouts.create({} as never),
  "payouts.list": (r) => r.payouts.list(),
  "payments.list": (r) => r.payments.list().firstPage(),
  "payments.status": (r) => r.payments.status("slug-1"),
  "payments.authorize": (r) => r.payments.authorize("slug-1", {} as never),
  "payments.authorization": (r) => r.payments.authorization("slug-1", "id-1"),
  "transactions.get": (r) => r.transactions.get(`0x${"ab".repeat(32)}`),
  "x402.pay": (r) => r.x402.pay("slug-1"),
  "merchants.claim": (r) => r.merchants.claim("billing@acme.example"),
  "keys.list": (r) => r.keys.list(),
  "keys.create": (r) => r.keys.create({} as never),
  "keys.revoke": (r) => r.keys.revoke("id-1"),
  "members.list": (r) => r.members.list(),
  "members.invite": (r) => r.members.invite({} as never),
  "members.update": (r) => r.members.update("id-1", {} as never),
  "members.remove": (r) => r.members.remove("id-1"),
  "wallets.list": (r) => r.wallets.list(),
  "wallets.add": (r) => r.wallets.add({} as never),
  "wallets.remove": (r) => r.wallets.remove("0xabc"),
  "settings.get": (r) => r.settings.get(),
  "settings.update": (r) => r.settings.update({}),
  "audit.list": (r) => r.audit.list().firstPage(),
  "events.list": (r) => r.events.list().firstPage(),
  "events.get": (r) => r.events.get("id-1"),
  "webhookEndpoints.create": (r) => r.webhookEndpoints.create({} as never),
  "webhookEndpoints.list": (r) => r.webhookEndpoints.list(),
  "webhookEndpoints.get": (r) => r.webhookEndpoints.get("id-1"),
  "webhookEndpoints.update": (r) => r.webhookEndpoints.update("id-1", {}),
  "webhookEndpoints.delete": (r) => r.webhookEndpoints.delete("id-1"),
  "webhookEndpoints.rotateSecret": (r) => r.webhookEndpoints.rotateSecret("id-1"),
  "webhookEndpoints.test": (r) => r.webhookEndpoints.test("id-1"),
  "exports.invoices": (r) => r.exports.invoices({} as never),
  "exports.payments": (r) => r.exports.payments({} as never),
  "exports.receivables": (r) => r.exports.receivables(),
  "schedules.create": (r) => r.schedules.create({} as never),
  "schedules.list": (r) => r.schedules.list().firstPage(),
  "schedules.get": (r) => r.schedules.get("id-1"),
  "schedules.update": (r) => r.schedules.update("id-1", {} as never),
  "schedules.pause": (r) => r.schedules.pause("id-1"),
  "schedules.resume": (r) => r.schedules.resume("id-1"),
  "schedules.cancel": (r) => r.schedules.cancel("id-1"),
  "schedules.run": (r) => r.schedules.run("id-1"),
  "reminders.policy": (r) => r.reminders.policy(),
  "reminders.updatePolicy": (r) => r.reminders.updatePolicy({} as never),
  "reminders.send": (r) => r.reminders.send("id-1"),
  "receivables.report": (r) => r.receivables.report(),
  "receivables.csv": (r) => r.receivables.csv(),
};

/** `group.method` for every method of the client's groups (`remit.invoices.create`, …). */
function clientMethods(remit: Remit): string[] {
  return Object.entries(remit).flatMap(([group, value]) =>
    value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype
      ? Object.entries(value as Record<string, unknown>)
          .filter(([, member]) => typeof member === "function")
          .map(([name]) => `${group}.${name}`)
      : [],
  );
}

type Operation = { method: string; template: string; pattern: RegExp; params: number };

/** The document's operations, `GET /api/invoices/{id}` and so on. */
async function documentOperations(): Promise<Operation[]> {
  const document = await currentDocument();
  return Object.entries(document.paths ?? {}).flatMap(([template, item]) =>
    Object.keys(item ?? {})
      .filter((method) => ["get", "post", "put", "patch", "delete"].includes(method))
      .map((method) => ({
        method: method.toUpperCase(),
        template,
        pattern: new RegExp(`^${template.replace(/\{\w+\}/g, "[^/]+")}$`),
        params: (template.match(/\{/g) ?? []).length,
      })),
  );
}

const routeName = (method: string, template: string) => `${method} ${template}`;

describe("the typed client covers the API", () => {
  let operations: Operation[];
  /** The routes each method's call requested, as document templates (or the bare path). */
  const requested = new Map<string, string[]>();
  let api: Awaited<ReturnType<typeof scriptedApi>>;

  beforeAll(async () => {
    operations = await documentOperations();
    // One answer fits every call: each reads only its own fields of it.
    api = await scriptedApi(() => ({
      status: 200,
      json: { data: [], next_cursor: null, entries: [], next_before: null, keys: [] },
    }));
    const remit = new Remit({ baseUrl: api.url, apiKey: "remit_sk_test", maxRetries: 0 });
    for (const [name, call] of Object.entries(CALLS)) {
      const before = api.seen.length;
      await call(remit);
      requested.set(
        name,
        api.seen.slice(before).map(({ method, url }) => {
          const path = new URL(url, "http://api").pathname;
          const match = operations
            .filter((op) => op.method === method && op.pattern.test(path))
            .sort((a, b) => a.params - b.params)[0];
          return routeName(method, match?.template ?? `${path} (not in the document)`);
        }),
      );
    }
  });
  afterAll(() => api?.stop());

  test("every operation of the OpenAPI document has a method", () => {
    const covered = new Set([...requested.values()].flat());
    const missing = operations
      .map((op) => routeName(op.method, op.template))
      .filter((route) => !covered.has(route));
    expect(missing).toEqual([]);
    // The scan sees the routes it judges.
    expect(operations.length).toBeGreaterThan(50);
  });

  test("every method requests one route of the document", () => {
    for (const [name, routes] of requested) {
      expect(routes, name).toHaveLength(1);
      expect(routes[0], name).not.toMatch(/not in the document/);
    }
  });

  test("every method of the client is called above", () => {
    const remit = new Remit({ baseUrl: "http://api.invalid" });
    expect(clientMethods(remit).sort()).toEqual(Object.keys(CALLS).sort());
  });
});
