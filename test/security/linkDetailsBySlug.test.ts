import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { answer, bearer, claimedMerchant, codeOf } from "../accounts/accounts.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { linkRequest } from "../links/fixtures.ts";
import { freshAddress } from "../refunds/helpers.ts";

/**
 * The attack: `GET /api/links/{slug}` with no credential showed an open-mode link's payout
 * `wallet_address`, its internal `webhook_url`, every payer's address and its sweeps. A slug is
 * public (every checkout URL carries it): it reads the public status and pages, nothing more.
 */
describe("a payment link's details read by its public slug", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({});
  });
  afterAll(async () => {
    await stack?.stop();
  });

  test("no credential: 401 and none of the internals; the owner's key: 200", async () => {
    const merchantEmail = `shop-${crypto.randomUUID()}@example.com`;
    const wallet = freshAddress();
    const webhook = "https://hooks.internal.example/remit-7f3a";
    const created = await answer(
      await stack.request("/api/links", {
        method: "POST",
        json: linkRequest({
          merchant_email: merchantEmail,
          wallet_type: "byo",
          wallet_address: wallet,
          webhook_url: webhook,
        }),
      }),
    );
    expect(created.status).toBe(201);
    const slug = created.body.slug as string;

    const probe = await stack.request(`/api/links/${slug}`);
    const text = await probe.text();
    expect(probe.status).toBe(401);
    expect(codeOf(JSON.parse(text))).toBe("authentication_required");
    for (const secret of [wallet, wallet.toLowerCase(), webhook, "sweep"])
      expect(text).not.toContain(secret);

    // Another merchant's key: as an unknown slug.
    const intruder = await claimedMerchant(stack.db);
    const foreign = await answer(
      await stack.request(`/api/links/${slug}`, { headers: bearer(intruder.key) }),
    );
    expect([foreign.status, codeOf(foreign.body)]).toEqual([404, "not_found"]);

    // The public pages by slug show no internals either.
    for (const page of [`/pay/${slug}`, `/merchant/${slug}`]) {
      const html = await (await stack.request(page)).text();
      expect(html, page).not.toContain(webhook);
    }

    // The merchant, with a key for its email, reads everything.
    const owner = await claimedMerchant(stack.db, { email: merchantEmail });
    const detail = await answer(
      await stack.request(`/api/links/${slug}`, { headers: bearer(owner.key) }),
    );
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ slug, webhook_url: webhook });
  });
});
