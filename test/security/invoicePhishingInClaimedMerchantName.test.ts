import { randomUUID } from "node:crypto";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { waitFor } from "../../internal/process.ts";
import { answer, bearer, claimedMerchant, codeOf, type Merchant } from "../accounts/accounts.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";
import { linkRequest } from "../links/fixtures.ts";

/**
 * The attack: Remit as a phishing relay. Without Acme's key, an attacker tries
 * every request that would make Remit email a vendor an invoice in Acme's name (its email, its
 * registered name) or change where Acme's payments go. Open mode, the most permissive: none
 * gets through, and the vendor receives only the invoice Acme itself sent.
 */
describe("phishing in a claimed merchant's name", () => {
  let stack: TestStack;
  let acme: Merchant;
  let attacker: Merchant;
  const vendor = `ap-${randomUUID()}@victim.example`;
  const attackerWallet = privateKeyToAccount(generatePrivateKey()).address;
  const NAME = `Acme Corp ${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    stack = await startStack({ worker: true });
    acme = await claimedMerchant(stack.db, { name: NAME });
    // An attacker with an account of its own (a key, a registered payout wallet).
    attacker = await claimedMerchant(stack.db);
    const registered = await stack.request("/api/merchant/wallets", {
      method: "POST",
      json: { address: attackerWallet },
      headers: bearer(attacker.key),
    });
    expect(registered.status).toBe(201);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  test("no request without Acme's key emails a vendor in Acme's name or redirects its money", async () => {
    // Acme's own draft, and its payout wallet (the default: its managed wallet).
    const draft = await answer(
      await stack.request("/api/invoices", {
        method: "POST",
        json: invoiceRequest({
          merchant_email: acme.email,
          merchant_name: NAME,
          vendor_email: vendor,
          send_now: false,
        }),
        headers: bearer(acme.key),
      }),
    );
    expect(draft.status).toBe(201);
    const draftId = draft.body.invoice_id as string;

    const invoiceAs = (overrides: Record<string, unknown>) =>
      invoiceRequest({ vendor_email: vendor, merchant_name: NAME, ...overrides });
    const attempts: [string, string, unknown, Record<string, string>][] = [
      // Acme's email, no key.
      ["POST", "/api/invoices", invoiceAs({ merchant_email: acme.email }), {}],
      [
        "POST",
        "/api/invoices",
        invoiceAs({
          merchant_email: acme.email,
          wallet_type: "byo",
          wallet_address: attackerWallet,
        }),
        {},
      ],
      ["POST", "/api/links", linkRequest({ merchant_email: acme.email, merchant_name: NAME }), {}],
      // Acme's email, the attacker's key.
      ["POST", "/api/invoices", invoiceAs({ merchant_email: acme.email }), bearer(attacker.key)],
      // The attacker's own (or a fresh) email under Acme's registered name, in any spelling.
      [
        "POST",
        "/api/invoices",
        invoiceAs({ merchant_email: attacker.email }),
        bearer(attacker.key),
      ],
      [
        "POST",
        "/api/invoices",
        invoiceAs({
          merchant_email: `x-${randomUUID()}@example.com`,
          merchant_name: NAME.toUpperCase(),
        }),
        {},
      ],
      [
        "POST",
        "/api/links",
        linkRequest({
          merchant_email: `x-${randomUUID()}@example.com`,
          merchant_name: ` ${NAME}.`,
        }),
        {},
      ],
      // Acme's draft by its UUID: sending it, reading it, redelivering.
      ["POST", `/api/invoices/${draftId}/send`, undefined, {}],
      ["POST", `/api/invoices/${draftId}/send`, undefined, bearer(attacker.key)],
      ["GET", `/api/invoices/${draftId}`, undefined, {}],
      ["POST", `/api/invoices/${draftId}/webhooks/${randomUUID()}/redeliver`, undefined, {}],
      // Acme's payout wallets need Acme's key.
      ["POST", "/api/merchant/wallets", { address: attackerWallet }, {}],
      [
        "POST",
        "/api/merchant/wallets",
        { address: attackerWallet },
        { authorization: "Bearer forged" },
      ],
      // A key under Acme's name needs Acme's key (or Acme's mailbox).
      ["POST", "/api/keys", { name: "mine" }, {}],
    ];
    for (const [method, path, json, headers] of attempts) {
      const result = await answer(await stack.request(path, { method, json, headers }));
      // Refused: 401 (no key), 403 (another's email or name) or 404 (another's record).
      expect([method, path, [401, 403, 404].includes(result.status)]).toEqual([method, path, true]);
    }
    const reserved = await answer(
      await stack.request("/api/invoices", {
        method: "POST",
        json: invoiceAs({ merchant_email: attacker.email }),
        headers: bearer(attacker.key),
      }),
    );
    expect([reserved.status, codeOf(reserved.body)]).toEqual([403, "merchant_name_reserved"]);

    // Acme itself sends its draft: the one email the vendor should ever get.
    const sent = await stack.request(`/api/invoices/${draftId}/send`, {
      method: "POST",
      headers: bearer(acme.key),
    });
    expect(sent.status).toBe(200);
    await stack.waitForEmail((e) => e.to.includes(vendor));
    // Every email queued so far has gone out: nothing else is waiting to reach the vendor.
    await waitFor("the outbox drained", async () => {
      const pending = await stack.db
        .selectFrom("app.emails")
        .select("id")
        .where("status", "!=", "sent")
        .execute();
      return pending.length === 0;
    });
    const toVendor = (await stack.outbox()).filter((e) => e.to.includes(vendor));
    expect(toVendor).toHaveLength(1);
    expect(toVendor[0]?.subject).toContain(draft.body.invoice_number as string);

    // Every invoice or link naming Acme (by email or name) is Acme's own, paying Acme's wallet.
    const invoices = await stack.db
      .selectFrom("app.invoices")
      .select(["merchant_id", "wallet_type", "merchant_name_snapshot", "merchant_email"])
      .execute();
    const naming = invoices.filter(
      (i) =>
        i.merchant_email === acme.email ||
        i.merchant_name_snapshot.toLowerCase().includes("acme corp"),
    );
    expect(naming).toEqual([
      expect.objectContaining({ merchant_id: acme.merchantId, wallet_type: "managed" }),
    ]);
    const links = await stack.db.selectFrom("app.payment_links").select(["merchant_id"]).execute();
    expect(links.filter((l) => l.merchant_id === acme.merchantId)).toEqual([]);
    const wallets = await stack.db
      .selectFrom("app.payout_wallets")
      .select("address")
      .where("merchant_id", "=", acme.merchantId)
      .execute();
    expect(wallets).toEqual([]);
  });
});
