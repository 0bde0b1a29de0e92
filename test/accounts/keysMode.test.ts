import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runCli } from "../cli/run.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";
import { linkRequest } from "../links/fixtures.ts";
import { answer, bearer, claimedMerchant, codeOf, type Merchant, readKeyOf } from "./accounts.ts";

type Operation = { method: string; path: string };

/** The /api routes every mode leaves open (api/auth/publicRoutes.ts, docs/api.md). */
const PUBLIC = new Set([
  "GET /api/payments/status/{slug}",
  "GET /api/invoices/{id}/status",
  "GET /api/invoices/by-slug/{slug}/pdf",
  "POST /api/merchants/claim",
  "GET /api/transactions/{tx_hash}",
  "GET /api/x402/{slug}",
  // A payer's gasless authorizations, where the document has them.
  "POST /api/payments/{slug}/authorizations",
  "GET /api/payments/{slug}/authorizations/{id}",
]);
const CORE_PUBLIC = [...PUBLIC].filter((route) => !route.includes("authorizations"));

/**
 * AUTH_MODE=keys (the default with BASE_RPC_URL): every route of the published document but
 * the public ones needs a key; a key sees only its merchant's records; a read key writes nothing.
 */
describe("keys mode", () => {
  let stack: TestStack;
  let operations: Operation[];
  let acme: Merchant;
  let globex: Merchant;
  let invoice: { invoice_id: string; slug: string };

  beforeAll(async () => {
    stack = await startStack({ env: { AUTH_MODE: "keys" } });
    const doc = (await (await stack.request("/openapi.json")).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => ({ method: method.toUpperCase(), path })),
    );
    acme = await claimedMerchant(stack.db);
    globex = await claimedMerchant(stack.db);
    const created = await stack.request("/api/invoices", {
      method: "POST",
      json: invoiceRequest({ merchant_email: acme.email, send_now: false }),
      headers: bearer(acme.key),
    });
    invoice = (await created.json()) as typeof invoice;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  /** The path with its parameters filled: acme's invoice, a fresh UUID elsewhere. */
  const fill = (path: string) =>
    path
      .replace("{id}", path.startsWith("/api/keys") ? randomUUID() : invoice.invoice_id)
      .replace("{slug}", invoice.slug)
      .replace("{event_id}", randomUUID())
      .replace("{address}", "0x9f1A0469CBce2fEb53C705746446981548845b3B")
      // A route that requires a query gets a valid one, so the request reaches authorization.
      .concat(path.endsWith("/einvoice") ? "?format=cii" : "");
  const bodyFor = (path: string): unknown =>
    path === "/api/invoices"
      ? invoiceRequest({ merchant_email: acme.email })
      : path === "/api/links"
        ? linkRequest({ merchant_email: acme.email })
        : path === "/api/keys"
          ? { name: "x" }
          : path === "/api/merchant/wallets"
            ? { address: "0x9f1A0469CBce2fEb53C705746446981548845b3B" }
            : path === "/api/merchants/claim"
              ? { email: "someone@example.com" }
              : path.endsWith("/refunds")
                ? {}
                : path.endsWith("/credit-notes")
                  ? { full: true, reason: "x" }
                  : undefined;
  const call = async ({ method, path }: Operation, headers: Record<string, string> = {}) =>
    answer(
      await stack.request(fill(path), {
        method,
        ...(method === "GET" ? {} : { json: bodyFor(path) }),
        headers,
      }),
    );

  test("the document lists every route this test walks", () => {
    expect(operations.length).toBeGreaterThanOrEqual(18);
    for (const route of CORE_PUBLIC)
      expect(operations.map((o) => `${o.method} ${o.path}`)).toContain(route);
  });

  test("every route but the public ones: 401 without a key, in the usual shape", async () => {
    for (const operation of operations) {
      const name = `${operation.method} ${operation.path}`;
      const response = await call(operation);
      if (PUBLIC.has(name)) {
        expect([name, response.status]).not.toEqual([name, 401]);
        continue;
      }
      expect([name, response.status, codeOf(response.body)]).toEqual([
        name,
        401,
        "authentication_required",
      ]);
    }
    const raw = await stack.request(`/api/invoices/${invoice.invoice_id}`);
    expect(raw.headers.get("www-authenticate")).toBe('Bearer realm="remit"');
    // Public: the statuses, the vendor's PDF by slug, the claim request.
    expect((await stack.request(`/api/invoices/${invoice.invoice_id}/status`)).status).toBe(200);
    expect((await stack.request(`/api/payments/status/${invoice.slug}`)).status).toBe(200);
    expect((await stack.request(`/api/invoices/by-slug/${invoice.slug}/pdf`)).status).toBe(200);
  });

  test("another merchant's key: 403 for its email in a body, 404 for its records", async () => {
    for (const operation of operations) {
      const name = `${operation.method} ${operation.path}`;
      if (PUBLIC.has(name)) continue;
      const response = await call(operation, bearer(globex.key));
      // The creations (the lists at the same paths answer the key's own records).
      if (
        operation.method === "POST" &&
        (operation.path === "/api/invoices" || operation.path === "/api/links")
      ) {
        expect([name, response.status, codeOf(response.body)]).toEqual([
          name,
          403,
          "merchant_mismatch",
        ]);
      } else if (operation.path.startsWith("/api/invoices/")) {
        expect([name, response.status]).toEqual([name, 404]);
      }
      // Keys, wallets, audit: those of the key's own merchant (see openMode.test.ts).
    }
    const own = await answer(
      await stack.request(`/api/invoices/${invoice.invoice_id}`, { headers: bearer(acme.key) }),
    );
    expect([own.status, own.body.status]).toEqual([200, "draft"]);
  });

  test("a read key: 403 insufficient_scope on every write the document lists", async () => {
    const reader = await readKeyOf(stack, acme);
    let writes = 0;
    for (const operation of operations) {
      const name = `${operation.method} ${operation.path}`;
      if (PUBLIC.has(name)) continue;
      const response = await call(operation, bearer(reader));
      if (operation.method === "GET") {
        expect([name, response.status]).not.toEqual([name, 403]);
        continue;
      }
      writes++;
      expect([name, response.status, codeOf(response.body)]).toEqual([
        name,
        403,
        "insufficient_scope",
      ]);
    }
    // Create invoice and link, send, redeliver, create and revoke a key, add and remove a wallet,
    // change the merchant's settings, void an invoice, refund an invoice and a link; add, change,
    // delete, rotate and test a webhook endpoint; create, change, pause, resume, cancel and run a
    // schedule, change the reminder policy, remind a vendor now; pay out of the managed wallet;
    // issue a credit note; invite, change and remove a member.
    expect(writes).toBe(30);
  });

  test("`remit merchants add` prints a working key; the CLI creates an invoice with REMIT_API_KEY", async () => {
    const email = `cli-${randomUUID()}@example.com`;
    const added = await runCli(
      ["merchants", "add", "--email", email, "--name", `Cli Shop ${randomUUID()}`],
      { env: { DATABASE_URL: stack.database.url } },
    );
    expect(added.code).toBe(0);
    const lines = added.stdout.trimEnd().split("\n");
    const key = lines.at(-1) ?? "";
    expect(key).toMatch(/^remit_sk_[1-9A-HJ-NP-Za-km-z]{49}$/);
    expect(added.stderr).toContain(email);
    expect(added.stderr).not.toContain(key);

    const body = JSON.stringify(invoiceRequest({ merchant_email: email }));
    const api = ["--api", stack.api.url];
    const without = await runCli(["invoices", "create", "--stdin", ...api], { stdin: body });
    expect(without.code).toBe(1);
    expect(without.stderr).toContain("API key");

    const created = await runCli(["invoices", "create", "--stdin", ...api], {
      stdin: body,
      env: { REMIT_API_KEY: key },
    });
    expect([created.code, created.stderr]).toEqual([0, ""]);
    const invoiceBody = JSON.parse(created.stdout) as {
      invoice_id: string;
      invoice_number: string;
    };
    expect(invoiceBody.invoice_number).toBe("INV-0001");
    // The other invoice commands send it too; --api-key works like the variable.
    const got = await runCli(["invoices", "get", invoiceBody.invoice_id, ...api, "--api-key", key]);
    expect([got.code, JSON.parse(got.stdout).invoice_id]).toEqual([0, invoiceBody.invoice_id]);
    const status = await runCli(["invoices", "status", invoiceBody.invoice_id, ...api]);
    expect(status.code).toBe(0);

    // Adding the same email again: the same merchant, a second key; both work.
    const again = await runCli(["merchants", "add", "--email", email], {
      env: { DATABASE_URL: stack.database.url },
    });
    const second = again.stdout.trimEnd().split("\n").at(-1) ?? "";
    expect(second).not.toBe(key);
    for (const k of [key, second])
      expect((await stack.request("/api/keys", { headers: bearer(k) })).status).toBe(200);
  });

  test("--dry-run still needs nothing", async () => {
    const dry = await runCli(
      ["invoices", "create", "--stdin", "--dry-run", "--api", stack.api.url],
      {
        stdin: JSON.stringify(invoiceRequest()),
      },
    );
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ valid: true });
  });
});
