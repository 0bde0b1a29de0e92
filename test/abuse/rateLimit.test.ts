import http from "node:http";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { waitFor } from "../../internal/process.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { EVENT_MS } from "../helpers/waits.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";
import { linkRequest } from "../links/fixtures.ts";

/** The status of a GET sent from a given local address (all of 127.0.0.0/8 is loopback). */
const statusFrom = (localAddress: string, port: number, path: string) =>
  new Promise<number>((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path, localAddress, agent: false }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      })
      .on("error", reject);
  });

type ErrorBody = { error: { code: string; message: string; request_id: string } };

const budgets = {
  RATE_LIMIT_STATUS_PER_MIN: "5",
  RATE_LIMIT_INVOICES_PER_MIN: "3",
  RATE_LIMIT_LINKS_PER_MIN: "2",
};

describe("per-IP rate limits on the unauthenticated endpoints", () => {
  // One API behind a (pretend) reverse proxy, one exposed directly.
  let proxied: TestStack;
  let direct: TestStack;
  beforeAll(async () => {
    [proxied, direct] = await Promise.all([
      startStack({ env: { ...budgets, TRUST_PROXY: "1" } }),
      // Six a minute, one token every 10 s: a burst of seven is answered well within 10 s even
      // on a loaded machine 3× slower (at 60 a minute, a token came back during the burst on one,
      // and 61 of 61 were served).
      startStack({ env: { ...budgets, RATE_LIMIT_STATUS_PER_MIN: "6" } }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([proxied?.stop(), direct?.stop()]);
  });

  const from = (ip: string) => ({ "X-Forwarded-For": ip });
  /** A 429 whose Retry-After is at most one token's refill time (less once time passed). */
  const expect429 = async (response: Response, refillSeconds: number) => {
    expect(response.status).toBe(429);
    const retryAfter = Number(response.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(refillSeconds);
    expect(retryAfter).toBeGreaterThanOrEqual(refillSeconds - 5);
    expect(response.headers.get("ratelimit-remaining")).toBe("0");
    const body = (await response.json()) as ErrorBody;
    expect(body).toEqual({
      error: {
        code: "rate_limited",
        message: expect.stringMatching(/^too many .* requests from your address/),
        request_id: response.headers.get("x-request-id"),
      },
    });
  };

  test("status polling: both status endpoints share one budget per client; others are unaffected", async () => {
    const created = await proxied.request("/api/invoices", {
      method: "POST",
      json: invoiceRequest(),
      headers: from("198.51.100.1"),
    });
    const invoice = (await created.json()) as { invoice_id: string; slug: string };
    const paths = [
      `/api/payments/status/${invoice.slug}`,
      `/api/invoices/${invoice.invoice_id}/status`,
    ];
    for (let i = 0; i < 5; i++) {
      const response = await proxied.request(paths[i % 2] as string, {
        headers: from("203.0.113.5"),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get("ratelimit-limit")).toBe("5");
      expect(response.headers.get("ratelimit-remaining")).toBe(String(4 - i));
    }
    // 60 s / 5 requests: the next token arrives within 12 s.
    await expect429(
      await proxied.request(paths[0] as string, { headers: from("203.0.113.5") }),
      12,
    );
    await expect429(
      await proxied.request(paths[1] as string, { headers: from("203.0.113.5") }),
      12,
    );
    // A client cannot pose as another by prepending to X-Forwarded-For: only the entry our
    // proxy appended counts.
    await expect429(
      await proxied.request(paths[0] as string, { headers: from("10.9.9.9, 203.0.113.5") }),
      12,
    );
    const other = await proxied.request(paths[0] as string, { headers: from("203.0.113.6") });
    expect(other.status).toBe(200);
    // Pages and other endpoints are not charged to the status budget.
    expect(
      (
        await proxied.request(`/api/invoices/${invoice.invoice_id}`, {
          headers: from("203.0.113.5"),
        })
      ).status,
    ).toBe(200);
  });

  test("creation: separate budgets for invoices and links, and nothing is stored on a 429", async () => {
    const client = from("192.0.2.77");
    const post = (path: string, json: unknown) =>
      proxied.request(path, { method: "POST", json, headers: client });
    const count = async () => {
      const { rows } = await sql<{ invoices: string; links: string }>`
        select (select count(*) from app.invoices)::text as invoices,
               (select count(*) from app.payment_links)::text as links`.execute(proxied.db);
      return rows[0];
    };
    const before = await count();
    for (let i = 0; i < 3; i++)
      expect((await post("/api/invoices", invoiceRequest())).status).toBe(201);
    await expect429(await post("/api/invoices", invoiceRequest()), 20);
    // A refused request is refused before its body is read: even an invalid one gets the 429.
    await expect429(await post("/api/invoices", { nonsense: true }), 20);
    for (let i = 0; i < 2; i++) expect((await post("/api/links", linkRequest())).status).toBe(201);
    await expect429(await post("/api/links", linkRequest()), 30);
    const after = await count();
    expect(Number(after?.invoices) - Number(before?.invoices)).toBe(3);
    expect(Number(after?.links) - Number(before?.links)).toBe(2);
  });

  test("exposed directly, X-Forwarded-For is ignored, and a refused client is served again after Retry-After", async () => {
    const created = await direct.request("/api/links", { method: "POST", json: linkRequest() });
    const { slug } = (await created.json()) as { slug: string };
    const poll = (ip: string) =>
      direct.request(`/api/payments/status/${slug}`, { headers: from(ip) });
    // Every request claims another address; all come from 127.0.0.1, which has 6 a minute.
    const answers = await Promise.all(Array.from({ length: 7 }, (_, i) => poll(`198.18.0.${i}`)));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(6);
    const refused = answers.find((r) => r.status === 429) as Response;
    const refusedAt = performance.now();
    const retryAfter = Number(refused.headers.get("retry-after"));
    await expect429(refused, 10);
    // The socket's own address is what counts: another loopback address has its own budget.
    expect(await statusFrom("127.0.0.2", direct.api.port, `/api/payments/status/${slug}`)).toBe(
      200,
    );
    expect(await statusFrom("127.0.0.1", direct.api.port, `/api/payments/status/${slug}`)).toBe(
      429,
    );
    // Served again once Retry-After has passed, and not before it (less the second it is
    // rounded to): a refused poll takes no token, so the polls below do not delay it.
    await waitFor("the bucket to refill", async () => (await poll("198.18.1.1")).status === 200, {
      timeoutMs: EVENT_MS,
      intervalMs: 100,
    });
    expect(performance.now() - refusedAt).toBeGreaterThanOrEqual((retryAfter - 1) * 1000);
  });
});
