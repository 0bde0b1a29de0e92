import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { generatePrivateKey } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { MAX_CAPTURED_MESSAGE_BYTES } from "../../api/dev/outbox.ts";
import { requireProductionEmail } from "../../email/productionEmail.ts";
import { freePort } from "../../internal/freePort.ts";
import { localCaptureKey } from "../../internal/localCaptureKey.ts";
import { newMnemonic } from "../../keys/hdWallet.ts";
import { chainUrl } from "../helpers/chain.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";
import { postOversized } from "../helpers/oversizedPost.ts";
import { startApi, TEST_WEBHOOK_SECRET_KEY, type TestProcess } from "../helpers/processes.ts";
import { exitCode, startService } from "../helpers/service.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";

/**
 * The attack: the development email capture in production. With BASE_RPC_URL and no
 * SENDGRID_API_KEY, `/dev/outbox` served every email (with its invoice PDF) to anyone, and
 * `POST /dev/sendgrid/v3/mail/send` took any bearer token and a body of any size. Now mainnet
 * mode refuses to start without SendGrid, the capture exists only on a local chain, answers only
 * this machine, and takes no more than SendGrid would.
 */
const mail = (attachmentBytes = 10) => ({
  personalizations: [{ to: [{ email: "ap@globex.example" }] }],
  from: { email: "billing@remit.test" },
  subject: "Invoice INV-0001",
  content: [{ type: "text/plain", value: "hello" }],
  custom_args: { remit_email_id: "dev-outbox-test" },
  attachments: [
    { filename: "invoice.pdf", content: Buffer.alloc(attachmentBytes).toString("base64") },
  ],
});
/**
 * The status of a request to `url` + `path` with exactly these headers (node:http, since fetch
 * would not send a Host of our choosing).
 */
const statusOf = (url: string, path: string, headers: Record<string, string>, body?: string) =>
  new Promise<number>((resolve, reject) => {
    const request = http.request(
      `${url}${path}`,
      { method: body === undefined ? "GET" : "POST", headers, agent: false },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on("error", reject).end(body);
  });
/** The capture's key on a stack of the test helpers (their API and worker share the secret). */
const captureAuthorization = `Bearer ${localCaptureKey(TEST_WEBHOOK_SECRET_KEY)}`;
const send = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  statusOf(
    url,
    "/dev/sendgrid/v3/mail/send",
    { "content-type": "application/json", authorization: captureAuthorization, ...headers },
    JSON.stringify(body),
  );

describe("mainnet mode without a real email configuration", () => {
  const mainnet = { localChain: false, SENDGRID_API_KEY: "SG.key", EMAIL_FROM: "Acme <b@acme.io>" };

  test("is refused, naming the setting", () => {
    expect(() => requireProductionEmail(mainnet)).not.toThrow();
    expect(() => requireProductionEmail({ ...mainnet, SENDGRID_API_KEY: undefined })).toThrow(
      /SENDGRID_API_KEY is required with BASE_RPC_URL/,
    );
    // The default sender, which no SendGrid account can send from.
    expect(() =>
      requireProductionEmail({ ...mainnet, EMAIL_FROM: "Remit <invoices@remit.localhost>" }),
    ).toThrow(/EMAIL_FROM is required with BASE_RPC_URL/);
    // The local chain keeps its capture.
    expect(() =>
      requireProductionEmail({ localChain: true, EMAIL_FROM: "Remit <invoices@remit.localhost>" }),
    ).not.toThrow();
  });

  test("npm start refuses before starting anything", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "remit-no-sendgrid-"));
    try {
      const service = startService({
        DATA_DIR: dataDir,
        // Never reached: the refusal comes first.
        BASE_RPC_URL: `http://127.0.0.1:${await freePort()}`,
        START_BLOCK: "0",
        DEPOSIT_MNEMONIC: newMnemonic(),
        RELAYER_PRIVATE_KEY: generatePrivateKey(),
        WEBHOOK_SECRET_KEY: randomBytes(32).toString("hex"),
        EMBEDDED_PG_PORT: String(await freePort()),
      });
      expect(await exitCode(service)).toBe(1);
      expect(service.output()).toMatch(/failed to start: SENDGRID_API_KEY is required/);
      expect(service.output()).not.toMatch(/embedded postgres running/);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe("an API following a real chain", () => {
  let database: TestDatabase;
  let api: TestProcess & { url: string };
  beforeAll(async () => {
    database = await createTestDatabase();
    // Mainnet mode as the API sees it (started directly, past npm start's refusal).
    api = await startApi({
      databaseUrl: database.url,
      rpcUrl: chainUrl(),
      env: { BASE_RPC_URL: chainUrl(), START_BLOCK: "0" },
    });
  });
  afterAll(async () => {
    await api?.stop();
    await database?.drop();
  });

  test("serves no email capture at all", async () => {
    expect((await fetch(`${api.url}/dev/outbox`)).status).toBe(404);
    expect(await send(api.url, mail())).toBe(404);
  });
});

describe("the capture on a local chain", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  test("answers this machine, and nobody a proxy or another site's page speaks for", async () => {
    expect(await send(stack.api.url, mail())).toBe(202);
    expect((await stack.request("/dev/outbox")).status).toBe(200);
    expect((await stack.request("/dev/outbox/dev-outbox-test")).status).toBe(200);
    for (const headers of <Record<string, string>[]>[
      // Through a reverse proxy on this host (HOST=0.0.0.0 behind nginx, say).
      { "X-Forwarded-For": "203.0.113.9" },
      { Forwarded: "for=203.0.113.9" },
      // A browser here, on a page of another site (DNS rebinding, or a cross-site fetch).
      { Host: "evil.example" },
      { Origin: "https://evil.example" },
    ]) {
      expect(await statusOf(stack.api.url, "/dev/outbox", headers)).toBe(404);
      expect(await statusOf(stack.api.url, "/dev/outbox/dev-outbox-test", headers)).toBe(404);
      expect(await send(stack.api.url, mail(), headers)).toBe(404);
    }
  });

  test("takes no message larger than SendGrid would", async () => {
    const url = `${stack.api.url}/dev/sendgrid/v3/mail/send`;
    const headers = { "content-type": "application/json", authorization: captureAuthorization };
    const limit = MAX_CAPTURED_MESSAGE_BYTES;
    // Announced too large: refused before the body is read; streamed: refused past the cap.
    expect(await postOversized(url, headers, { limit, declare: true })).toBe(413);
    expect(await postOversized(url, headers, { limit, declare: false })).toBe(413);
    expect(await send(stack.api.url, mail(1024 * 1024))).toBe(202);
  });
});
