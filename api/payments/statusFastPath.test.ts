import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import net from "node:net";
import { serve } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parseKeyring } from "../../domain/secretBox.ts";
import { createLogger } from "../../internal/logger.ts";
import { DEPOSIT_ACCOUNT, extendedPublicKey, newMnemonic } from "../../keys/hdWallet.ts";
import { createApi } from "../../server/app.ts";
import { createTestDatabase, type TestDatabase } from "../../test/helpers/database.ts";
import type { AppDeps } from "../deps.ts";
import { StatusCache } from "./statusCache.ts";
import { createServerWithFastPath, type FastPath } from "./statusFastPath.ts";

type Raw = { status: string; headers: [string, string][]; body: string };

/** One request over its own socket, and the answer as it came over the wire. */
function rawGet(port: number, path: string, headers: Record<string, string>): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
    const host = "Host" in headers ? "" : "Host: localhost\r\n";
    socket.write(`GET ${path} HTTP/1.1\r\n${host}${lines.join("")}Connection: close\r\n\r\n`);
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const split = text.indexOf("\r\n\r\n");
      const [status, ...headerLines] = text.slice(0, split).split("\r\n");
      resolve({
        status: status as string,
        headers: headerLines.map((line) => {
          const colon = line.indexOf(":");
          return [line.slice(0, colon), line.slice(colon + 2)];
        }),
        body: text.slice(split + 4),
      });
    });
  });
}

/** An answer without what differs between two identical requests: the date. */
const comparable = (raw: Raw) => ({
  ...raw,
  headers: raw.headers.filter(([name]) => name.toLowerCase() !== "date"),
});

const LIMIT = 3;

/**
 * The status fast path (node:http level, in front of the Hono app) against the Hono path alone:
 * two servers of the same app, on the same real database and status cache, sent the same
 * requests; every answer must be the same bytes (but the Date header), whichever path served it.
 */
