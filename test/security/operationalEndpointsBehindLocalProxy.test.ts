import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parseEnv } from "../../internal/env.ts";
import { stopProcess, waitFor } from "../../internal/process.ts";
import { privatePorts, type Service, startService, waitForLine } from "../helpers/service.ts";
import { EVENT_MS } from "../helpers/waits.ts";

/**
 * The attack: "local" was decided from what a request looks like (a loopback peer, no
 * forwarding headers, a loopback Host). A reverse proxy on the same host as shipped (nginx's
 * `proxy_pass http://127.0.0.1:3000;`) connects from loopback, sends `Host: 127.0.0.1:3000` and
 * no X-Forwarded-For: every visitor's request looked local, and `/metrics` and the email capture
 * (`/dev/outbox`: every email, claim links included) were served to the internet. Now the
 * public port trusts appearances only in the zero-config development set-up; a published service
 * (here: a public BASE_URL, as any operator behind a proxy sets) answers them there with
 * OPS_TOKEN only, and serves this machine on its loopback operational listener (OPS_PORT), which
 * no proxy to the public port reaches.
 *
 * The real service (`npm start`) runs behind a tiny proxy forwarding exactly as nginx's
 * defaults do, and is told nothing about it (TRUST_PROXY stays 0).
 */
const OPS_TOKEN = "ops-token-for-the-proxy-suite-0123456789";
const PUBLIC_ORIGIN = "https://pay.remit.example";
/** A SendGrid v3 body the capture would accept. */
const MAIL = JSON.stringify({
  personalizations: [{ to: [{ email: "planted@example.com" }] }],
  from: { email: "invoices@remit.localhost" },
  subject: "planted",
  content: [{ type: "text/plain", value: "planted" }],
});

type Answer = { status: number; body: string };

/** Status and body of a request with exactly these headers (fetch would not send our Host). */
const call = (
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
) =>
  new Promise<Answer>((resolve, reject) => {
    const request = http.request(
      url,
      { method: options.method ?? "GET", headers: options.headers ?? {}, agent: false },
      (response) => {
        let text = "";
        response.on("data", (chunk) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    request.on("error", reject).end(options.body);
  });

/**
 * A reverse proxy as nginx's defaults make it: to 127.0.0.1:<port>, from loopback, with
 * `Host: 127.0.0.1:<port>` and no X-Forwarded-For, Forwarded or X-Real-IP.
 */
function startLocalProxy(upstreamPort: number): Promise<{ url: string; close: () => void }> {
  const server = http.createServer((incoming, outgoing) => {
    const upstream = http.request(
      {
        host: "127.0.0.1",
        port: upstreamPort,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: `127.0.0.1:${upstreamPort}` },
        agent: false,
      },
      (response) => {
        outgoing.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(outgoing);
      },
    );
    upstream.on("error", () => outgoing.writeHead(502).end());
    incoming.pipe(upstream);
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () => {
          server.close();
          server.closeAllConnections();
        },
      }),
    ),
  );
}

/** Every operational request of the public port: the metrics and the whole email capture. */
const OPERATIONAL = [
  { path: "/metrics", refused: 401 },
  { path: "/dev/outbox", refused: 404 },
  { path: "/dev/outbox/some-message", refused: 404 },
  {
    path: `/dev/sendgrid/v3/messages?query=${encodeURIComponent(`custom_args['remit_email_id']="x"`)}`,
    refused: 404,
  },
  {
    path: "/dev/sendgrid/v3/mail/send",
    refused: 404,
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer SG.anything" },
    body: MAIL,
  },
];

