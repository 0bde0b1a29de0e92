import http from "node:http";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { linkRequest } from "../links/fixtures.ts";

/**
 * The attack: with TRUST_PROXY=1 and HOST=0.0.0.0 (the documented production example), a client
 * that connects to the API's port directly, past the proxy, writes a fresh X-Forwarded-For on
 * every request; counting the header's last entry as the client, each request got a budget of
 * its own and the per-IP rate limit was no limit at all.
 *
 * Every 127.0.0.0/8 address is this host's loopback, so two of them play the two parties: the
 * reverse proxy (127.0.0.2, the one address in TRUSTED_PROXIES) and a client reaching the port
 * directly (127.0.0.3).
 */
const PROXY = "127.0.0.2";
const DIRECT_CLIENT = "127.0.0.3";

/** A status poll sent from `localAddress`, claiming to forward for `forwardedFor`. */
const poll = (port: number, path: string, localAddress: string, forwardedFor: string) =>
  new Promise<number>((resolve, reject) => {
    http
      .get(
        {
          host: "127.0.0.1",
          port,
          path,
          localAddress,
          agent: false,
          headers: { "X-Forwarded-For": forwardedFor },
        },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      )
      .on("error", reject);
  });

describe("X-Forwarded-For from a client that bypasses the proxy", () => {
  let stack: TestStack;
  let statusPath: string;
  beforeAll(async () => {
    stack = await startStack({
      env: { TRUST_PROXY: "1", TRUSTED_PROXIES: PROXY, RATE_LIMIT_STATUS_PER_MIN: "3" },
    });
    const created = await stack.request("/api/links", { method: "POST", json: linkRequest() });
    statusPath = `/api/payments/status/${((await created.json()) as { slug: string }).slug}`;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  test("a direct client is charged as itself, whatever address it claims", async () => {
    const answers: number[] = [];
    for (let i = 0; i < 6; i++)
      answers.push(await poll(stack.api.port, statusPath, DIRECT_CLIENT, `198.51.100.${i}`));
    expect(answers).toEqual([200, 200, 200, 429, 429, 429]);
  });

  test("the configured proxy is believed: each client it forwards for has its own budget", async () => {
    const answers: number[] = [];
    for (let i = 0; i < 6; i++)
      answers.push(await poll(stack.api.port, statusPath, PROXY, `203.0.113.${i}`));
    expect(answers).toEqual([200, 200, 200, 200, 200, 200]);
    // And one client behind it is limited like any other: its own prepended claims count for
    // nothing, the proxy's appended entry does.
    const one: number[] = [];
    for (let i = 0; i < 4; i++)
      one.push(await poll(stack.api.port, statusPath, PROXY, `10.9.9.${i}, 203.0.113.77`));
    expect(one).toEqual([200, 200, 200, 429]);
  });
});
