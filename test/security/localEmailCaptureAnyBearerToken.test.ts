import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";

/**
 * The attack: any process on this machine posts to the local email capture
 * (`POST /dev/sendgrid/v3/mail/send` on the operational listener) with any bearer token, and its
 * message lands in the outbox among Remit's own mail. Now the capture takes only the key the
 * stack's own SendGrid client was given (derived from the stack's secret): anything else is
 * SendGrid's 401, and nothing is written.
 */
describe("the local email capture with a key that is not the stack's", () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startStack({ worker: true });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const mail = (to: string) => ({
    personalizations: [{ to: [{ email: to }] }],
    from: { email: "billing@remit.test" },
    subject: "Your invoice",
    content: [{ type: "text/plain", value: "pay here" }],
  });

  test("any other token, the old fixed one or none: 401, nothing in the outbox; the worker's own mail arrives", async () => {
    const forgedTo = `forged-${randomUUID()}@example.com`;
    for (const authorization of [
      "Bearer anything",
      "Bearer SG.local-capture",
      "Bearer ",
      "Basic dXNlcjpwYXNz",
      undefined,
    ]) {
      const response = await fetch(`${stack.api.opsUrl}/dev/sendgrid/v3/mail/send`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(authorization === undefined ? {} : { authorization }),
        },
        body: JSON.stringify(mail(forgedTo)),
      });
      expect(response.status, String(authorization)).toBe(401);
    }
    // The stack's own worker, holding the key, still delivers: the invoice's email arrives.
    const vendor = `vendor-${randomUUID()}@example.com`;
    const created = await stack.request("/api/invoices", {
      method: "POST",
      json: invoiceRequest({ vendor_email: vendor }),
    });
    expect(created.status).toBe(201);
    await stack.waitForEmail((email) => email.to.includes(vendor));
    expect((await stack.outbox()).filter((email) => email.to.includes(forgedTo))).toEqual([]);
  });
});