describe("operational endpoints behind a reverse proxy on this host, as nginx ships", () => {
  let dataDir: string;
  let service: Service;
  let proxy: { url: string; close: () => void };
  let apiUrl: string;
  let opsUrl: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "remit-behind-proxy-"));
    const ports = await privatePorts();
    apiUrl = ports.apiUrl;
    opsUrl = `http://127.0.0.1:${ports.env.OPS_PORT}`;
    // A local chain (so the email capture exists), published under a public origin.
    service = startService({
      DATA_DIR: dataDir,
      ...ports.env,
      BASE_URL: PUBLIC_ORIGIN,
      PAY_URL: PUBLIC_ORIGIN,
      OPS_TOKEN,
    });
    await waitForLine(service, /healthy in/);
    proxy = await startLocalProxy(Number(ports.env.PORT));
  }, 180_000);
  afterAll(async () => {
    proxy?.close();
    if (service) await stopProcess(service.child, "SIGINT", 30_000);
    await rm(dataDir, { recursive: true, force: true });
  });

  test("through the proxy, nobody gets /metrics or the email capture; /health is unchanged", async () => {
    for (const { path: route, refused, ...request } of OPERATIONAL) {
      const answer = await call(`${proxy.url}${route}`, request);
      expect(answer.status, route).toBe(refused);
      expect(answer.body, route).not.toMatch(/remit_|process_|nodejs_|planted|@/);
    }
    // What the proxy sends is what curl on this machine sends: it is refused the same way.
    for (const { path: route, refused, ...request } of OPERATIONAL)
      expect((await call(`${apiUrl}${route}`, request)).status, route).toBe(refused);
    // A wrong token is no token.
    const wrong = { authorization: `Bearer ${OPS_TOKEN.slice(0, -1)}` };
    expect((await call(`${proxy.url}/metrics`, { headers: wrong })).status).toBe(401);
    expect((await call(`${proxy.url}/dev/outbox`, { headers: wrong })).status).toBe(404);
    // Nothing planted reached the outbox.
    const outbox = JSON.parse((await call(`${opsUrl}/dev/outbox`)).body) as {
      messages: { subject: string }[];
    };
    expect(outbox.messages.map((m) => m.subject)).not.toContain("planted");
    expect((await call(`${proxy.url}/health`)).status).toBe(200);
  });

  test("through the proxy, the operator's token is served both", async () => {
    const headers = { authorization: `Bearer ${OPS_TOKEN}` };
    const metrics = await call(`${proxy.url}/metrics`, { headers });
    expect(metrics.status).toBe(200);
    expect(metrics.body).toMatch(/^remit_http_request_duration_seconds_bucket/m);
    const outbox = await call(`${proxy.url}/dev/outbox`, { headers });
    expect(outbox.status).toBe(200);
    expect(JSON.parse(outbox.body)).toHaveProperty("messages");
  });

  test("the loopback operational listener serves this machine, and the worker's emails land there", async () => {
    const metrics = await call(`${opsUrl}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.body).toMatch(/^remit_http_request_duration_seconds_bucket/m);
    // A visitor asks for a claim link through the proxy; the worker's email reaches the capture
    // on the operational listener, and this machine reads it there without a token.
    const email = `owner-${randomUUID()}@example.com`;
    const claim = await call(`${proxy.url}/api/merchants/claim`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email }),
    });
    expect(claim.status).toBe(202);
    await waitFor(
      "the claim email in the outbox of the operational listener",
      async () => {
        const answer = await call(`${opsUrl}/dev/outbox`);
        expect(answer.status).toBe(200);
        const { messages } = JSON.parse(answer.body) as { messages: { to: string[] }[] };
        return messages.some((message) => message.to.includes(email));
      },
      { timeoutMs: EVENT_MS, intervalMs: 100 },
    );
    // Still not for another site's page in a browser here (DNS rebinding).
    expect((await call(`${opsUrl}/metrics`, { headers: { host: "evil.example" } })).status).toBe(
      401,
    );
    expect((await call(`${opsUrl}/dev/outbox`, { headers: { host: "evil.example" } })).status).toBe(
      404,
    );
  });
});

describe("which configurations let the public port trust a local-looking request", () => {
  test("only the zero-config development set-up", () => {
    expect(parseEnv({}).opsTrustLocal).toBe(true);
    expect(parseEnv({ HOST: "localhost", BASE_URL: "http://127.0.0.1:3000" }).opsTrustLocal).toBe(
      true,
    );
    expect(parseEnv({ HOST: "::1" }).opsTrustLocal).toBe(true);
    for (const published of [
      { HOST: "0.0.0.0" },
      { HOST: "::" },
      { TRUST_PROXY: "1" },
      { BASE_URL: PUBLIC_ORIGIN },
      { PAY_URL: PUBLIC_ORIGIN },
      { BASE_RPC_URL: "https://base.example", START_BLOCK: "1" },
    ])
      expect(parseEnv(published).opsTrustLocal, JSON.stringify(published)).toBe(false);
  });
});
