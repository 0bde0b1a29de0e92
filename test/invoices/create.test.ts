import { sql } from "kysely";
import { getAddress } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openSecret, parseKeyring } from "../../domain/secretBox.ts";
import { DEPOSIT_ACCOUNT, deriveAccount, managedWalletAccount } from "../../keys/hdWallet.ts";
import { TEST_WEBHOOK_SECRET_KEY } from "../helpers/processes.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { BYO_WALLET, invoiceRequest } from "./fixtures.ts";

type Json = Record<string, unknown>;

describe("POST /api/invoices", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const create = async (body: Json, headers: Record<string, string> = {}) => {
    const response = await stack.request("/api/invoices", { method: "POST", json: body, headers });
    return { status: response.status, body: (await response.json()) as Json };
  };
  const get = async (id: unknown) =>
    (await (await stack.request(`/api/invoices/${id}`)).json()) as Json;

  test("answers 201 with exactly the fields of spec §2.2 (plus status and x402_url)", async () => {
    const { status, body } = await create(invoiceRequest());
    expect(status).toBe(201);
    expect(Object.keys(body).sort()).toEqual(
      [
        "deposit_address",
        "invoice_id",
        "invoice_number",
        "invoice_url",
        "pdf_url",
        "sent_at",
        "slug",
        "status",
        "total_amount",
        "x402_url",
      ].sort(),
    );
    expect(body.x402_url).toBe(`${stack.api.url}/api/x402/${body.slug}`);
    expect(body.invoice_id).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(body.invoice_number).toBe("INV-0001");
    expect(body.slug).toMatch(/^[1-9A-HJ-NP-Za-km-z]{12}$/);
    expect(body.invoice_url).toBe(`${stack.api.url}/i/${body.slug}`);
    expect(body.pdf_url).toBe(`${stack.api.url}/api/invoices/${body.invoice_id}/pdf`);
    expect(body.deposit_address).toBe(getAddress(body.deposit_address as string));
    expect(body.total_amount).toBe("150.125");
    expect(body.status).toBe("sent");
    expect(Date.parse(body.sent_at as string)).toBeGreaterThan(Date.now() - 60_000);
  });

  test("computes line totals half-up to 6 decimals and renders the total with at least two decimals", async () => {
    const { body } = await create(
      invoiceRequest({
        line_items: [
          { description: "a", quantity: 0.5, unit_price: "0.000001" }, // 0.0000005 → 0.000001
          { description: "b", quantity: 3, unit_price: "0.333333" }, // 0.999999
          { description: "c", quantity: 1.5, unit_price: "0.000001" }, // 0.0000015 → 0.000002
          { description: "d", quantity: 0.1, unit_price: "0.30" }, // 0.03, not 0.030000000000000002
        ],
      }),
    );
    expect(body.total_amount).toBe("1.030002");
    const invoice = await get(body.invoice_id);
    expect((invoice.line_items as Json[]).map((line) => line.line_total)).toEqual([
      "0.000001",
      "0.999999",
      "0.000002",
      "0.03",
    ]);
    const whole = await create(
      invoiceRequest({ line_items: [{ description: "x", quantity: 1, unit_price: "150.0" }] }),
    );
    expect(whole.body.total_amount).toBe("150.00");
    const eighth = await create(
      invoiceRequest({ line_items: [{ description: "x", quantity: 1, unit_price: "0.125" }] }),
    );
    expect(eighth.body.total_amount).toBe("0.125");
  });

  test("accepts 30 line items", async () => {
    const items = Array.from({ length: 30 }, (_, i) => ({
      description: `Item ${i + 1}`,
      quantity: 1,
      unit_price: "1.00",
    }));
    const { status, body } = await create(invoiceRequest({ line_items: items }));
    expect(status).toBe(201);
    expect(body.total_amount).toBe("30.00");
  });

  test("numbers each merchant's invoices INV-0001, INV-0002, … with no gaps or duplicates under 50 parallel creations", async () => {
    const request = invoiceRequest();
    const other = invoiceRequest();
    const results = await Promise.all([
      ...Array.from({ length: 50 }, () => create(request)),
      ...Array.from({ length: 5 }, () => create(other)),
    ]);
    expect(results.every((r) => r.status === 201)).toBe(true);
    const numbers = results
      .slice(0, 50)
      .map((r) => r.body.invoice_number as string)
      .sort();
    expect(numbers).toEqual(
      Array.from({ length: 50 }, (_, i) => `INV-${String(i + 1).padStart(4, "0")}`),
    );
    expect(
      results
        .slice(50)
        .map((r) => r.body.invoice_number)
        .sort(),
    ).toEqual(["INV-0001", "INV-0002", "INV-0003", "INV-0004", "INV-0005"]);
    // Every invoice has its own deposit address and slug.
    expect(new Set(results.map((r) => r.body.deposit_address)).size).toBe(55);
    expect(new Set(results.map((r) => r.body.slug)).size).toBe(55);
  });

  test("the merchant's email identifies it case-insensitively", async () => {
    const request = invoiceRequest();
    await create(request);
    const { body } = await create({
      ...request,
      merchant_email: (request.merchant_email as string).toUpperCase(),
    });
    expect(body.invoice_number).toBe("INV-0002");
  });

  test("derives a deposit address per invoice from the seed and registers it for the indexer", async () => {
    const { body } = await create(invoiceRequest());
    const row = await stack.db
      .selectFrom("app.deposit_addresses")
      .selectAll()
      .where("address", "=", (body.deposit_address as string).toLowerCase())
      .executeTakeFirstOrThrow();
    expect(deriveAccount(stack.mnemonic, DEPOSIT_ACCOUNT, row.derivation_index).address).toBe(
      body.deposit_address,
    );
  });

  test("managed: provisions one managed wallet per merchant, derived from the seed", async () => {
    const request = invoiceRequest({ wallet_type: "managed" });
    const first = await get((await create(request)).body.invoice_id);
    const second = await get((await create(request)).body.invoice_id);
    const other = await get((await create(invoiceRequest())).body.invoice_id);
    expect(first.wallet_address).toBe(second.wallet_address);
    expect(other.wallet_address).not.toBe(first.wallet_address);
    const merchant = await stack.db
      .selectFrom("app.merchants")
      .selectAll()
      .where("email", "=", request.merchant_email as string)
      .executeTakeFirstOrThrow();
    // Hardened, derived by the worker's side (test/security/managedWalletKeyAndXpubRevealAll.test.ts).
    expect(merchant.managed_wallet_hardened).toBe(true);
    expect(
      managedWalletAccount(stack.mnemonic, merchant.managed_wallet_index as number, true).address,
    ).toBe(first.wallet_address);
  });

  test("byo: records the merchant's own wallet", async () => {
    const { body } = await create(
      invoiceRequest({ wallet_type: "byo", wallet_address: BYO_WALLET }),
    );
    const invoice = await get(body.invoice_id);
    expect(invoice.wallet_type).toBe("byo");
    expect(invoice.wallet_address).toBe(BYO_WALLET);
    const merchant = await stack.db
      .selectFrom("app.merchants")
      .select("managed_wallet_address")
      .where("email", "=", invoice.merchant_email as string)
      .executeTakeFirstOrThrow();
    expect(merchant.managed_wallet_address).toBeNull();
  });

  test("send_now false leaves a draft with sent_at null and queues no email", async () => {
    const { body } = await create(invoiceRequest({ send_now: false }));
    expect(body.status).toBe("draft");
    expect(body.sent_at).toBeNull();
    const emails = await stack.db
      .selectFrom("app.emails")
      .selectAll()
      .where("invoice_id", "=", body.invoice_id as string)
      .execute();
    expect(emails).toEqual([]);
  });

  test("returns the webhook secret once, in the 201, and never from any other endpoint", async () => {
    const { body } = await create(
      invoiceRequest({ webhook_url: "https://hooks.example.com/remit" }),
    );
    expect(body.webhook_secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const secret = body.webhook_secret as string;
    for (const path of [
      `/api/invoices/${body.invoice_id}`,
      `/api/invoices/${body.invoice_id}/status`,
      "/openapi.json",
    ]) {
      const text = await (await stack.request(path)).text();
      expect(text).not.toContain(secret);
    }
    const invoice = await get(body.invoice_id);
    expect(invoice.webhook_url).toBe("https://hooks.example.com/remit");
    expect(invoice).not.toHaveProperty("webhook_secret");
    // Stored sealed, for the worker to sign with (test/abuse/webhookSecretsAtRest.test.ts).
    const { rows } = await sql<{
      webhook_secret: string;
    }>`select webhook_secret from app.invoices where id = ${body.invoice_id}`.execute(stack.db);
    expect(
      openSecret(rows[0]?.webhook_secret as string, parseKeyring(TEST_WEBHOOK_SECRET_KEY)),
    ).toBe(secret);
    // Without a webhook_url there is no secret at all.
    expect((await create(invoiceRequest())).body).not.toHaveProperty("webhook_secret");
  });

  test("Idempotency-Key: a replay returns the original 201; a different body under the same key is a 409", async () => {
    const request = invoiceRequest({ webhook_url: "https://hooks.example.com/x" });
    const key = `key-${crypto.randomUUID()}`;
    const first = await create(request, { "Idempotency-Key": key });
    const [second, third] = await Promise.all([
      create(request, { "Idempotency-Key": key }),
      create({ ...request }, { "Idempotency-Key": key }),
    ]);
    expect(first.status).toBe(201);
    expect(second).toEqual(first);
    expect(third).toEqual(first);
    const count = await stack.db
      .selectFrom("app.invoices")
      .select(stack.db.fn.countAll().as("n"))
      .where("merchant_email", "=", request.merchant_email as string)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);

    const changed = await create({ ...request, notes: "different" }, { "Idempotency-Key": key });
    expect(changed.status).toBe(409);
    expect((changed.body.error as Json).code).toBe("idempotency_key_reused");
    // The same body without a key is a new invoice.
    expect((await create(request)).body.invoice_number).toBe("INV-0002");
  });
});
