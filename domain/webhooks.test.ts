import { Webhook } from "standardwebhooks";
import { describe, expect, test } from "vitest";
import { isPrivateAddress } from "./privateAddress.ts";
import { retryDelay, shouldRetry, WEBHOOK_RETRY_WINDOW_MS } from "./retrySchedule.ts";
import { signBody, standardWebhookHeaders } from "./webhookSignature.ts";

const secret = `whsec_${Buffer.alloc(32, 7).toString("base64")}`;
const body = '{"invoice_id":"x","status":"paid"}';

describe("webhook signatures", () => {
  test("X-Service-Signature is the hex HMAC-SHA256 of the raw body (RFC 4231, test case 2)", () => {
    // A published vector, not a recomputation with node:crypto: key "Jefe".
    expect(signBody("what do ya want for nothing?", "Jefe")).toBe(
      "sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
    );
  });

  test("the Standard Webhooks headers match the specification's published example", () => {
    const headers = standardWebhookHeaders(
      "msg_p5jXN8AQM9LWM0D4loKWxJek",
      '{"test": 2432232314}',
      "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
      1614265330,
    );
    expect(headers).toEqual({
      "webhook-id": "msg_p5jXN8AQM9LWM0D4loKWxJek",
      "webhook-timestamp": "1614265330",
      "webhook-signature": "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
    });
  });

  test("the Standard Webhooks headers verify with the standardwebhooks package", () => {
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = standardWebhookHeaders("msg_1", body, secret, timestamp);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow();
  });
});

describe("retryDelay", () => {
  test("doubles from the base, caps at 6 h and jitters ±50 %", () => {
    expect([1, 2, 3, 4].map((n) => retryDelay(n, 1000, () => 0.5))).toEqual([
      1000, 2000, 4000, 8000,
    ]);
    expect(retryDelay(30, 1000, () => 0.5)).toBe(6 * 60 * 60 * 1000);
    expect(retryDelay(3, 1000, () => 0)).toBe(2000);
    expect(retryDelay(3, 1000, () => 0.999)).toBeLessThan(6000);
  });

  test("retries span at least 72 hours", () => {
    const start = new Date("2026-01-01T00:00:00Z");
    expect(shouldRetry(start, new Date(start.getTime() + WEBHOOK_RETRY_WINDOW_MS - 1))).toBe(true);
    expect(shouldRetry(start, new Date(start.getTime() + WEBHOOK_RETRY_WINDOW_MS))).toBe(false);
    expect(WEBHOOK_RETRY_WINDOW_MS).toBeGreaterThanOrEqual(72 * 3600 * 1000);
  });
});

describe("isPrivateAddress", () => {
  test.each([
    "127.0.0.1",
    "10.1.2.3",
    "172.16.0.1",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "::1",
    "fd00::1",
    "fe80::1",
    "::ffff:127.0.0.1",
    "224.0.0.1",
    "localhost",
  ])("refuses %s", (address) => expect(isPrivateAddress(address)).toBe(true));
  test.each(["93.184.216.34", "8.8.8.8", "172.32.0.1", "2606:4700:4700::1111"])(
    "allows %s",
    (address) => expect(isPrivateAddress(address)).toBe(false),
  );
});
