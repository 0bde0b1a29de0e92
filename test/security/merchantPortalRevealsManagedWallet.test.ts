import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { linkRequest } from "../links/fixtures.ts";

/**
 * The merchant portal answers to the checkout's slug, which every shop page embeds in
 * `data-slug`, and showed the managed wallet: with it, the merchant's whole revenue history on
 * chain. Without the merchant's identity it now shows only what the checkout reveals.
 */
describe("the merchant portal, opened with a shop's public slug", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  test("shows status and payments, never the managed wallet", async () => {
    const link = (await (
      await stack.request("/api/links", { method: "POST", json: linkRequest() })
    ).json()) as { slug: string; merchant_portal: string; deposit_address: string };
    const managed = await stack.db
      .selectFrom("app.payment_links")
      .select("wallet_address")
      .where("slug", "=", link.slug)
      .executeTakeFirstOrThrow();
    const page = await fetch(link.merchant_portal);
    expect(page.status).toBe(200);
    const html = (await page.text()).toLowerCase();
    expect(html).toContain(link.deposit_address.toLowerCase());
    expect(html).toContain('data-field="received"');
    expect(html).not.toContain(managed.wallet_address.toLowerCase());
    expect(html).not.toContain("managed wallet");
  });
});
