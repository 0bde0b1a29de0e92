import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { answer, bearer, claimedMerchant, type Merchant } from "../accounts/accounts.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { startWebhookReceiver } from "../helpers/webhookReceiver.ts";

const DISABLE_AFTER = 3;

/**
 * The attack's other half: an endpoint that accepts connections and never answers is retried
 * for days, each attempt holding a delivery slot until the deadline. Now an endpoint failing
 * attempt after attempt is slowed to one delivery at a time, and after
 * WEBHOOK_ENDPOINT_DISABLE_AFTER failures in a row it is disabled (no new events go to it) and
 * its merchant is emailed, as Stripe does.
 */
describe("a webhook endpoint that times out forever", () => {
  let stack: TestStack;
  let merchant: Merchant;
  let hanging: Awaited<ReturnType<typeof startWebhookReceiver>>;

  beforeAll(async () => {
    hanging = await startWebhookReceiver();
    hanging.answerWith("hang");
    stack = await startStack({
      worker: true,
      env: {
        WEBHOOK_TIMEOUT_MS: "200",
        WEBHOOK_RETRY_BASE_MS: "1",
        WEBHOOK_ENDPOINT_DISABLE_AFTER: String(DISABLE_AFTER),
      },
    });
    merchant = await claimedMerchant(stack.db);
  });
  afterAll(async () => {
    hanging?.release();
    await stack?.stop();
    await hanging?.stop();
  });

  test(`disabled after ${DISABLE_AFTER} failed attempts in a row, its merchant emailed once`, async () => {
    const created = await answer(
      await stack.request("/api/webhook-endpoints", {
        method: "POST",
        headers: bearer(merchant.key),
        json: { url: hanging.url },
      }),
    );
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;
    const sent = await stack.request(`/api/webhook-endpoints/${id}/test`, {
      method: "POST",
      headers: bearer(merchant.key),
    });
    expect(sent.status).toBe(202);

    const email = await stack.waitForEmail(
      (message) => message.to.includes(merchant.email) && /was disabled/.test(message.subject),
    );
    expect(email.text).toContain(hanging.url);
    const endpoint = await stack.db
      .selectFrom("app.webhook_endpoints")
      .select("enabled")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(endpoint.enabled).toBe(false);
    const attempts = await stack.db
      .selectFrom("app.webhook_attempts as a")
      .innerJoin("app.webhook_deliveries as d", "d.id", "a.delivery_id")
      .select(["a.status_code"])
      .where("d.endpoint_id", "=", id)
      .execute();
    expect(attempts.length).toBeGreaterThanOrEqual(DISABLE_AFTER);
    expect(attempts.every((a) => a.status_code === null)).toBe(true);
    // Disabled once: one email, whichever attempt crossed the line.
    const emails = (await stack.outbox()).filter((m) => /was disabled/.test(m.subject));
    expect(emails).toHaveLength(1);
  });
});
