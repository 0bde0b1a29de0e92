import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { linkRequest } from "../links/fixtures.ts";

/**
 * The attack: cached status polls are answered in front of the Hono app (the status fast path,
 * api/payments/statusFastPath.ts), everything else by the app. Had the two paths kept budgets of
 * their own, a client could double (or more) its polls by mixing requests each path serves:
 * cached polls, polls with a query string, a stray `Authorization` header or an unknown slug.
 * One client address gets one status budget, whichever path answers.
 */
describe("a client mixing requests the fast path and the app answer", () => {
  let stack: TestStack;
  let statusUrl: string;
  beforeAll(async () => {
    stack = await startStack({ env: { RATE_LIMIT_STATUS_PER_MIN: "4" } });
    const created = await stack.request("/api/links", { method: "POST", json: linkRequest() });
    const { slug } = (await created.json()) as { slug: string };
    statusUrl = `http://127.0.0.1:${stack.api.port}/api/payments/status/${slug}`;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  test("gets one budget: a cached poll is refused once app-served polls spent it, and the reverse", async () => {
    const poll = async (url: string, headers: Record<string, string> = {}) =>
      (await fetch(url, { headers })).status;
    const unknown = `http://127.0.0.1:${stack.api.port}/api/payments/status/no-such-slug`;
    const answers = [
      await poll(statusUrl), // a miss: the app reads the database and fills the cache
      await poll(statusUrl), // from the cache: the fast path
      await poll(unknown), // the app: 404
      await poll(`${statusUrl}?t=1`), // the fast path (a query is ignored)
      // The budget of 4 is spent, whichever path would answer next.
      await poll(statusUrl),
      await poll(unknown),
      await poll(statusUrl, { Authorization: "Bearer rk_not_a_key" }),
    ];
    expect(answers).toEqual([200, 200, 404, 200, 429, 429, 429]);
  });
});
