import http from "node:http";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parseEnv } from "../../internal/env.ts";
import { freePort } from "../../internal/freePort.ts";
import { waitFor } from "../../internal/process.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";

/**
 * The attack: `/metrics` (of the API and of the worker) and the indexer's `/graphql` and `/sql`
 * (the whole deposit ledger) were served to anyone who could reach `HOST`: with the documented
 * `HOST=0.0.0.0` behind a reverse proxy, to the internet. Now each is served to this machine
 * itself, or with `Authorization: Bearer <OPS_TOKEN>`, and the indexer's server (whose own routes
 * Ponder answers before ours) listens on loopback unless INDEXER_HOST opens it.
 *
 * Servers in tests listen on loopback only, so "from the network" is played the two ways it
 * reaches a loopback-bound or proxied service: through a reverse proxy on this host (its
 * X-Forwarded-For / Forwarded headers) and from a browser here on another site's page (DNS
 * rebinding: a foreign Host; a cross-site fetch: a foreign Origin). A peer that is not loopback
 * at all is refused by the same rule (internal/operationalAccess.test.ts).
 */
const OPS_TOKEN = "ops-token-for-the-security-suite-0123456789";
const FROM_ELSEWHERE: Record<string, string>[] = [
  { "X-Forwarded-For": "203.0.113.9" },
  { Forwarded: "for=203.0.113.9" },
  { Host: "remit.example" },
  { Origin: "https://evil.example" },
];

/** Status and body of a request with exactly these headers (fetch would not send our Host). */
const call = (url: string, headers: Record<string, string> = {}, body?: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: body === undefined ? "GET" : "POST",
        headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
        agent: false,
      },
      (response) => {
        let text = "";
        response.on("data", (chunk) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    request.on("error", reject).end(body);
  });

/** The same request from this machine, from elsewhere, and from elsewhere with the token. */
async function expectOperational(url: string, body?: string, served = 200) {
  expect((await call(url, {}, body)).status).toBe(served);
  for (const headers of FROM_ELSEWHERE) {
    const refused = await call(url, headers, body);
    expect(refused.status, JSON.stringify(headers)).toBe(401);
    expect(refused.body).not.toMatch(/remit_|usdc|0x[0-9a-f]{40}/i);
    const wrongToken = { ...headers, Authorization: `Bearer ${OPS_TOKEN.slice(0, -1)}` };
    expect((await call(url, wrongToken, body)).status).toBe(401);
    const withToken = { ...headers, Authorization: `Bearer ${OPS_TOKEN}` };
    expect((await call(url, withToken, body)).status, JSON.stringify(headers)).toBe(served);
  }
}

describe("operational endpoints reached from the network", () => {
  let stack: TestStack;
  let workerMetricsPort: number;
  beforeAll(async () => {
    workerMetricsPort = await freePort();
    stack = await startStack({
      worker: true,
      indexer: true,
      env: { OPS_TOKEN, WORKER_METRICS_PORT: String(workerMetricsPort) },
    });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  test("the API's /metrics", async () => {
    await expectOperational(`${stack.api.url}/metrics`);
  });

  test("the worker's /metrics", async () => {
    const url = `http://127.0.0.1:${workerMetricsPort}/metrics`;
    await waitFor("the worker's metrics listener", () =>
      call(url).then(
        () => true,
        () => false,
      ),
    );
    await expectOperational(url);
  });

  test("the indexer's GraphQL and SQL: the ledger", async () => {
    const indexer = `http://127.0.0.1:${stack.indexer?.port}`;
    await expectOperational(
      `${indexer}/graphql`,
      JSON.stringify({ query: "{ usdcTransfers { items { id to value } } }" }),
    );
    // Whatever Ponder's SQL client answers a bare GET, it is not handed to a stranger.
    const sql = `${indexer}/sql/db`;
    const served = (await call(sql)).status;
    expect(served).not.toBe(401);
    await expectOperational(sql, undefined, served);
  });

  test("the indexer's server stays on loopback when HOST exposes the API", () => {
    expect(parseEnv({ HOST: "0.0.0.0" }).INDEXER_HOST).toBe("127.0.0.1");
  });
});
