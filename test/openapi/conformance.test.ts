import { randomUUID } from "node:crypto";
import { encodePaymentSignatureHeader } from "@x402/core/http";
import { sql } from "kysely";
import { type Address, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { REDELIVERIES_PER_INVOICE_PER_HOUR } from "../../app/invoices/queueRedelivery.ts";
import { USDC_ADDRESS } from "../../domain/constants.ts";
import { MAX_WEBHOOK_ENDPOINTS, TEST_EVENTS_PER_HOUR } from "../../domain/webhookEndpoints.ts";
import { waitFor } from "../../internal/process.ts";
import { bearer, claimedMerchant, readKeyOf, registerWallet } from "../accounts/accounts.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { type OpenApiDocument, openApiChecker } from "../helpers/openApi.ts";
import { signedAuthorization } from "../helpers/payerAuthorization.ts";
import type { TestProcess } from "../helpers/processes.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { EVENT_MS } from "../helpers/waits.ts";
import { startWebhookReceiver } from "../helpers/webhookReceiver.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";
import { linkRequest } from "../links/fixtures.ts";
import { until } from "../refunds/helpers.ts";

type Json = Record<string, unknown>;
type Request = RequestInit & { json?: unknown; client?: string };

/** A body the API accepts for no route that takes one: a field it does not know. */
const INVALID = { nonsense: true };
/** One byte more than any JSON body may hold (api/middleware/jsonBody.ts). */
const TOO_LARGE = "x".repeat(256 * 1024 + 1);
const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";
const BUDGET = 3;

/**
 * The published document is the contract: every route of the JSON API is called here, with its
 * successes and each error it documents, on the real stack (a paid invoice swept to its wallet,
 * a paid link, delivered webhooks), and every response's status, media type and body are
 * checked against what /openapi.json says of that route and status, with no field the document
 * does not declare (test/helpers/openApi.ts). The last test requires every documented route and
 * status to have been seen.
 */
describe("every response of the JSON API matches the published /openapi.json", () => {
  const chain = useChainForFile();
  const relayer = generatePrivateKey();
  let stack: TestStack;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let api: ReturnType<typeof openApiChecker>;

  beforeAll(async () => {
    await chain.snapshot();
    await chain.client.setBalance({
      address: privateKeyToAccount(relayer).address,
      value: parseEther("1"),
    });
    receiver = await startWebhookReceiver();
    stack = await startStack({
      worker: true,
      indexer: true,
      env: {
        RELAYER_PRIVATE_KEY: relayer,
        // Behind one (pretend) proxy: each request names its client, so only the 429 test
        // spends a budget.
        TRUST_PROXY: "1",
        RATE_LIMIT_STATUS_PER_MIN: String(BUDGET),
        RATE_LIMIT_INVOICES_PER_MIN: String(BUDGET),
        RATE_LIMIT_LINKS_PER_MIN: String(BUDGET),
        RATE_LIMIT_REDELIVERIES_PER_MIN: String(BUDGET),
        RATE_LIMIT_CLAIMS_PER_MIN: String(BUDGET),
        RATE_LIMIT_GASLESS_PER_MIN: String(BUDGET),
        RATE_LIMIT_TX_LOOKUP_PER_MIN: String(BUDGET),
        RATE_LIMIT_X402_PER_MIN: String(BUDGET),
        // No wait for the receipt: a paid x402 request answers 202 at once.
        X402_SETTLE_WAIT_MS: "0",
        // One refund per merchant an hour: a merchant's second is the route's 429.
        REFUNDS_PER_MERCHANT_PER_HOUR: "1",
        // Long enough for a loaded machine's worker to submit (200); the 202 waits it out.
        RELAYER_SUBMIT_WAIT_MS: "8000",
      },
    });
    api = openApiChecker((await (await stack.request("/openapi.json")).json()) as OpenApiDocument);
  });
  /** A worker started by a test after it stopped the stack's own. */
  let replacement: TestProcess | undefined;
  afterAll(async () => {
    await replacement?.stop();
    await stack?.stop();
    await receiver?.stop();
    await chain.revert();
  });

  let clients = 0;
  /** Calls `path` (an OpenAPI template, `{name}`s filled from `params`) and checks the answer. */
  const call = async (
    method: "get" | "post" | "patch" | "delete",
    path: string,
    params: Record<string, string> = {},
    {
      client = `198.18.${Math.floor(++clients / 200)}.${(clients % 200) + 1}`,
      ...init
    }: Request = {},
  ) => {
    const url = path.replace(/\{(\w+)\}/g, (_, name: string) =>
      encodeURIComponent(params[name] ?? ""),
    );
    const response = await stack.request(url, {
      ...init,
      method: method.toUpperCase(),
      headers: { "X-Forwarded-For": client, ...init.headers },
    });
    const checked = await api.check(method, path, response);
    return { status: checked.status, body: checked.body as Json };
  };
  const createInvoice = async (overrides: Record<string, unknown> = {}) =>
    (await call("post", "/api/invoices", {}, { json: invoiceRequest(overrides) })).body as Json & {
      invoice_id: string;
      slug: string;
      deposit_address: Address;
    };

  /** The errors every creation route documents besides its 429: 400, 409, 413 and 415. */
  const creationErrors = async (path: string, valid: () => Record<string, unknown>) => {
    expect((await call("post", path, {}, { json: INVALID })).status).toBe(400);
    const malformed = { body: "{", headers: { "content-type": "application/json" } };
    expect((await call("post", path, {}, malformed)).status).toBe(400);
    const key = { "Idempotency-Key": randomUUID() };
    const body = valid();
    const first = await call("post", path, {}, { json: body, headers: key });
    expect(first.status).toBe(201);
    // Another body of the same merchant: keys are each merchant's own, so another
    // merchant's request under this key would be a new key, not a conflict.
    const other = { ...body, merchant_name: "Another name" };
    const reused = await call("post", path, {}, { json: other, headers: key });
    expect([reused.status, reused.body.error]).toEqual([
      409,
      expect.objectContaining({ code: "idempotency_key_reused" }),
    ]);
    const large = { body: TOO_LARGE, headers: { "content-type": "application/json" } };
    expect((await call("post", path, {}, large)).status).toBe(413);
    const text = { body: "hello", headers: { "content-type": "text/plain" } };
    expect((await call("post", path, {}, text)).status).toBe(415);
  };

  test("POST /api/invoices: sent, draft, with a webhook secret, replayed; and its errors", async () => {
    expect((await createInvoice()).status).toBe("sent");
    expect((await createInvoice({ send_now: false })).sent_at).toBeNull();
    const request = invoiceRequest({ webhook_url: receiver.url });
    const key = { "Idempotency-Key": randomUUID() };
    const first = await call("post", "/api/invoices", {}, { json: request, headers: key });
    expect(first.body.webhook_secret).toEqual(expect.any(String));
    expect(await call("post", "/api/invoices", {}, { json: request, headers: key })).toEqual(first);
    await creationErrors("/api/invoices", invoiceRequest);
  });

  test("POST /api/links: managed and byo, with a webhook secret, replayed; and its errors", async () => {
    const managed = await call("post", "/api/links", {}, { json: linkRequest() });
    expect(managed.body.merchant_portal).toEqual(expect.any(String));
    const byo = linkRequest({
      wallet_type: "byo",
      wallet_address: privateKeyToAccount(generatePrivateKey()).address,
      webhook_url: receiver.url,
    });
    const key = { "Idempotency-Key": randomUUID() };
    const first = await call("post", "/api/links", {}, { json: byo, headers: key });
    expect([first.body.merchant_portal, first.body.webhook_secret]).toEqual([
      null,
      expect.any(String),
    ]);
    expect(await call("post", "/api/links", {}, { json: byo, headers: key })).toEqual(first);
    await creationErrors("/api/links", linkRequest);
  });

  test("an unpaid invoice: get, pdf, status, send (then 409), webhooks, redeliver; and the 404s", async () => {
    const draft = await createInvoice({ send_now: false });
    const id = { id: draft.invoice_id };
    expect((await call("get", "/api/invoices/{id}", id)).body.status).toBe("draft");
    const pdf = await call("get", "/api/invoices/{id}/pdf", id);
    expect(new TextDecoder().decode((pdf.body as unknown as Uint8Array).slice(0, 5))).toBe("%PDF-");
    expect((await call("get", "/api/invoices/{id}/status", id)).body).toEqual({ status: "draft" });
    expect((await call("post", "/api/invoices/{id}/send", id)).body.status).toBe("sent");
    expect((await call("post", "/api/invoices/{id}/send", id)).status).toBe(409);
    expect((await call("get", "/api/invoices/{id}/webhooks", id)).body).toEqual({ events: [] });
    // No webhook_url: nothing to deliver again, whichever event is named.
    const redeliver = "/api/invoices/{id}/webhooks/{event_id}/redeliver";
    expect((await call("post", redeliver, { ...id, event_id: UNKNOWN_ID })).status).toBe(409);

    for (const unknown of [UNKNOWN_ID, "not-a-uuid"]) {
      const missing = { id: unknown, event_id: UNKNOWN_ID };
      for (const path of [
        "/api/invoices/{id}",
        "/api/invoices/{id}/pdf",
        "/api/invoices/{id}/status",
        "/api/invoices/{id}/webhooks",
      ])
        expect((await call("get", path, missing)).status).toBe(404);
      for (const path of ["/api/invoices/{id}/send", redeliver])
        expect((await call("post", path, missing)).status).toBe(404);
    }
  });

  test("a paid invoice: its counted payment, its sweep, its webhook events and a redelivery", async () => {
    const wallet = privateKeyToAccount(generatePrivateKey()).address;
    const invoice = await createInvoice({
      line_items: [{ description: "Work", quantity: 1, unit_price: "10.00" }],
      wallet_type: "byo",
      wallet_address: wallet,
      webhook_url: receiver.url,
    });
    const id = { id: invoice.invoice_id };
    await chain.payUsdc(devAccount(4), invoice.deposit_address, 10_000_000n);

    // Swept, the sweep indexed and confirmed, the payment counted: the invoice with every field.
    const paid = await waitFor(
      "the payment counted and the sweep confirmed and indexed",
      async () => {
        const { body } = await call("get", "/api/invoices/{id}", id);
        const sweeps = body.sweeps as Json[];
        const payments = body.payments as Json[];
        return (
          payments[0]?.counted === true &&
          sweeps[0]?.status === "confirmed" &&
          sweeps[0]?.indexed === true &&
          body
        );
      },
      { timeoutMs: EVENT_MS, intervalMs: 200 },
    );
    expect([paid.status, paid.paid_amount, paid.amount_due]).toEqual(["paid", "10.00", "0.00"]);
    const status = await call("get", "/api/invoices/{id}/status", id);
    expect(Object.keys(status.body).sort()).toEqual([
      "paid_amount",
      "paid_at",
      "status",
      "tx_hash",
    ]);
    expect((await call("post", "/api/invoices/{id}/send", id)).status).toBe(409);

    const delivered = await waitFor("the webhook delivered", async () => {
      const { body } = await call("get", "/api/invoices/{id}/webhooks", id);
      const [event] = body.events as (Json & { deliveries: Json[] })[];
      return event?.deliveries[0]?.status === "delivered" && event;
    });
    const redeliver = "/api/invoices/{id}/webhooks/{event_id}/redeliver";
    const again = await call("post", redeliver, { ...id, event_id: delivered.event_id as string });
    expect([again.status, again.body.status]).toEqual([202, "pending"]);
    expect((await call("post", redeliver, { ...id, event_id: UNKNOWN_ID })).status).toBe(404);
    expect((await call("post", redeliver, { ...id, event_id: "not-a-uuid" })).status).toBe(404);
    // The invoice's hourly budget of redeliveries used up (recorded as attempted ones): 429.
    const eventId = delivered.event_id as string;
    await sql`update app.webhook_deliveries set attempts = 1 where event_id = ${eventId}::uuid`.execute(
      stack.db,
    );
    await sql`insert into app.webhook_deliveries (event_id, url, status, attempts)
      select ${eventId}::uuid, ${receiver.url}, 'failed', 1
        from generate_series(1, ${REDELIVERIES_PER_INVOICE_PER_HOUR})`.execute(stack.db);
    const limited = await call("post", redeliver, { ...id, event_id: eventId });
    expect(limited.status).toBe(429);
  });

  test("payment status: a pending link, a paid link with its metadata, an invoice's slug; and a 404", async () => {
    const link = (await call("post", "/api/links", {}, { json: linkRequest() })).body;
    const slug = { slug: link.slug as string };
    expect((await call("get", "/api/payments/status/{slug}", slug)).body).toEqual({
      status: "pending",
    });
    await chain.payUsdc(devAccount(4), link.deposit_address as Address, 25_000_000n);
    const confirmed = await waitFor("the link confirmed", async () => {
      const { body } = await call("get", "/api/payments/status/{slug}", slug);
      return body.status === "confirmed" && body;
    });
    expect(Object.keys(confirmed).sort()).toEqual([
      "amount_usdc",
      "confirmed_at",
      "metadata",
      "status",
      "tx_hash",
    ]);
    const invoice = await createInvoice();
    expect((await call("get", "/api/payments/status/{slug}", { slug: invoice.slug })).body).toEqual(
      { status: "sent" },
    );
    expect((await call("get", "/api/payments/status/{slug}", { slug: "nope" })).status).toBe(404);
  });

  test("the rate-limited routes answer their documented 429", async () => {
    const invoice = await createInvoice();
    const client = "203.0.113.50";
    const spend = async (method: "get" | "post", path: string, params = {}, init: Request = {}) => {
      for (let i = 0; i < BUDGET; i++)
        expect((await call(method, path, params, { client, ...init })).status).not.toBe(429);
      expect((await call(method, path, params, { client, ...init })).status).toBe(429);
    };
    await spend("get", "/api/invoices/{id}/status", { id: invoice.invoice_id });
    // One budget for both status routes: this client has none left for either.
    const slug = { slug: invoice.slug };
    expect((await call("get", "/api/payments/status/{slug}", slug, { client })).status).toBe(429);
    await spend("get", "/api/payments/status/{slug}", slug, { client: "203.0.113.51" });
    // Invalid bodies spend the budget as well as valid ones, and create nothing.
    await spend("post", "/api/invoices", {}, { json: INVALID });
    // Run-now issues an invoice: the same budget, before the key is even looked at.
    const run = "/api/invoice-schedules/{id}/run";
    expect((await call("post", run, { id: "any" }, { client })).status).toBe(429);
    await spend("post", "/api/links", {}, { json: INVALID });
  });

  test("merchant accounts: 401 without the key, 403 with another's or a read key; keys, wallets, audit", async () => {
    const acme = await claimedMerchant(stack.db);
    const other = await claimedMerchant(stack.db);
    const as = (key: string) => ({ headers: bearer(key) });
    for (const [path, body] of [
      ["/api/invoices", invoiceRequest({ merchant_email: acme.email })],
      ["/api/links", linkRequest({ merchant_email: acme.email })],
    ] as const) {
      expect((await call("post", path, {}, { json: body })).status).toBe(401);
      expect((await call("post", path, {}, { json: body, ...as(other.key) })).status).toBe(403);
    }
    const created = await call(
      "post",
      "/api/invoices",
      {},
      {
        json: invoiceRequest({
          merchant_email: acme.email,
          send_now: false,
          webhook_url: receiver.url,
        }),
        ...as(acme.key),
      },
    );
    const id = { id: created.body.invoice_id as string };
    const redeliver = "/api/invoices/{id}/webhooks/{event_id}/redeliver";
    const event = { ...id, event_id: UNKNOWN_ID };
    for (const path of [
      "/api/invoices/{id}",
      "/api/invoices/{id}/pdf",
      "/api/invoices/{id}/webhooks",
    ])
      expect((await call("get", path, id)).status).toBe(401);
    expect((await call("post", "/api/invoices/{id}/send", id)).status).toBe(401);
    expect((await call("post", redeliver, event)).status).toBe(401);
    const bySlug = "/api/invoices/by-slug/{slug}/pdf";
    expect((await call("get", bySlug, { slug: created.body.slug as string })).status).toBe(200);
    expect((await call("get", bySlug, { slug: "nosuchslug12" })).status).toBe(404);

    // Keys.
    expect((await call("get", "/api/keys")).status).toBe(401);
    expect((await call("post", "/api/keys", {}, { json: { name: "x" } })).status).toBe(401);
    expect((await call("get", "/api/keys", {}, as(acme.key))).status).toBe(200);
    const madeReader = await call(
      "post",
      "/api/keys",
      {},
      { json: { name: "reader", scope: "read" }, ...as(acme.key) },
    );
    expect(madeReader.status).toBe(201);
    const reader = madeReader.body.key as string;
    expect((await call("post", "/api/invoices/{id}/send", id, as(reader))).status).toBe(403);
    expect((await call("post", redeliver, event, as(reader))).status).toBe(403);
    expect(
      (await call("post", "/api/keys", {}, { json: { name: "x" }, ...as(reader) })).status,
    ).toBe(403);
    const keyId = { id: madeReader.body.id as string };
    expect((await call("delete", "/api/keys/{id}", keyId, as(reader))).status).toBe(403);
    expect((await call("delete", "/api/keys/{id}", keyId)).status).toBe(401);
    const json = { "content-type": "application/json", ...bearer(acme.key) };
    expect((await call("post", "/api/keys", {}, { json: INVALID, ...as(acme.key) })).status).toBe(
      400,
    );
    expect((await call("post", "/api/keys", {}, { body: TOO_LARGE, headers: json })).status).toBe(
      413,
    );
    const text = { "content-type": "text/plain", ...bearer(acme.key) };
    expect((await call("post", "/api/keys", {}, { body: "hello", headers: text })).status).toBe(
      415,
    );

    // Members (issue 46): a support key reads payments only; the owner's key manages the team.
    const members = "/api/members";
    const member = "/api/members/{id}";
    const invite = { email: "books@example.com", role: "accountant" };
    expect((await call("get", members)).status).toBe(401);
    expect((await call("post", members, {}, { json: invite })).status).toBe(401);
    const madeSupport = await call(
      "post",
      "/api/keys",
      {},
      { json: { name: "support", role: "support" }, ...as(acme.key) },
    );
    expect(madeSupport.status).toBe(201);
    const support = madeSupport.body.key as string;
    expect((await call("get", members, {}, as(support))).status).toBe(403);
    expect((await call("post", members, {}, { json: invite, ...as(support) })).status).toBe(403);
    const team = await call("get", members, {}, as(acme.key));
    expect(team.status).toBe(200);
    const ownerId = {
      id: (team.body.members as Json[]).find((m) => m.role === "owner")?.id as string,
    };
    const invited = await call("post", members, {}, { json: invite, ...as(acme.key) });
    expect(invited.status).toBe(201);
    expect((await call("post", members, {}, { json: invite, ...as(acme.key) })).status).toBe(409);
    expect((await call("post", members, {}, { json: INVALID, ...as(acme.key) })).status).toBe(400);
    expect((await call("post", members, {}, { body: TOO_LARGE, headers: json })).status).toBe(413);
    expect((await call("post", members, {}, { body: "hello", headers: text })).status).toBe(415);
    const invitedId = { id: invited.body.id as string };
    const unknownMember = { id: UNKNOWN_ID };
    const toDeveloper = { json: { role: "developer" } };
    expect((await call("patch", member, invitedId, toDeveloper)).status).toBe(401);
    expect(
      (await call("patch", member, invitedId, { ...toDeveloper, ...as(support) })).status,
    ).toBe(403);
    expect(
      (await call("patch", member, unknownMember, { ...toDeveloper, ...as(acme.key) })).status,
    ).toBe(404);
    // The last owner is never demoted, nor removed.
    expect(
      (await call("patch", member, ownerId, { json: { role: "admin" }, ...as(acme.key) })).status,
    ).toBe(409);
    expect(
      (await call("patch", member, invitedId, { json: INVALID, ...as(acme.key) })).status,
    ).toBe(400);
    expect(
      (await call("patch", member, invitedId, { body: TOO_LARGE, headers: json })).status,
    ).toBe(413);
    expect((await call("patch", member, invitedId, { body: "hello", headers: text })).status).toBe(
      415,
    );
    expect(
      (await call("patch", member, invitedId, { ...toDeveloper, ...as(acme.key) })).status,
    ).toBe(200);
    expect((await call("delete", member, invitedId)).status).toBe(401);
    expect((await call("delete", member, invitedId, as(support))).status).toBe(403);
    expect((await call("delete", member, unknownMember, as(acme.key))).status).toBe(404);
    expect((await call("delete", member, ownerId, as(acme.key))).status).toBe(409);
    expect((await call("delete", member, invitedId, as(acme.key))).status).toBe(200);

    // Payout wallets.
    const wallet = privateKeyToAccount(generatePrivateKey()).address;
    const walletPath = "/api/merchant/wallets";
    expect((await call("get", walletPath)).status).toBe(401);
    expect((await call("post", walletPath, {}, { json: { address: wallet } })).status).toBe(401);
    expect(
      (await call("post", walletPath, {}, { json: { address: wallet }, ...as(reader) })).status,
    ).toBe(403);
    expect(
      (await call("post", walletPath, {}, { json: { address: wallet }, ...as(acme.key) })).status,
    ).toBe(201);
    expect(
      (await call("post", walletPath, {}, { json: { address: wallet }, ...as(acme.key) })).status,
    ).toBe(200);
    expect((await call("post", walletPath, {}, { json: INVALID, ...as(acme.key) })).status).toBe(
      400,
    );
    expect((await call("post", walletPath, {}, { body: TOO_LARGE, headers: json })).status).toBe(
      413,
    );
    expect((await call("post", walletPath, {}, { body: "hello", headers: text })).status).toBe(415);
    expect((await call("get", walletPath, {}, as(acme.key))).body.wallets).toEqual([
      { address: wallet, created_at: expect.any(String) },
    ]);
    const one = "/api/merchant/wallets/{address}";
    expect((await call("delete", one, { address: wallet })).status).toBe(401);
    expect((await call("delete", one, { address: wallet }, as(reader))).status).toBe(403);
    expect((await call("delete", one, { address: wallet }, as(acme.key))).status).toBe(200);
    expect((await call("delete", one, { address: wallet }, as(acme.key))).status).toBe(404);

    // Revoking the reader; an unknown key.
    expect((await call("delete", "/api/keys/{id}", keyId, as(acme.key))).status).toBe(200);
    expect((await call("delete", "/api/keys/{id}", { id: UNKNOWN_ID }, as(acme.key))).status).toBe(
      404,
    );

    // The audit trail.
    expect((await call("get", "/api/audit")).status).toBe(401);
    const audit = await call("get", "/api/audit", {}, as(acme.key));
    expect((audit.body.entries as Json[]).map((e) => e.action)).toContain("wallet.removed");
    const bad = await stack.request("/api/audit?limit=0", { headers: bearer(acme.key) });
    expect((await api.check("get", "/api/audit", bad)).status).toBe(400);
    // One member's entries (the owner's key acts for the owner), and a malformed member id.
    const ownerMember = (audit.body.entries as { member_id: string }[])[0]?.member_id;
    expect(ownerMember).toMatch(/^[0-9a-f-]{36}$/);
    const mine = await stack.request(`/api/audit?member_id=${ownerMember}`, {
      headers: bearer(acme.key),
    });
    expect((await api.check("get", "/api/audit", mine)).status).toBe(200);
    const badMember = await stack.request("/api/audit?member_id=someone", {
      headers: bearer(acme.key),
    });
    expect((await api.check("get", "/api/audit", badMember)).status).toBe(400);
  });

  test("claims: 202 whoever asks, 400, 413, 415; redelivery, claims and the PDF by slug answer their 429", async () => {
    expect(
      (await call("post", "/api/merchants/claim", {}, { json: { email: "who@example.com" } }))
        .status,
    ).toBe(202);
    expect((await call("post", "/api/merchants/claim", {}, { json: INVALID })).status).toBe(400);
    const large = { body: TOO_LARGE, headers: { "content-type": "application/json" } };
    expect((await call("post", "/api/merchants/claim", {}, large)).status).toBe(413);
    const text = { body: "hello", headers: { "content-type": "text/plain" } };
    expect((await call("post", "/api/merchants/claim", {}, text)).status).toBe(415);

    const client = "203.0.113.60";
    for (let i = 0; i < BUDGET; i++)
      expect(
        (await call("post", "/api/merchants/claim", {}, { client, json: INVALID })).status,
      ).toBe(400);
    expect((await call("post", "/api/merchants/claim", {}, { client, json: INVALID })).status).toBe(
      429,
    );

    const invoice = await createInvoice();
    const slug = { slug: invoice.slug };
    for (let i = 0; i < BUDGET; i++)
      expect((await call("get", "/api/invoices/by-slug/{slug}/pdf", slug, { client })).status).toBe(
        200,
      );
    expect((await call("get", "/api/invoices/by-slug/{slug}/pdf", slug, { client })).status).toBe(
      429,
    );

    // Redelivery: a budget per key, whatever the address.
    const merchant = await claimedMerchant(stack.db);
    const own = await call(
      "post",
      "/api/invoices",
      {},
      {
        json: invoiceRequest({ merchant_email: merchant.email, webhook_url: receiver.url }),
        headers: bearer(merchant.key),
      },
    );
    const event = { id: own.body.invoice_id as string, event_id: UNKNOWN_ID };
    const redeliver = "/api/invoices/{id}/webhooks/{event_id}/redeliver";
    for (let i = 0; i < BUDGET; i++)
      expect((await call("post", redeliver, event, { headers: bearer(merchant.key) })).status).toBe(
        404,
      );
    expect((await call("post", redeliver, event, { headers: bearer(merchant.key) })).status).toBe(
      429,
    );
  });

  test("gasless payments: relayed (200), queued while no worker runs (202) and followed; every refusal", async () => {
    const payer = devAccount(6);
    const post = "/api/payments/{slug}/authorizations";
    const get = "/api/payments/{slug}/authorizations/{id}";
    const newLink = async () => {
      const { body } = await call("post", "/api/links", {}, { json: linkRequest() });
      return { slug: body.slug as string, deposit_address: body.deposit_address as Address };
    };
    const sign = (link: { deposit_address: Address }, value = 25_000_000n) =>
      signedAuthorization(payer, { to: link.deposit_address, value });
    const slugOf = (link: { slug: string }) => ({ slug: link.slug });

    const paid = await newLink();
    const relayed = await call("post", post, slugOf(paid), { json: await sign(paid) });
    expect(relayed.status).toBe(200);
    // Submitted, or already mined by the time the API looked (the test chain mines at once).
    expect(["submitted", "mined"]).toContain(relayed.body.status);
    const followed = await call("get", get, {
      ...paid,
      id: relayed.body.authorization_id as string,
    });
    expect(followed.body.tx_hash).toBe(relayed.body.tx_hash);

    const open = await newLink();
    expect((await call("post", post, slugOf(open), { json: INVALID })).status).toBe(400);
    const large = { body: TOO_LARGE, headers: { "content-type": "application/json" } };
    expect((await call("post", post, slugOf(open), large)).status).toBe(413);
    const text = { body: "hello", headers: { "content-type": "text/plain" } };
    expect((await call("post", post, slugOf(open), text)).status).toBe(415);
    expect(
      (await call("post", post, { slug: "nosuchslug12" }, { json: await sign(open) })).status,
    ).toBe(404);
    const wrong = await call("post", post, slugOf(open), { json: await sign(open, 1_000_000n) });
    expect([wrong.status, (wrong.body.error as Json).code]).toEqual([422, "wrong_amount"]);
    // The first link's authorization again: refused (a replay, or nothing due any more).
    const replayed = await call("post", post, slugOf(paid), { json: await sign(paid) });
    expect(replayed.status).toBe(409);

    // No worker: the authorization waits in the queue; the API answers 202 with where to look.
    await stack.worker?.stop();
    const queued = await call("post", post, slugOf(open), { json: await sign(open) });
    expect([queued.status, queued.body.status]).toEqual([202, "pending"]);
    const second = await call("post", post, slugOf(open), { json: await sign(open) });
    expect([second.status, (second.body.error as Json).code]).toEqual([409, "payment_in_progress"]);
    replacement = stack.startWorker();
    const id = { ...slugOf(open), id: queued.body.authorization_id as string };
    await waitFor(
      "the queued authorization submitted",
      async () => (await call("get", get, id)).body.tx_hash,
      { timeoutMs: EVENT_MS, intervalMs: 200 },
    );
    expect((await call("get", get, { ...slugOf(open), id: UNKNOWN_ID })).status).toBe(404);
    // An id is no key to another link's payments.
    expect((await call("get", get, { ...slugOf(paid), id: id.id })).status).toBe(404);

    const client = "203.0.113.60";
    for (let i = 0; i < BUDGET; i++)
      expect((await call("post", post, slugOf(open), { client, json: INVALID })).status).toBe(400);
    expect((await call("post", post, slugOf(open), { client, json: INVALID })).status).toBe(429);
    const poller = "203.0.113.61";
    for (let i = 0; i < BUDGET; i++)
      expect((await call("get", get, id, { client: poller })).status).toBe(200);
    expect((await call("get", get, id, { client: poller })).status).toBe(429);
  });

  test("the x402 resource: 402 while due, 400, 404, 409, 202 once paid (no wait set), then 200; 429", async () => {
    const resource = "/api/x402/{slug}";
    const { body: link } = await call("post", "/api/links", {}, { json: linkRequest() });
    const slug = { slug: link.slug as string };
    const due = await call("get", resource, slug);
    expect([due.status, (due.body.error as Json).code]).toEqual([402, "payment_required"]);
    expect((await call("get", resource, { slug: "nosuchslug12" })).status).toBe(404);
    const junk = { headers: { "PAYMENT-SIGNATURE": "not base64!" } };
    expect((await call("get", resource, slug, junk)).status).toBe(400);
    const authorization = await signedAuthorization(devAccount(6), {
      to: link.deposit_address as Address,
      value: 25_000_000n,
    });
    const signature = encodePaymentSignatureHeader({
      x402Version: 2,
      accepted: {
        scheme: "exact",
        network: "eip155:8453",
        amount: "25000000",
        asset: USDC_ADDRESS,
        payTo: link.deposit_address as string,
        maxTimeoutSeconds: 300,
        extra: { name: "USD Coin", version: "2" },
      },
      payload: {
        signature: authorization.signature,
        authorization: {
          from: authorization.from,
          to: authorization.to,
          value: authorization.value,
          validAfter: authorization.valid_after,
          validBefore: authorization.valid_before,
          nonce: authorization.nonce,
        },
      },
    });
    const paid = await call("get", resource, slug, { headers: { "PAYMENT-SIGNATURE": signature } });
    expect([paid.status, paid.body.status]).toEqual([202, "processing"]);
    // On its way, or counted: either way nothing more is asked for.
    expect((await call("get", resource, slug)).status).toBe(200);
    const client = "203.0.113.63";
    for (let i = 0; i < BUDGET; i++)
      expect((await call("get", resource, slug, { client })).status).toBe(200);
    expect((await call("get", resource, slug, { client })).status).toBe(429);
  });

  test("void and refunds: an invoice's and a link's held excess refunded (201); every refusal", async () => {
    const wallet = privateKeyToAccount(generatePrivateKey()).address;
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const large = { body: TOO_LARGE, headers: { "content-type": "application/json" } };
    const text = { body: "hello", headers: { "content-type": "text/plain" } };
    // Void: a draft (200), then again (409), an unknown one (404).
    const draft = await createInvoice({ send_now: false });
    const voided = await call("post", "/api/invoices/{id}/void", { id: draft.invoice_id });
    expect([voided.status, voided.body.status]).toEqual([200, "void"]);
    expect((await call("post", "/api/invoices/{id}/void", { id: draft.invoice_id })).status).toBe(
      409,
    );
    expect((await call("post", "/api/invoices/{id}/void", { id: UNKNOWN_ID })).status).toBe(404);

    // An invoice overpaid, its total swept, the excess held: refunded to an address (201).
    const invoice = await createInvoice({
      line_items: [{ description: "Work", quantity: 1, unit_price: "1.00" }],
      wallet_type: "byo",
      wallet_address: wallet,
    });
    // A link is refunded with its merchant's key only (a slug is public), so its merchant has one.
    const linkOwner = await claimedMerchant(stack.db);
    const ownerKey = bearer(linkOwner.key);
    await registerWallet(stack, linkOwner, wallet);
    const link = (
      await call(
        "post",
        "/api/links",
        {},
        {
          json: linkRequest({
            merchant_email: linkOwner.email,
            amount: "1.00",
            wallet_type: "byo",
            wallet_address: wallet,
          }),
          headers: ownerKey,
        },
      )
    ).body as Json & { slug: string; deposit_address: Address };
    await chain.payUsdc(devAccount(7), invoice.deposit_address, 1_200_000n);
    await chain.payUsdc(devAccount(8), link.deposit_address, 1_300_000n);
    const swept = async (address: Address) =>
      waitFor(
        "the total swept",
        async () =>
          (await stack.db
            .selectFrom("app.sweeps")
            .select("id")
            .where("deposit_address", "=", address.toLowerCase())
            .where("status", "=", "confirmed")
            .executeTakeFirst()) !== undefined,
        { timeoutMs: EVENT_MS, intervalMs: 200 },
      );
    await swept(invoice.deposit_address);
    await swept(link.deposit_address);
    const refunds = [
      ["/api/invoices/{id}/refunds", { id: invoice.invoice_id }, { id: UNKNOWN_ID }, {}],
      ["/api/links/{slug}/refunds", { slug: link.slug }, { slug: "nosuchslug12" }, ownerKey],
    ] as const;
    for (const [path, params, unknown, key] of refunds) {
      const created = await call("post", path, params, { json: { to }, headers: key });
      expect([created.status, created.body.source]).toEqual([201, "deposit"]);
      // The same merchant's second refund within the hour: 429 (REFUNDS_PER_MERCHANT_PER_HOUR=1).
      const again = await call("post", path, params, { json: { to }, headers: key });
      expect([again.status, again.body.error]).toEqual([
        429,
        expect.objectContaining({ code: "rate_limited" }),
      ]);
      expect((await call("post", path, params, { json: INVALID, headers: key })).status).toBe(400);
      expect(
        (await call("post", path, params, { ...large, headers: { ...large.headers, ...key } }))
          .status,
      ).toBe(413);
      expect(
        (await call("post", path, params, { ...text, headers: { ...text.headers, ...key } }))
          .status,
      ).toBe(415);
      expect((await call("post", path, unknown, { json: {}, headers: key })).status).toBe(404);
    }

    // A claimed merchant's invoice and link: no key, 401; a read key, 403.
    const merchant = await claimedMerchant(stack.db);
    const keyed = { headers: bearer(merchant.key) };
    const own = await call(
      "post",
      "/api/invoices",
      {},
      { json: invoiceRequest({ merchant_email: merchant.email }), ...keyed },
    );
    const ownLink = await call(
      "post",
      "/api/links",
      {},
      { json: linkRequest({ merchant_email: merchant.email }), ...keyed },
    );
    const reader = await readKeyOf(stack, merchant);
    const ownId = { id: own.body.invoice_id as string };
    const ownSlug = { slug: ownLink.body.slug as string };
    for (const headers of [{}, bearer(reader)]) {
      const expected = "authorization" in headers ? 403 : 401;
      expect((await call("post", "/api/invoices/{id}/void", ownId, { headers })).status).toBe(
        expected,
      );
      for (const [path, params] of [
        ["/api/invoices/{id}/refunds", ownId],
        ["/api/links/{slug}/refunds", ownSlug],
      ] as const)
        expect((await call("post", path, params, { json: {}, headers })).status).toBe(expected);
    }
    // Its own key, nothing paid yet: nothing to refund, 409.
    for (const [path, params] of [
      ["/api/invoices/{id}/refunds", ownId],
      ["/api/links/{slug}/refunds", ownSlug],
    ] as const) {
      const nothing = await call("post", path, params, { json: {}, ...keyed });
      expect([nothing.status, nothing.body.error]).toEqual([
        409,
        expect.objectContaining({ code: "nothing_to_refund" }),
      ]);
    }
  });

  test("payouts: a managed wallet's money paid out (201), its list (200); every refusal", async () => {
    const merchant = await claimedMerchant(stack.db);
    const keyed = { headers: bearer(merchant.key) };
    const reader = await readKeyOf(stack, merchant);
    const wallet = privateKeyToAccount(generatePrivateKey()).address;
    const path = "/api/merchant/payouts";
    const payout = { amount: "0.40", to: wallet };
    // No managed wallet yet: 409; its list says so (null).
    expect((await call("get", path, {}, keyed)).body.managed_wallet).toBeNull();
    await registerWallet(stack, merchant, wallet);
    expect((await call("post", path, {}, { json: payout, ...keyed })).status).toBe(409);
    // This file's creation budget is 3 a minute per client, shared with the other tests: the
    // invoice is created once the window has room.
    const invoice = await waitFor(
      "the managed invoice created",
      async () => {
        const made = await call(
          "post",
          "/api/invoices",
          {},
          {
            json: invoiceRequest({
              merchant_email: merchant.email,
              line_items: [{ description: "Work", quantity: 1, unit_price: "1.00" }],
              wallet_type: "managed",
            }),
            ...keyed,
          },
        );
        return made.status === 201 && made;
      },
      { timeoutMs: 120_000, intervalMs: 1_000 },
    );
    await chain.payUsdc(devAccount(9), invoice.body.deposit_address as Address, 1_000_000n);
    await waitFor(
      "the total swept into the managed wallet",
      async () =>
        ((await call("get", path, {}, keyed)).body.managed_wallet as Json | null)?.balance ===
        "1.00",
      { timeoutMs: EVENT_MS, intervalMs: 200 },
    );
    expect((await call("get", path)).status).toBe(401);
    expect((await call("get", path, {}, { headers: bearer(reader) })).status).toBe(200);
    expect((await call("post", path, {}, { json: payout })).status).toBe(401);
    expect((await call("post", path, {}, { json: payout, headers: bearer(reader) })).status).toBe(
      403,
    );
    expect((await call("post", path, {}, { json: INVALID, ...keyed })).status).toBe(400);
    const unregistered = { amount: "0.40", to: privateKeyToAccount(generatePrivateKey()).address };
    expect((await call("post", path, {}, { json: unregistered, ...keyed })).status).toBe(400);
    const json = { "content-type": "application/json", ...bearer(merchant.key) };
    expect((await call("post", path, {}, { body: TOO_LARGE, headers: json })).status).toBe(413);
    const text = { "content-type": "text/plain", ...bearer(merchant.key) };
    expect((await call("post", path, {}, { body: "hello", headers: text })).status).toBe(415);
    const tooMuch = await call("post", path, {}, { json: { ...payout, amount: "1.01" }, ...keyed });
    expect([tooMuch.status, tooMuch.body.error]).toEqual([
      409,
      expect.objectContaining({ code: "payout_exceeds_available" }),
    ]);
    const created = await call("post", path, {}, { json: payout, ...keyed });
    expect([created.status, created.body.status, created.body.amount]).toEqual([
      201,
      "requested",
      "0.40",
    ]);
    // The merchant's second payout within the hour: 429 (REFUNDS_PER_MERCHANT_PER_HOUR=1).
    const again = await call("post", path, {}, { json: payout, ...keyed });
    expect([again.status, again.body.error]).toEqual([
      429,
      expect.objectContaining({ code: "rate_limited" }),
    ]);
    const listed = await call("get", path, {}, keyed);
    expect((listed.body.payouts as Json[]).map((p) => p.payout_id)).toEqual([
      created.body.payout_id,
    ]);
    expect(listed.body.managed_wallet).toMatchObject({ reserved: expect.any(String) });
  });

  test("lists, a link's details and the exports: 200, 400, 401, 404", async () => {
    const acme = await claimedMerchant(stack.db);
    const as = { headers: bearer(acme.key) };
    const link = await call(
      "post",
      "/api/links",
      {},
      { json: linkRequest({ merchant_email: acme.email }), ...as },
    );
    const invoice = await call(
      "post",
      "/api/invoices",
      {},
      { json: invoiceRequest({ merchant_email: acme.email }), ...as },
    );
    expect([link.status, invoice.status]).toEqual([201, 201]);
    for (const path of ["/api/invoices", "/api/links", "/api/payments"]) {
      expect((await call("get", path, {}, as)).status).toBe(200);
      expect((await call("get", path)).status).toBe(401);
      const bad = await stack.request(`${path}?limit=0`, as);
      expect((await api.check("get", path, bad)).status).toBe(400);
    }
    const slug = { slug: link.body.slug as string };
    expect((await call("get", "/api/links/{slug}", slug, as)).body.slug).toBe(slug.slug);
    expect((await call("get", "/api/links/{slug}", slug)).status).toBe(401);
    expect((await call("get", "/api/links/{slug}", { slug: "NoSuchSlug123" }, as)).status).toBe(
      404,
    );
    for (const path of ["/api/exports/invoices.csv", "/api/exports/payments.csv"]) {
      expect((await call("get", path, {}, as)).status).toBe(200);
      expect((await call("get", path)).status).toBe(401);
      const bad = await stack.request(`${path}?from=someday`, as);
      expect((await api.check("get", path, bad)).status).toBe(400);
    }
    // The paid invoice and link above were counted by the real worker: their rows are listed.
    const counted = await stack.db.selectFrom("app.payments").select("id").execute();
    expect(counted.length).toBeGreaterThan(0);
  });

  test("transaction lookups (200, 400, 429) and a merchant's settings (200, 400, 401, 403, 413, 415)", async () => {
    const lookup = "/api/transactions/{tx_hash}";
    const unknown = { tx_hash: `0x${"5e".repeat(32)}` };
    const found = await call("get", lookup, unknown);
    expect([found.status, found.body.state]).toEqual([200, "not_found"]);
    expect((await call("get", lookup, { tx_hash: "0x1234" })).status).toBe(400);
    const client = "203.0.113.62";
    for (let i = 0; i < BUDGET; i++)
      expect((await call("get", lookup, unknown, { client })).status).toBe(200);
    expect((await call("get", lookup, unknown, { client })).status).toBe(429);

    const merchant = await claimedMerchant(stack.db);
    const as = (key: string) => ({ headers: bearer(key) });
    const settings = "/api/merchant/settings";
    expect((await call("get", settings)).status).toBe(401);
    expect((await call("get", settings, {}, as(merchant.key))).body).toEqual({
      underpayment_tolerance: "0.00",
    });
    const tolerance = { json: { underpayment_tolerance: "0.50" } };
    expect((await call("patch", settings, {}, tolerance)).status).toBe(401);
    const reader = (
      await call(
        "post",
        "/api/keys",
        {},
        { json: { name: "r", scope: "read" }, ...as(merchant.key) },
      )
    ).body.key as string;
    expect((await call("patch", settings, {}, { ...tolerance, ...as(reader) })).status).toBe(403);
    const changed = await call("patch", settings, {}, { ...tolerance, ...as(merchant.key) });
    expect([changed.status, changed.body]).toEqual([200, { underpayment_tolerance: "0.50" }]);
    const tooMuch = { json: { underpayment_tolerance: "10.01" }, ...as(merchant.key) };
    expect((await call("patch", settings, {}, tooMuch)).status).toBe(400);
    const json = { "content-type": "application/json", ...bearer(merchant.key) };
    expect((await call("patch", settings, {}, { body: TOO_LARGE, headers: json })).status).toBe(
      413,
    );
    const text = { "content-type": "text/plain", ...bearer(merchant.key) };
    expect((await call("patch", settings, {}, { body: "hello", headers: text })).status).toBe(415);
  });

  test("webhook endpoints (200, 201, 202, 400, 401, 403, 404, 409, 413, 415, 429) and the event log (200, 400, 401, 404)", async () => {
    const merchant = await claimedMerchant(stack.db);
    const other = await claimedMerchant(stack.db);
    const as = (key: string) => ({ headers: bearer(key) });
    const reader = await readKeyOf(stack, merchant);
    const hooks = await startWebhookReceiver();
    try {
      const list = "/api/webhook-endpoints";
      const body = { json: { url: hooks.url, events: ["invoice.paid", "link.*"] } };
      expect((await call("get", list)).status).toBe(401);
      expect((await call("post", list, {}, body)).status).toBe(401);
      expect((await call("post", list, {}, { ...body, ...as(reader) })).status).toBe(403);
      const created = await call("post", list, {}, { ...body, ...as(merchant.key) });
      expect(created.status).toBe(201);
      const bad = { json: { url: hooks.url, events: ["invoice.nope"] }, ...as(merchant.key) };
      expect((await call("post", list, {}, bad)).status).toBe(400);
      const json = { "content-type": "application/json", ...bearer(merchant.key) };
      expect((await call("post", list, {}, { body: TOO_LARGE, headers: json })).status).toBe(413);
      const text = { "content-type": "text/plain", ...bearer(merchant.key) };
      expect((await call("post", list, {}, { body: "hello", headers: text })).status).toBe(415);
      expect((await call("get", list, {}, as(reader))).status).toBe(200);

      const one = "/api/webhook-endpoints/{id}";
      const id = { id: created.body.id as string };
      const unknown = { id: UNKNOWN_ID };
      expect((await call("get", one, id, as(reader))).status).toBe(200);
      expect((await call("get", one, id)).status).toBe(401);
      expect((await call("get", one, id, as(other.key))).status).toBe(404);
      const off = { json: { enabled: false } };
      expect((await call("patch", one, id, off)).status).toBe(401);
      expect((await call("patch", one, id, { ...off, ...as(reader) })).status).toBe(403);
      expect((await call("patch", one, unknown, { ...off, ...as(merchant.key) })).status).toBe(404);
      expect((await call("patch", one, id, { json: INVALID, ...as(merchant.key) })).status).toBe(
        400,
      );
      expect((await call("patch", one, id, { body: TOO_LARGE, headers: json })).status).toBe(413);
      expect((await call("patch", one, id, { body: "hello", headers: text })).status).toBe(415);
      expect((await call("patch", one, id, { ...off, ...as(merchant.key) })).status).toBe(200);

      const rotate = "/api/webhook-endpoints/{id}/rotate-secret";
      expect((await call("post", rotate, id)).status).toBe(401);
      expect((await call("post", rotate, id, as(reader))).status).toBe(403);
      expect((await call("post", rotate, unknown, as(merchant.key))).status).toBe(404);
      expect((await call("post", rotate, id, as(merchant.key))).status).toBe(200);

      const sendTest = "/api/webhook-endpoints/{id}/test";
      expect((await call("post", sendTest, id)).status).toBe(401);
      expect((await call("post", sendTest, id, as(reader))).status).toBe(403);
      expect((await call("post", sendTest, unknown, as(merchant.key))).status).toBe(404);
      const sent = await call("post", sendTest, id, as(merchant.key));
      expect(sent.status).toBe(202);
      for (let i = 1; i < TEST_EVENTS_PER_HOUR; i++)
        expect((await call("post", sendTest, id, as(merchant.key))).status).toBe(202);
      expect((await call("post", sendTest, id, as(merchant.key))).status).toBe(429);

      const events = "/api/events";
      expect((await call("get", events)).status).toBe(401);
      const page = await call("get", events, {}, as(reader));
      expect(page.status).toBe(200);
      expect(page.body.data as Json[]).toHaveLength(TEST_EVENTS_PER_HOUR);
      const badPage = await stack.request("/api/events?limit=0", as(reader));
      expect((await api.check("get", events, badPage)).status).toBe(400);
      const event = "/api/events/{id}";
      const eventId = { id: sent.body.event_id as string };
      expect((await call("get", event, eventId)).status).toBe(401);
      expect((await call("get", event, eventId, as(other.key))).status).toBe(404);
      await until("the test event delivered", async () => {
        const got = await call("get", event, eventId, as(reader));
        return (got.body.deliveries as Json[])[0]?.status === "delivered";
      });

      const remove = "/api/webhook-endpoints/{id}";
      expect((await call("delete", remove, id)).status).toBe(401);
      expect((await call("delete", remove, id, as(reader))).status).toBe(403);
      expect((await call("delete", remove, id, as(merchant.key))).status).toBe(200);
      expect((await call("delete", remove, id, as(merchant.key))).status).toBe(404);

      // At most MAX_WEBHOOK_ENDPOINTS an account.
      const fill = { json: { url: hooks.url }, ...as(merchant.key) };
      for (let i = 0; i < MAX_WEBHOOK_ENDPOINTS; i++)
        expect((await call("post", list, {}, fill)).status).toBe(201);
      expect((await call("post", list, {}, fill)).status).toBe(409);
    } finally {
      await hooks.stop();
    }
  });

  test("invoice schedules (200, 201, 400, 401, 403, 404, 409, 413, 415), reminders (202, 409, 429) and aged receivables", async () => {
    const merchant = await claimedMerchant(stack.db);
    const other = await claimedMerchant(stack.db);
    const as = (key: string) => ({ headers: bearer(key) });
    const reader = await readKeyOf(stack, merchant);
    const json = { "content-type": "application/json", ...bearer(merchant.key) };
    const text = { "content-type": "text/plain", ...bearer(merchant.key) };
    const {
      issue_date: _issue,
      due_date: _due,
      ...template
    } = invoiceRequest({
      merchant_email: merchant.email,
    });
    const schedule = {
      json: { invoice: template, interval: "weekly", start_date: "2040-01-01", days_until_due: 7 },
    };

    const list = "/api/invoice-schedules";
    expect((await call("post", list, {}, schedule)).status).toBe(401);
    expect((await call("post", list, {}, { ...schedule, ...as(reader) })).status).toBe(403);
    const created = await call("post", list, {}, { ...schedule, ...as(merchant.key) });
    expect(created.status).toBe(201);
    expect((await call("post", list, {}, { json: INVALID, ...as(merchant.key) })).status).toBe(400);
    expect((await call("post", list, {}, { body: TOO_LARGE, headers: json })).status).toBe(413);
    expect((await call("post", list, {}, { body: "hello", headers: text })).status).toBe(415);
    expect((await call("get", list)).status).toBe(401);
    expect((await call("get", list, {}, as(reader))).status).toBe(200);
    const badList = await stack.request(`${list}?limit=0`, as(reader));
    expect((await api.check("get", list, badList)).status).toBe(400);

    const one = "/api/invoice-schedules/{id}";
    const id = { id: created.body.schedule_id as string };
    const unknown = { id: UNKNOWN_ID };
    expect((await call("get", one, id, as(reader))).status).toBe(200);
    expect((await call("get", one, id)).status).toBe(401);
    expect((await call("get", one, id, as(other.key))).status).toBe(404);
    const count = { json: { count: 12 } };
    expect((await call("patch", one, id, count)).status).toBe(401);
    expect((await call("patch", one, id, { ...count, ...as(reader) })).status).toBe(403);
    expect((await call("patch", one, unknown, { ...count, ...as(merchant.key) })).status).toBe(404);
    expect((await call("patch", one, id, { json: INVALID, ...as(merchant.key) })).status).toBe(400);
    expect((await call("patch", one, id, { body: TOO_LARGE, headers: json })).status).toBe(413);
    expect((await call("patch", one, id, { body: "hello", headers: text })).status).toBe(415);
    expect((await call("patch", one, id, { ...count, ...as(merchant.key) })).status).toBe(200);

    const run = "/api/invoice-schedules/{id}/run";
    expect((await call("post", run, id)).status).toBe(401);
    expect((await call("post", run, id, as(reader))).status).toBe(403);
    expect((await call("post", run, unknown, as(merchant.key))).status).toBe(404);
    expect((await call("post", run, id, as(merchant.key))).status).toBe(201);
    for (const action of ["pause", "resume", "cancel"]) {
      const path = `/api/invoice-schedules/{id}/${action}`;
      expect((await call("post", path, id)).status).toBe(401);
      expect((await call("post", path, id, as(reader))).status).toBe(403);
      expect((await call("post", path, unknown, as(merchant.key))).status).toBe(404);
      expect((await call("post", path, id, as(merchant.key))).status).toBe(200);
    }
    // Cancelled: nothing more can be done to it.
    for (const action of ["pause", "resume", "run"])
      expect(
        (await call("post", `/api/invoice-schedules/{id}/${action}`, id, as(merchant.key))).status,
      ).toBe(409);
    expect((await call("patch", one, id, { ...count, ...as(merchant.key) })).status).toBe(409);
    const cancelled = await call(
      "post",
      "/api/invoice-schedules/{id}/cancel",
      id,
      as(merchant.key),
    );
    expect([cancelled.status, cancelled.body.status]).toEqual([200, "cancelled"]);
    // A template stored under rules the API has since tightened (here: its vendor_name gone)
    // no longer validates when the schedule runs: the run is refused, nothing is issued.
    const stale = await call("post", list, {}, { ...schedule, ...as(merchant.key) });
    await sql`update app.invoice_schedules set template = template - 'vendor_name'
      where id = ${stale.body.schedule_id as string}::uuid`.execute(stack.db);
    const refused = await call(
      "post",
      run,
      { id: stale.body.schedule_id as string },
      as(merchant.key),
    );
    expect([refused.status, refused.body.error]).toEqual([
      400,
      expect.objectContaining({ code: "validation_failed" }),
    ]);

    // The reminder policy.
    const policy = "/api/reminder-policy";
    expect((await call("get", policy)).status).toBe(401);
    expect((await call("get", policy, {}, as(reader))).status).toBe(200);
    const fewer = { json: { max_reminders: 2 } };
    expect((await call("patch", policy, {}, fewer)).status).toBe(401);
    expect((await call("patch", policy, {}, { ...fewer, ...as(reader) })).status).toBe(403);
    const tooMany = { json: { max_reminders: 21 }, ...as(merchant.key) };
    expect((await call("patch", policy, {}, tooMany)).status).toBe(400);
    expect((await call("patch", policy, {}, { body: TOO_LARGE, headers: json })).status).toBe(413);
    expect((await call("patch", policy, {}, { body: "hello", headers: text })).status).toBe(415);
    const changed = await call("patch", policy, {}, { ...fewer, ...as(merchant.key) });
    expect([changed.status, changed.body.max_reminders]).toEqual([200, 2]);

    // Reminding a vendor on request: a draft owes nothing yet (409); one reminder a day (429).
    const remind = "/api/invoices/{id}/remind";
    const invoiceOf = async (overrides: Record<string, unknown>) => {
      const body = invoiceRequest({ merchant_email: merchant.email, ...overrides });
      return {
        id: (await call("post", "/api/invoices", {}, { json: body, ...as(merchant.key) })).body
          .invoice_id as string,
      };
    };
    const sent = await invoiceOf({});
    const draft = await invoiceOf({ send_now: false });
    expect((await call("post", remind, sent)).status).toBe(401);
    expect((await call("post", remind, sent, as(reader))).status).toBe(403);
    expect((await call("post", remind, unknown, as(merchant.key))).status).toBe(404);
    expect((await call("post", remind, draft, as(merchant.key))).status).toBe(409);
    // Emailed to the vendor a day ago: a first reminder may go (not within a day of the invoice).
    await sql`update app.invoices set sent_at = sent_at - interval '25 hours'
      where id = ${sent.id}::uuid`.execute(stack.db);
    expect((await call("post", remind, sent, as(merchant.key))).status).toBe(202);
    expect((await call("post", remind, sent, as(merchant.key))).status).toBe(429);

    // Aged receivables: the sent invoice and the one the schedule ran are owed; the draft is not.
    const report = "/api/reports/receivables";
    expect((await call("get", report)).status).toBe(401);
    const aged = await call("get", report, {}, as(reader));
    expect([aged.status, aged.body.invoice_count]).toEqual([200, 2]);
    const badReport = await stack.request(`${report}?nonsense=1`, as(reader));
    expect((await api.check("get", report, badReport)).status).toBe(400);
    const csv = "/api/exports/receivables.csv";
    expect((await call("get", csv)).status).toBe(401);
    expect((await call("get", csv, {}, as(reader))).status).toBe(200);
    const badCsv = await stack.request(`${csv}?bom=maybe`, as(reader));
    expect((await api.check("get", csv, badCsv)).status).toBe(400);
  });

  test("credit notes and e-invoices: issued, replayed, read, listed, downloaded; and their errors", async () => {
    const merchant = await claimedMerchant(stack.db);
    const keyed = bearer(merchant.key);
    const large = { body: TOO_LARGE, headers: { "content-type": "application/json", ...keyed } };
    const text = { body: "hello", headers: { "content-type": "text/plain", ...keyed } };
    /** A GET with a query string, checked against the route's template. */
    const withQuery = async (
      template: string,
      params: Record<string, string>,
      query: string,
      headers: Record<string, string> = keyed,
    ) => {
      const url = template.replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? "");
      const response = await stack.request(`${url}${query}`, {
        headers: { "X-Forwarded-For": `198.19.0.${++clients % 250}`, ...headers },
      });
      return (await api.check("get", template, response)).status;
    };
    const taxed = invoiceRequest({
      merchant_email: merchant.email,
      merchant_country: "DE",
      vendor_country: "FR",
      merchant_tax_id: "DE123456789",
      vendor_tax_id: "FR12345678901",
      line_items: [
        { description: "Design work", quantity: 2, unit_price: "75.00", tax_rate: "19" },
      ],
    });
    const invoice = await call("post", "/api/invoices", {}, { json: taxed, headers: keyed });
    const id = { id: invoice.body.invoice_id as string };
    const issue = "/api/invoices/{id}/credit-notes";
    const body = {
      lines: [{ description: "Design work", quantity: 1, unit_price: "75.00", tax_rate: "19" }],
      reason: "One day less",
    };
    const key = { "Idempotency-Key": randomUUID(), ...keyed };
    const created = await call("post", issue, id, { json: body, headers: key });
    expect([created.status, created.body.total_amount]).toEqual([201, "89.25"]);
    const reused = await call("post", issue, id, { json: { ...body, reason: "x" }, headers: key });
    expect([reused.status, reused.body.error]).toEqual([
      409,
      expect.objectContaining({ code: "idempotency_key_reused" }),
    ]);
    expect((await call("post", issue, id, { json: INVALID, headers: keyed })).status).toBe(400);
    expect((await call("post", issue, id, large)).status).toBe(413);
    expect((await call("post", issue, id, text)).status).toBe(415);
    expect(
      (await call("post", issue, { id: UNKNOWN_ID }, { json: body, headers: keyed })).status,
    ).toBe(404);
    expect((await call("post", issue, id, { json: body })).status).toBe(401);

    const note = { id: created.body.credit_note_id as string };
    for (const path of ["/api/credit-notes/{id}", "/api/credit-notes/{id}/pdf"]) {
      expect((await call("get", path, note, { headers: keyed })).status).toBe(200);
      expect((await call("get", path, { id: UNKNOWN_ID }, { headers: keyed })).status).toBe(404);
      expect((await call("get", path, note)).status).toBe(401);
    }
    const list = "/api/credit-notes";
    expect(await withQuery(list, {}, `?invoice_id=${id.id}`)).toBe(200);
    expect(await withQuery(list, {}, "?invoice_id=nope")).toBe(400);
    expect(await withQuery(list, {}, "", {})).toBe(401);

    // An untaxed invoice of the merchant and its credit note: not EN 16931 documents, 409.
    const plain = await call(
      "post",
      "/api/invoices",
      {},
      { json: invoiceRequest({ merchant_email: merchant.email }), headers: keyed },
    );
    const plainNote = await call(
      "post",
      issue,
      { id: plain.body.invoice_id as string },
      { json: { full: true, reason: "Cancelled" }, headers: keyed },
    );
    for (const [path, params, untaxed] of [
      ["/api/invoices/{id}/einvoice", id, plain.body.invoice_id],
      ["/api/credit-notes/{id}/einvoice", note, plainNote.body.credit_note_id],
    ] as const) {
      expect(await withQuery(path, params, "?format=ubl")).toBe(200);
      expect(await withQuery(path, params, "?format=docx")).toBe(400);
      expect(await withQuery(path, { id: UNKNOWN_ID }, "?format=ubl")).toBe(404);
      expect(await withQuery(path, params, "?format=ubl", {})).toBe(401);
      expect(await withQuery(path, { id: String(untaxed) }, "?format=cii")).toBe(409);
    }
  });

  test("every route and status the document lists was exercised above", () => {
    expect(api.exercised().sort()).toEqual(api.documented().sort());
  });
});