describe("the status fast path answers as the Hono path does", () => {
  let database: TestDatabase;
  let cache: StatusCache;
  const servers: ReturnType<typeof serve>[] = [];
  let honoPort = 0;
  let fastPort = 0;
  let fastAnswers = 0;
  let slug = "";
  let deps: AppDeps;
  const start = (
    fetch: (request: Request, env: unknown) => Response | Promise<Response>,
    createServer?: ReturnType<typeof createServerWithFastPath>,
  ) =>
    new Promise<number>((resolve) => {
      const server = serve({ fetch, port: 0, hostname: "127.0.0.1", createServer }, (info) =>
        resolve(info.port),
      );
      servers.push(server);
    });
  /** One app served alone, and one behind the fast path (counting what it answers). */
  const startPair = async (settings: AppDeps) => {
    const hono = createApi(settings);
    const fast = createApi(settings);
    const fastPath = fast.statusFastPath as FastPath;
    const counted: FastPath = (request: IncomingMessage, response: ServerResponse) => {
      const answered = fastPath(request, response);
      if (answered) fastAnswers++;
      return answered;
    };
    return {
      hono,
      honoPort: await start(hono.app.fetch),
      fastPort: await start(fast.app.fetch, createServerWithFastPath(counted)),
    };
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    cache = new StatusCache(database.url);
    await cache.start();
    deps = {
      db: database.db,
      rpcUrl: "http://127.0.0.1:9",
      indexerSchema: "idx_unused",
      baseUrl: "http://localhost:3000",
      payUrl: "http://localhost:3000",
      depositXpub: extendedPublicKey(newMnemonic(), DEPOSIT_ACCOUNT),
      outboxDir: null,
      allowPrivateWebhooks: true,
      explorerUrl: null,
      webhookKeys: parseKeyring(randomBytes(32).toString("hex")),
      log: createLogger("test"),
      statusCache: cache,
      rateLimits: {
        status: LIMIT,
        invoices: 0,
        links: 0,
        trustedProxies: { hops: 1, isTrusted: () => true },
      },
      accountLimits: { perKey: 100, redeliveries: 10, claims: 10 },
      pdf: { render: async () => Buffer.alloc(0) },
    };
    const pair = await startPair(deps);
    ({ honoPort, fastPort } = pair);
    const hono = pair.hono;
    const created = await hono.app.request("/api/links", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        merchant_email: "fastpath@example.com",
        amount: "5.00",
        description: "Fast path",
        wallet_type: "byo",
        wallet_address: "0x8ba1f109551bD432803012645Ac136ddd64DBA72",
      }),
    });
    expect(created.status).toBe(201);
    slug = ((await created.json()) as { slug: string }).slug;
  });
  afterAll(async () => {
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
    await cache?.stop();
    await database?.drop();
  });

  /** The same request to both servers: their answers, and whether the fast path answered. */
  const both = async (
    path: string,
    headers: Record<string, string>,
    ports = { honoPort, fastPort },
  ) => {
    const before = fastAnswers;
    // The fast server first: the cache is shared, and the Hono server's read would fill it.
    const fast = await rawGet(ports.fastPort, path, headers);
    const fastPathAnswered = fastAnswers > before;
    const hono = await rawGet(ports.honoPort, path, headers);
    return { hono, fast, fastPathAnswered };
  };

  test("a poll: the first reads the database (Hono path), the next come from the cache", async () => {
    const headers = { "X-Request-Id": "poll-1", "X-Forwarded-For": "203.0.113.1" };
    const first = await both(`/api/payments/status/${slug}`, headers);
    expect(first.fastPathAnswered).toBe(false);
    expect(comparable(first.fast)).toEqual(comparable(first.hono));
    expect(first.hono.status).toBe("HTTP/1.1 200 OK");
    expect(JSON.parse(first.hono.body)).toEqual({ status: "pending" });

    for (const path of [`/api/payments/status/${slug}`, `/api/payments/status/${slug}?t=1`]) {
      const cached = await both(path, { ...headers, "X-Forwarded-For": "203.0.113.2" });
      expect(cached.fastPathAnswered).toBe(true);
      expect(comparable(cached.fast)).toEqual(comparable(cached.hono));
      expect(cached.fast.headers.map(([name]) => name)).toEqual([
        "cache-control",
        "content-type",
        "ratelimit-limit",
        "ratelimit-remaining",
        "ratelimit-reset",
        "x-request-id",
        "Content-Length",
        "Date",
        "Connection",
      ]);
    }
  });

  test("a request id that is not a sane token is replaced by a fresh one on both paths", async () => {
    const { hono, fast, fastPathAnswered } = await both(`/api/payments/status/${slug}`, {
      "X-Request-Id": "<script>",
      "X-Forwarded-For": "203.0.113.3",
    });
    expect(fastPathAnswered).toBe(true);
    const id = (raw: Raw) => raw.headers.find(([name]) => name === "x-request-id")?.[1];
    expect(id(fast)).toMatch(/^[0-9a-f-]{36}$/);
    const masked = (raw: Raw) =>
      comparable(raw).headers.map(([name, value]) => [name, name === "x-request-id" ? "" : value]);
    expect(masked(fast)).toEqual(masked(hono));
    expect(fast.body).toBe(hono.body);
  });

  test("over the budget: the same 429", async () => {
    const headers = { "X-Request-Id": "limit", "X-Forwarded-For": "203.0.113.4" };
    for (let i = 0; i < LIMIT; i++) {
      const { hono, fast } = await both(`/api/payments/status/${slug}`, headers);
      expect(comparable(fast)).toEqual(comparable(hono));
    }
    const refused = await both(`/api/payments/status/${slug}`, headers);
    expect(refused.fastPathAnswered).toBe(true);
    expect(refused.hono.status).toBe("HTTP/1.1 429 Too Many Requests");
    // Seconds, rounded up: the two requests may fall on either side of a second.
    const seconds = (raw: Raw, name: string) =>
      Number(raw.headers.find(([header]) => header === name)?.[1]);
    for (const name of ["retry-after", "ratelimit-reset"])
      expect(
        Math.abs(seconds(refused.fast, name) - seconds(refused.hono, name)),
      ).toBeLessThanOrEqual(1);
    const exact = (raw: Raw) =>
      comparable(raw).headers.filter(
        ([name]) => name !== "retry-after" && name !== "ratelimit-reset",
      );
    expect(exact(refused.fast)).toEqual(exact(refused.hono));
    const body = (raw: Raw) => JSON.parse(raw.body.replace(/retry after \d+ s/, "retry after N s"));
    expect(body(refused.fast)).toEqual(body(refused.hono));
    expect(body(refused.fast).error).toMatchObject({ code: "rate_limited", request_id: "limit" });
  });

  test("a Host node-server refuses is its 400 on both; one it takes is served fast", async () => {
    const path = `/api/payments/status/${slug}`;
    for (const host of ["1.2.3", "a@b", "x y"]) {
      const refused = await both(path, { Host: host, "X-Forwarded-For": "203.0.113.9" });
      expect(refused.fastPathAnswered).toBe(false);
      expect(refused.hono.status).toMatch(/^HTTP\/1.1 400 /);
      expect(comparable(refused.fast)).toEqual(comparable(refused.hono));
    }
    // node-server's own quirk: it refuses a host with capitals and a port (the parsed hostname
    // is lower-cased, then compared with the header's), and takes either alone.
    for (const host of ["PAY.Example.com:8443"]) {
      const refused = await both(path, { Host: host, "X-Forwarded-For": "203.0.113.9" });
      expect(refused.fastPathAnswered).toBe(false);
      expect(comparable(refused.fast)).toEqual(comparable(refused.hono));
    }
    for (const host of ["pay.example.com:8443", "PAY.Example.com", "[::1]:3000"]) {
      const taken = await both(path, {
        Host: host,
        "X-Request-Id": "host",
        "X-Forwarded-For": "203.0.113.10",
      });
      expect(taken.fastPathAnswered).toBe(true);
      expect(taken.fast.status).toBe("HTTP/1.1 200 OK");
      expect(comparable(taken.fast)).toEqual(comparable(taken.hono));
    }
  });

  test("one budget for both paths: polls cannot earn a second one by mixing them", async () => {
    const headers = { "X-Request-Id": "mixed", "X-Forwarded-For": "203.0.113.11" };
    // Charged on the Hono path (a miss: an unknown slug reads the database and is a 404) ...
    const miss = await both("/api/payments/status/no-such-slug-either", headers);
    expect(miss.fastPathAnswered).toBe(false);
    expect(miss.fast.status).toBe("HTTP/1.1 404 Not Found");
    // ... then the rest of the budget on the fast path, and no more.
    for (let i = 1; i < LIMIT; i++) {
      const hit = await both(`/api/payments/status/${slug}`, headers);
      expect(hit.fastPathAnswered).toBe(true);
      expect(hit.fast.status).toBe("HTTP/1.1 200 OK");
    }
    const over = await both(`/api/payments/status/${slug}`, headers);
    expect(over.fastPathAnswered).toBe(true);
    expect(over.fast.status).toBe("HTTP/1.1 429 Too Many Requests");
    expect(over.hono.status).toBe("HTTP/1.1 429 Too Many Requests");
  });

  test("an unknown slug is the Hono path's 404", async () => {
    const { hono, fast, fastPathAnswered } = await both("/api/payments/status/no-such-slug", {
      "X-Request-Id": "unknown",
      "X-Forwarded-For": "203.0.113.6",
    });
    expect(fastPathAnswered).toBe(false);
    expect(hono.status).toBe("HTTP/1.1 404 Not Found");
    expect(comparable(fast)).toEqual(comparable(hono));
  });

  test("a bad key is still a 401 on this public route, and a body still meets the 413 guard", async () => {
    const path = `/api/payments/status/${slug}`;
    const badKey = await both(path, {
      "X-Request-Id": "bad-key",
      "X-Forwarded-For": "203.0.113.7",
      Authorization: "Bearer remit_sk_not-a-key",
    });
    expect(badKey.fastPathAnswered).toBe(false);
    expect(badKey.hono.status).toBe("HTTP/1.1 401 Unauthorized");
    expect(comparable(badKey.fast)).toEqual(comparable(badKey.hono));
    const announced = await both(path, {
      "X-Request-Id": "too-large",
      "X-Forwarded-For": "203.0.113.8",
      "Content-Length": String(10 * 1024 * 1024),
    });
    expect(announced.fastPathAnswered).toBe(false);
    expect(announced.hono.status).toBe("HTTP/1.1 413 Payload Too Large");
    expect(comparable(announced.fast)).toEqual(comparable(announced.hono));
  });

  test("in keys mode an anonymous poll is still answered (a public route), and a bad key is a 401", async () => {
    const keys = await startPair({ ...deps, auth: { mode: "keys", signup: "closed" } });
    const path = `/api/payments/status/${slug}`;
    const anonymous = await both(path, { "X-Request-Id": "keys-mode" }, keys);
    expect(anonymous.fastPathAnswered).toBe(true);
    expect(anonymous.fast.status).toBe("HTTP/1.1 200 OK");
    expect(comparable(anonymous.fast)).toEqual(comparable(anonymous.hono));
    const badKey = await both(
      path,
      { "X-Request-Id": "keys-bad", Authorization: "Bearer remit_sk_nope" },
      keys,
    );
    expect(badKey.fastPathAnswered).toBe(false);
    expect(badKey.fast.status).toBe("HTTP/1.1 401 Unauthorized");
    expect(comparable(badKey.fast)).toEqual(comparable(badKey.hono));
  });

  test("the fast path's answers are counted in the same HTTP metrics series", async () => {
    const series = async (port: number) => {
      const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      return text
        .split("\n")
        .filter((line) =>
          line.startsWith(
            'remit_http_request_duration_seconds_count{method="GET",route="/api/payments/status/:slug"',
          ),
        );
    };
    const [hono, fast] = await Promise.all([series(honoPort), series(fastPort)]);
    expect(fast.length).toBeGreaterThanOrEqual(2); // 200 and 429 at least
    expect(fast).toEqual(hono);
  });
});
