import { randomUUID } from "node:crypto";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";
import { linkRequest } from "../links/fixtures.ts";
import {
  answer,
  bearer,
  claimedMerchant,
  codeOf,
  type Merchant,
  readKeyOf,
  registerWallet,
} from "./accounts.ts";

const newWallet = () => privateKeyToAccount(generatePrivateKey()).address;

/**
 * AUTH_MODE=open (the local default): the spec's key-less creation, except that a merchant who
 * claimed its email acts only with one of its keys.
 */
describe("open mode: a claimed merchant needs its key", () => {
  let stack: TestStack;
  let acme: Merchant;
  let other: Merchant;
  beforeAll(async () => {
    stack = await startStack({ worker: true });
    acme = await claimedMerchant(stack.db);
    other = await claimedMerchant(stack.db);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const create = async (path: string, json: unknown, headers: Record<string, string> = {}) =>
    answer(await stack.request(path, { method: "POST", json, headers }));

  test("an unclaimed email needs nothing, as the spec has it", async () => {
    expect((await create("/api/invoices", invoiceRequest())).status).toBe(201);
    expect((await create("/api/links", linkRequest())).status).toBe(201);
  });

  test("a claimed email without its key: 401 with WWW-Authenticate; with it: 201", async () => {
    for (const [path, body] of [
      ["/api/invoices", invoiceRequest({ merchant_email: acme.email })],
      ["/api/links", linkRequest({ merchant_email: acme.email })],
      // The email's case changes nothing.
      ["/api/invoices", invoiceRequest({ merchant_email: acme.email.toUpperCase() })],
    ] as const) {
      const response = await stack.request(path, { method: "POST", json: body });
      expect(response.headers.get("www-authenticate")).toBe('Bearer realm="remit"');
      const refused = await answer(response);
      expect([refused.status, codeOf(refused.body)]).toEqual([401, "authentication_required"]);
      expect((refused.body.error as Record<string, unknown>).request_id).toEqual(
        expect.any(String),
      );
      const accepted = await create(path, body, bearer(acme.key));
      expect(accepted.status).toBe(201);
    }
    // Nothing was created by the refused requests: the two invoices numbered 1 and 2.
    const invoices = await stack.db
      .selectFrom("app.invoices")
      .select("invoice_number")
      .where("merchant_id", "=", acme.merchantId)
      .orderBy("invoice_number")
      .execute();
    expect(invoices.map((i) => i.invoice_number)).toEqual(["INV-0001", "INV-0002"]);
  });

  test("a key that is not one: 401 invalid_api_key, in open mode too", async () => {
    for (const header of [
      "Bearer nonsense",
      // The key with its last character changed (to another: base58 has "x", 1 key in 58 ends so).
      `Bearer ${acme.key.slice(0, -1)}${acme.key.endsWith("x") ? "y" : "x"}`,
      `Basic ${acme.key}`,
      `Bearer remit_sk_${"1".repeat(49)}`,
    ]) {
      const response = await stack.request("/api/invoices", {
        method: "POST",
        json: invoiceRequest(),
        headers: { authorization: header },
      });
      expect(response.headers.get("www-authenticate")).toContain('error="invalid_token"');
      const refused = await answer(response);
      expect([refused.status, codeOf(refused.body)]).toEqual([401, "invalid_api_key"]);
    }
  });

  test("with a key, another merchant's email is 403 merchant_mismatch", async () => {
    for (const email of [other.email, `unclaimed-${randomUUID()}@example.com`]) {
      const refused = await create(
        "/api/invoices",
        invoiceRequest({ merchant_email: email }),
        bearer(acme.key),
      );
      expect([refused.status, codeOf(refused.body)]).toEqual([403, "merchant_mismatch"]);
      expect((refused.body.error as { fields: unknown[] }).fields).toEqual([
        expect.objectContaining({ path: "merchant_email" }),
      ]);
    }
  });

  test("the UUID endpoints: a claimed merchant's invoice needs its key; another's key sees a 404", async () => {
    const created = await create(
      "/api/invoices",
      invoiceRequest({ merchant_email: acme.email, send_now: false }),
      bearer(acme.key),
    );
    const id = created.body.invoice_id as string;
    const routes = [
      ["GET", `/api/invoices/${id}`],
      ["GET", `/api/invoices/${id}/pdf`],
      ["GET", `/api/invoices/${id}/webhooks`],
      ["POST", `/api/invoices/${id}/webhooks/${randomUUID()}/redeliver`],
      ["POST", `/api/invoices/${id}/send`],
    ] as const;
    for (const [method, path] of routes) {
      const anonymous = await answer(await stack.request(path, { method }));
      expect([method, path, anonymous.status]).toEqual([method, path, 401]);
      const stranger = await answer(
        await stack.request(path, { method, headers: bearer(other.key) }),
      );
      expect([method, path, stranger.status, codeOf(stranger.body)]).toEqual([
        method,
        path,
        404,
        "not_found",
      ]);
    }
    // Still a draft: nobody else sent it. Its own key does.
    const own = await answer(
      await stack.request(`/api/invoices/${id}/send`, {
        method: "POST",
        headers: bearer(acme.key),
      }),
    );
    expect([own.status, own.body.status]).toEqual([200, "sent"]);
    // The status endpoint and the PDF by slug stay public.
    expect((await stack.request(`/api/invoices/${id}/status`)).status).toBe(200);
    const pdf = await stack.request(`/api/invoices/by-slug/${created.body.slug}/pdf`);
    expect([pdf.status, pdf.headers.get("content-type")]).toEqual([200, "application/pdf"]);
  });

  test("a read key reads and lists, and every write is 403 insufficient_scope", async () => {
    const reader = await readKeyOf(stack, acme);
    expect(reader).toMatch(/^remit_rk_/);
    const draft = await create(
      "/api/invoices",
      invoiceRequest({ merchant_email: acme.email, send_now: false }),
      bearer(acme.key),
    );
    const id = draft.body.invoice_id as string;
    expect((await stack.request(`/api/invoices/${id}`, { headers: bearer(reader) })).status).toBe(
      200,
    );
    expect((await stack.request("/api/keys", { headers: bearer(reader) })).status).toBe(200);
    expect((await stack.request("/api/audit", { headers: bearer(reader) })).status).toBe(200);
    for (const [method, path, json] of [
      ["POST", "/api/invoices", invoiceRequest({ merchant_email: acme.email })],
      ["POST", "/api/links", linkRequest({ merchant_email: acme.email })],
      ["POST", `/api/invoices/${id}/send`, undefined],
      ["POST", `/api/invoices/${id}/webhooks/${randomUUID()}/redeliver`, undefined],
      ["POST", "/api/keys", { name: "escalate" }],
      ["DELETE", `/api/keys/${acme.keyId}`, undefined],
      ["POST", "/api/merchant/wallets", { address: newWallet() }],
      ["DELETE", `/api/merchant/wallets/${newWallet()}`, undefined],
    ] as const) {
      const refused = await answer(
        await stack.request(path, { method, json, headers: bearer(reader) }),
      );
      expect([method, path, refused.status, codeOf(refused.body)]).toEqual([
        method,
        path,
        403,
        "insufficient_scope",
      ]);
    }
    const still = await answer(
      await stack.request(`/api/invoices/${id}`, { headers: bearer(acme.key) }),
    );
    expect(still.body.status).toBe("draft");
  });

  test("byo: only a registered payout wallet, named in a clear 400; registering emails the merchant", async () => {
    const wallet = newWallet();
    const byo = { merchant_email: acme.email, wallet_type: "byo", wallet_address: wallet };
    for (const [path, body] of [
      ["/api/invoices", invoiceRequest(byo)],
      ["/api/links", linkRequest(byo)],
    ] as const) {
      const refused = await create(path, body, bearer(acme.key));
      expect(refused.status).toBe(400);
      expect((refused.body.error as { fields: unknown[] }).fields).toEqual([
        expect.objectContaining({ path: "wallet_address", code: "unregistered_wallet" }),
      ]);
    }

    const added = await answer(await registerWallet(stack, acme, wallet));
    expect([added.status, added.body.address]).toEqual([201, wallet]);
    const email = await stack.waitForEmail(
      (e) => e.to.includes(acme.email) && e.subject.includes(wallet),
    );
    expect(email.text).toContain('with the API key "test"');
    expect(email.text).toContain("DELETE /api/keys/{id}");
    // Registering it again changes nothing and emails nobody.
    expect((await registerWallet(stack, acme, wallet)).status).toBe(200);

    expect((await create("/api/invoices", invoiceRequest(byo), bearer(acme.key))).status).toBe(201);
    expect((await create("/api/links", linkRequest(byo), bearer(acme.key))).status).toBe(201);
    // Another merchant's registered wallet is not this one's.
    const theirs = await create(
      "/api/invoices",
      invoiceRequest({ ...byo, merchant_email: other.email }),
      bearer(other.key),
    );
    expect(theirs.status).toBe(400);

    const listed = await answer(
      await stack.request("/api/merchant/wallets", { headers: bearer(acme.key) }),
    );
    expect(listed.body.wallets).toEqual([{ address: wallet, created_at: expect.any(String) }]);
    const removed = await answer(
      await stack.request(`/api/merchant/wallets/${wallet}`, {
        method: "DELETE",
        headers: bearer(acme.key),
      }),
    );
    expect(removed).toEqual({ status: 200, body: { address: wallet, removed: true } });
    expect((await create("/api/invoices", invoiceRequest(byo), bearer(acme.key))).status).toBe(400);
    const outbox = await stack.outbox();
    expect(outbox.filter((e) => e.subject.includes(wallet))).toHaveLength(1);
  });

  test("wallets that can never be paid out to are refused at registration", async () => {
    for (const address of [
      "0x0000000000000000000000000000000000000000",
      "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
    ]) {
      const refused = await answer(await registerWallet(stack, acme, address));
      expect([refused.status, (refused.body.error as { fields: unknown[] }).fields]).toEqual([
        400,
        [expect.objectContaining({ path: "address", code: "not_allowed" })],
      ]);
    }
    const link = await create("/api/links", linkRequest());
    const deposit = await answer(
      await registerWallet(stack, acme, link.body.deposit_address as string),
    );
    expect(deposit.status).toBe(400);
  });

  test("keys: list, create, revoke (at once), never shown again", async () => {
    const merchant = await claimedMerchant(stack.db);
    const made = await answer(
      await stack.request("/api/keys", {
        method: "POST",
        json: { name: "ci" },
        headers: bearer(merchant.key),
      }),
    );
    expect(made.status).toBe(201);
    const key = made.body.key as string;
    expect(key).toMatch(/^remit_sk_/);
    expect(made.body.last_four).toBe(key.slice(-4));
    const listed = await answer(await stack.request("/api/keys", { headers: bearer(key) }));
    expect((listed.body.keys as Record<string, unknown>[]).map((k) => k.name)).toEqual([
      "test",
      "ci",
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(key);
    // The key just used has its last use recorded.
    const self = (listed.body.keys as Record<string, unknown>[]).find((k) => k.id === made.body.id);
    expect(self?.last_used_at).toEqual(expect.any(String));

    // Another merchant cannot revoke it (404), its own merchant can.
    const foreign = await stack.request(`/api/keys/${made.body.id}`, {
      method: "DELETE",
      headers: bearer(other.key),
    });
    expect(foreign.status).toBe(404);
    const revoked = await answer(
      await stack.request(`/api/keys/${made.body.id}`, {
        method: "DELETE",
        headers: bearer(merchant.key),
      }),
    );
    expect([revoked.status, revoked.body.revoked_at]).toEqual([200, expect.any(String)]);
    const after = await answer(await stack.request("/api/keys", { headers: bearer(key) }));
    expect([after.status, codeOf(after.body)]).toEqual([401, "invalid_api_key"]);
    expect(
      (
        await stack.request(`/api/keys/${randomUUID()}`, {
          method: "DELETE",
          headers: bearer(merchant.key),
        })
      ).status,
    ).toBe(404);
  });

  test("the routes of an account need a key in open mode too", async () => {
    for (const [method, path] of [
      ["GET", "/api/keys"],
      ["POST", "/api/keys"],
      ["GET", "/api/merchant/wallets"],
      ["GET", "/api/audit"],
    ] as const) {
      const refused = await answer(
        await stack.request(path, {
          method,
          ...(method === "POST" ? { json: { name: "x" } } : {}),
        }),
      );
      expect([path, refused.status, codeOf(refused.body)]).toEqual([
        path,
        401,
        "authentication_required",
      ]);
    }
  });

  test("the audit trail: each action with its key and request id, readable by its merchant only", async () => {
    const merchant = await claimedMerchant(stack.db);
    const response = await stack.request("/api/invoices", {
      method: "POST",
      json: invoiceRequest({ merchant_email: merchant.email, send_now: false }),
      headers: bearer(merchant.key),
    });
    const requestId = response.headers.get("x-request-id");
    const invoice = (await response.json()) as { invoice_id: string };
    await stack.request(`/api/invoices/${invoice.invoice_id}/send`, {
      method: "POST",
      headers: bearer(merchant.key),
    });
    const wallet = newWallet();
    await registerWallet(stack, merchant, wallet);
    const audit = await answer(
      await stack.request("/api/audit", { headers: bearer(merchant.key) }),
    );
    const entries = audit.body.entries as Record<string, unknown>[];
    expect(entries.map((e) => [e.action, e.actor])).toEqual([
      ["wallet.added", "key"],
      ["invoice.sent", "key"],
      ["invoice.created", "key"],
      ["key.created", "operator"],
      ["merchant.claimed", "operator"],
    ]);
    expect(entries[2]).toMatchObject({
      key_id: merchant.keyId,
      target: invoice.invoice_id,
      request_id: requestId,
    });
    expect(entries[0]?.target).toBe(wallet);
    // Paged, newest first.
    const page = await answer(
      await stack.request(`/api/audit?limit=2&before=${entries[1]?.id}`, {
        headers: bearer(merchant.key),
      }),
    );
    expect((page.body.entries as Record<string, unknown>[]).map((e) => e.action)).toEqual([
      "invoice.created",
      "key.created",
    ]);
    // Another merchant's trail holds none of this.
    const theirs = await answer(await stack.request("/api/audit", { headers: bearer(other.key) }));
    expect(JSON.stringify(theirs.body)).not.toContain(invoice.invoice_id);
    const bad = await stack.request("/api/audit?limit=0", { headers: bearer(merchant.key) });
    expect(bad.status).toBe(400);
  });
});
