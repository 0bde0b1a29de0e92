import { randomUUID } from "node:crypto";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { waitFor } from "../../internal/process.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { EVENT_MS } from "../helpers/waits.ts";
import { startWebhookReceiver } from "../helpers/webhookReceiver.ts";
import { linkRequest } from "./fixtures.ts";

type Json = Record<string, unknown>;

describe("payment links", () => {
  const chain = useChainForFile();
  let stack: TestStack;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

  beforeAll(async () => {
    await chain.snapshot();
    receiver = await startWebhookReceiver();
    stack = await startStack({ worker: true, indexer: true });
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.stop();
    await chain.revert();
  });

  const create = async (body: Json, headers: Record<string, string> = {}) => {
    const response = await stack.request("/api/links", { method: "POST", json: body, headers });
    return { status: response.status, body: (await response.json()) as Json };
  };
  const linksDescribed = (description: string) =>
    stack.db
      .selectFrom("app.payment_links")
      .select("slug")
      .where("description", "=", description)
      .execute();
  const status = async (slug: unknown) => {
    const response = await stack.request(`/api/payments/status/${slug}`);
    return { status: response.status, body: (await response.json()) as Json };
  };

  test("POST /api/links answers 201 with the link, its snippets and its own deposit address", async () => {
    const { status: code, body } = await create(linkRequest());
    expect(code).toBe(201);
    const slug = body.slug as string;
    expect(body).toEqual({
      link_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      slug: expect.stringMatching(/^[1-9A-HJ-NP-Za-km-z]{12}$/),
      payment_link: `${stack.api.url}/pay/${slug}`,
      iframe_snippet: `<iframe src="${stack.api.url}/pay/${slug}" width="400" height="600" frameborder="0" title="Pay with USDC" allow="clipboard-write"></iframe>`,
      js_widget_snippet: `<script src="${stack.api.url}/w.js" data-slug="${slug}" async></script>`,
      deposit_address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
      amount: "25.00",
      status: "pending",
      merchant_portal: `${stack.api.url}/merchant/${slug}`,
      x402_url: `${stack.api.url}/api/x402/${slug}`,
    });
    expect((await status(slug)).body).toEqual({ status: "pending" });
    const other = await create(linkRequest());
    expect(other.body.deposit_address).not.toBe(body.deposit_address);
  });

  test("validation: the same rules and error shape as invoices", async () => {
    const cases: [Json, string, string][] = [
      [{ amount: "25" }, "amount", "invalid_decimal"],
      [{ amount: 25 }, "amount", "invalid_decimal"],
      [{ amount: "0.00" }, "amount", "not_positive"],
      [{ description: "" }, "description", "required"],
      [{ merchant_email: "nope" }, "merchant_email", "invalid_email"],
      [{ wallet_type: "byo" }, "wallet_address", "required"],
      [
        { wallet_type: "byo", wallet_address: "0x8ba1f109551bd432803012645ac136ddd64dba72" },
        "wallet_address",
        "not_checksummed",
      ],
      [{ metadata: { order: { nested: true } } }, "metadata.order", "invalid_metadata_value"],
      [{ redirect_url: "javascript:alert(1)" }, "redirect_url", "invalid_url"],
      [{ amout: "1.00" }, "amout", "unknown_field"],
    ];
    for (const [overrides, path, code] of cases) {
      const { status: httpStatus, body } = await create(linkRequest(overrides));
      expect(httpStatus, JSON.stringify(overrides)).toBe(400);
      expect((body.error as { fields: Json[] }).fields, JSON.stringify(overrides)).toContainEqual(
        expect.objectContaining({ path, code }),
      );
    }
    const typo = await create(linkRequest({ amout: "1.00" }));
    expect((typo.body.error as { fields: Json[] }).fields).toContainEqual(
      expect.objectContaining({ message: 'is not a known field; did you mean "amount"?' }),
    );
    expect(await linksDescribed("")).toEqual([]);
  });

  test("currency: a link priced in EUR names it; an unknown code or a cent's fraction in a currency is a field-level 400, nothing stored", async () => {
    const eur = await create(linkRequest({ currency: "EUR", amount: "25.50" }));
    expect(eur.status).toBe(201);
    expect(eur.body).toMatchObject({ amount: "25.50", currency: "EUR", status: "pending" });
    const stored = await stack.db
      .selectFrom("app.payment_links")
      .select(["currency", "amount"])
      .where("id", "=", eur.body.link_id as string)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ currency: "EUR", amount: 25_500_000n });
    // USDC, said or not, keeps the spec's body: no currency field in it.
    expect(
      (await create(linkRequest({ currency: "USDC", amount: "25.005" }))).body,
    ).not.toHaveProperty("currency");

    const cases: [Json, string, string][] = [
      [{ currency: "JPY" }, "currency", "invalid_enum"],
      [{ currency: "eur" }, "currency", "invalid_enum"],
      [{ currency: "EUR", amount: "25.001" }, "amount", "too_many_decimals"],
      [{ currency: "GBP", amount: "0.005" }, "amount", "too_many_decimals"],
    ];
    const description = `Refused ${randomUUID()}`;
    for (const [overrides, path, code] of cases) {
      const { status: httpStatus, body } = await create(linkRequest({ description, ...overrides }));
      expect(httpStatus, JSON.stringify(overrides)).toBe(400);
      expect((body.error as { fields: Json[] }).fields, JSON.stringify(overrides)).toEqual([
        expect.objectContaining({ path, code }),
      ]);
    }
    expect(await linksDescribed(description)).toEqual([]);
  });

  test("unknown slugs are 404 JSON", async () => {
    for (const slug of ["zzzzzzzzzzzz", "0OIl", "x".repeat(80)]) {
      const { status: code, body } = await status(slug);
      expect(code).toBe(404);
      expect((body.error as Json).code).toBe("not_found");
    }
  });

  test("Idempotency-Key replays the 201 and refuses a different body", async () => {
    const key = randomUUID();
    const request = linkRequest({ webhook_url: receiver.url });
    const first = await create(request, { "Idempotency-Key": key });
    expect(await create(request, { "Idempotency-Key": key })).toEqual(first);
    expect((await create({ ...request, amount: "26.00" }, { "Idempotency-Key": key })).status).toBe(
      409,
    );
    // The key's record names the link it created.
    const stored = await stack.db
      .selectFrom("app.idempotency_keys")
      .select("link_id")
      .where("key", "=", key)
      .executeTakeFirstOrThrow();
    expect(stored.link_id).toBe(first.body.link_id);
  });

  test("payments move a link pending → confirmed, partial, excess, with webhooks carrying the metadata", async () => {
    const pay = async (amount: string, value: bigint) => {
      const { body } = await create(linkRequest({ amount, webhook_url: receiver.url }));
      const paid = await chain.payUsdc(devAccount(8), body.deposit_address as Address, value);
      return { slug: body.slug as string, paid, secret: body.webhook_secret };
    };
    const until = (slug: string, expected: string) =>
      waitFor(
        `link ${expected}`,
        async () => {
          const { body } = await status(slug);
          return body.status === expected && body;
        },
        { timeoutMs: EVENT_MS, intervalMs: 50 },
      );

    const exact = await pay("25.00", 25_000_000n);
    const block = await chain.client.getBlock({ blockNumber: exact.paid.blockNumber });
    expect(await until(exact.slug, "confirmed")).toEqual({
      status: "confirmed",
      tx_hash: exact.paid.transactionHash,
      amount_usdc: "25.00",
      confirmed_at: new Date(Number(block.timestamp) * 1000).toISOString(),
      metadata: { order_id: "1042", gift: false },
    });
    const hook = await waitFor("the link webhook", async () =>
      receiver.received.find((h) => h.body.includes(exact.slug)),
    );
    expect(JSON.parse(hook.body)).toMatchObject({
      type: "link.confirmed",
      slug: exact.slug,
      status: "confirmed",
      amount_usdc: "25.00",
      metadata: { order_id: "1042" },
    });

    const under = await pay("25.00", 10_000_000n);
    expect(await until(under.slug, "partial")).toMatchObject({ amount_usdc: "10.00" });
    const over = await pay("25.00", 30_000_000n);
    expect(await until(over.slug, "excess")).toMatchObject({ amount_usdc: "30.00" });
  });
});
