import { randomUUID } from "node:crypto";
import { parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterEach, describe, expect, test } from "vitest";
import { answer, codeOf } from "../accounts/accounts.ts";
import { devAccount, useChain } from "../helpers/chain.ts";
import { parseMetrics, sampleValue } from "../helpers/prometheus.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { freshAddress, invoiceApi, type Json, priced, until } from "../refunds/helpers.ts";

type GasBudget = {
  spent: number;
  spent_by_kind: { sweep: number; refund: number; gasless: number };
  limit: number | null;
  per_merchant_limit: number | null;
  exhausted: boolean;
};

/**
 * Every refund is a transaction whose gas the relayer pays (about 86,000 gas), and anyone who
 * may refund (any key of a merchant; anyone at all in open mode) asked for as many as they
 * liked, of 0.000001 USDC each: an empty relayer stops sweeps, refunds and gasless payments for
 * every merchant. Now no refund is below REFUND_MINIMUM (0.10), an invoice has at most three
 * unfinished refunds, a merchant has an hourly refund rate, and every refund, sweep and gasless
 * payment counts against the relayer's daily gas budgets (the service's and the merchant's),
 * which /health and /metrics report.
 */
describe("dust refunds cannot drain the relayer", () => {
  const chain = useChain();
  const relayerKey = generatePrivateKey();
  const relayer = privateKeyToAccount(relayerKey).address;
  let stack: TestStack;

  const start = async (env: NodeJS.ProcessEnv = {}) => {
    await chain.client.setBalance({ address: relayer, value: parseEther("1") });
    stack = await startStack({
      worker: true,
      indexer: true,
      env: { RELAYER_PRIVATE_KEY: relayerKey, ...env },
    });
    const api = invoiceApi(stack);
    // Each refund here is a new intent (the same amount again and again, to reach the caps):
    // a key of its own, as the typed client and the CLI send, so none is taken for a
    // resubmission (409 duplicate_refund).
    return { ...api, refund: (id: string, body: Json) => api.refund(id, body, randomUUID()) };
  };
  afterEach(async () => {
    await stack?.stop();
  });

  /** An invoice of 1.00 paid `paid` units and counted (a partial payment is held, not swept). */
  const paidInvoice = async (
    api: Pick<ReturnType<typeof invoiceApi>, "create" | "status">,
    paid: bigint,
    { payer = 1, merchantEmail }: { payer?: number; merchantEmail?: string } = {},
  ) => {
    const invoice = await api.create({
      ...priced("1.00"),
      wallet_type: "byo",
      wallet_address: freshAddress(),
      ...(merchantEmail ? { merchant_email: merchantEmail } : {}),
    });
    await chain.payUsdc(devAccount(payer), invoice.deposit_address, paid);
    await until(
      "the payment counted",
      async () => (await api.status(invoice.invoice_id)).status !== "sent",
    );
    return invoice;
  };
  const refundRows = async () =>
    stack.db.selectFrom("app.refunds").select(["id", "status", "amount"]).execute();
  const gasBudget = async () => {
    const health = (await (await stack.request("/health")).json()) as {
      components: { relayer?: { gas_budget?: GasBudget } };
    };
    const budget = health.components.relayer?.gas_budget;
    if (!budget) throw new Error(`no gas budget in /health: ${JSON.stringify(health)}`);
    return budget;
  };
  const metrics = async () => parseMetrics(await (await stack.request("/metrics")).text());

  test("a dust refund is a field-level 400, and refunding everything when that is dust a 409: nothing stored, no gas spent", async () => {
    const api = await start();
    const invoice = await paidInvoice(api, 50_000n);
    const nonce = await chain.client.getTransactionCount({ address: relayer });

    for (const amount of ["0.000001", "0.01", "0.099999"]) {
      const dust = await answer(
        await api.refund(invoice.invoice_id, { amount, to: freshAddress() }),
      );
      expect([dust.status, codeOf(dust.body)]).toEqual([400, "validation_failed"]);
      const fields = (dust.body.error as { fields: Json[] }).fields;
      expect(fields).toEqual([expect.objectContaining({ path: "amount", code: "below_minimum" })]);
      expect(String(fields[0]?.message)).toContain("0.10 USDC");
    }
    // No amount: a partial payment is the merchant's revenue in the making, not held money, so
    // nothing is refunded without an amount (docs/api.md, "A refund says what it returns").
    const all = await answer(await api.refund(invoice.invoice_id, { to: freshAddress() }));
    expect([all.status, codeOf(all.body)]).toEqual([409, "nothing_to_refund"]);
    expect(String((all.body.error as Json).message)).toContain("0.05 USDC");

    expect(await refundRows()).toEqual([]);
    expect(await chain.client.getTransactionCount({ address: relayer })).toBe(nonce);
  });

  test("the fourth unfinished refund of an invoice is refused with 409", async () => {
    const api = await start();
    const invoice = await paidInvoice(api, 500_000n);
    // Claim-link refunds stay `requested` until the payer names an address: unfinished.
    for (let i = 0; i < 3; i++) {
      const accepted = await answer(await api.refund(invoice.invoice_id, { amount: "0.10" }));
      expect(accepted.status).toBe(201);
    }
    const fourth = await answer(await api.refund(invoice.invoice_id, { amount: "0.10" }));
    expect([fourth.status, codeOf(fourth.body)]).toEqual([409, "too_many_unfinished_refunds"]);
    const fifth = await answer(
      await api.refund(invoice.invoice_id, { amount: "0.10", to: freshAddress() }),
    );
    expect(codeOf(fifth.body)).toBe("too_many_unfinished_refunds");
    expect(await refundRows()).toHaveLength(3);
  });

  test("a merchant's refunds are rate-limited per hour across its invoices: 429 with Retry-After", async () => {
    const api = await start({ REFUNDS_PER_MERCHANT_PER_HOUR: "2" });
    // Two invoices of one merchant (open mode: anyone may refund them, no key needed).
    const merchantEmail = `merchant-${Date.now()}@example.com`;
    const first = await paidInvoice(api, 500_000n, { payer: 1, merchantEmail });
    const second = await paidInvoice(api, 500_000n, { payer: 2, merchantEmail });
    expect((await api.refund(first.invoice_id, { amount: "0.10" })).status).toBe(201);
    expect((await api.refund(second.invoice_id, { amount: "0.10" })).status).toBe(201);

    const limited = await api.refund(first.invoice_id, { amount: "0.10" });
    const body = (await limited.json()) as Json;
    expect([limited.status, codeOf(body)]).toEqual([429, "rate_limited"]);
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(await refundRows()).toHaveLength(2);
    // Another merchant's refunds are not held back by this one's rate.
    const other = await paidInvoice(api, 500_000n, { payer: 3 });
    expect((await api.refund(other.invoice_id, { amount: "0.10" })).status).toBe(201);
  });

  test("refunds are reserved against the merchant's daily gas budget: past it, 429; /health and /metrics show the spend", async () => {
    // Two refunds' reservations (120,000 gas each) fit, a third does not.
    const api = await start({ RELAYER_MERCHANT_DAILY_GAS_BUDGET: "250000" });
    const invoice = await paidInvoice(api, 500_000n);
    expect((await api.refund(invoice.invoice_id, { amount: "0.10" })).status).toBe(201);
    expect((await api.refund(invoice.invoice_id, { amount: "0.10" })).status).toBe(201);

    const over = await api.refund(invoice.invoice_id, { amount: "0.10" });
    const body = (await over.json()) as Json;
    expect([over.status, codeOf(body)]).toEqual([429, "relayer_budget_exhausted"]);
    const retryAfter = Number(over.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(86_400);
    expect(await refundRows()).toHaveLength(2);

    // Nothing was swept (a partial payment is held) or relayed: the two reservations alone.
    expect(await gasBudget()).toMatchObject({
      spent: 240_000,
      spent_by_kind: { sweep: 0, refund: 240_000, gasless: 0 },
      per_merchant_limit: 250_000,
    });
    const samples = await metrics();
    expect(sampleValue(samples, "remit_relayer_gas_spent_today", { kind: "refund" })).toBe(240_000);
    expect(sampleValue(samples, "remit_relayer_gas_budget_per_merchant_daily")).toBe(250_000);
  });

  test("with a tiny daily budget a sweep still goes (counted, never refused) and a refund is refused; /health and /metrics show the spend", async () => {
    const api = await start({ RELAYER_DAILY_GAS_BUDGET: "1000" });
    const wallet = freshAddress();
    const invoice = await api.create({
      ...priced("1.00"),
      wallet_type: "byo",
      wallet_address: wallet,
    });
    await chain.payUsdc(devAccount(3), invoice.deposit_address, 1_500_000n);
    await api.swept(invoice.invoice_id);
    expect(await chain.usdcBalance(wallet)).toBe(1_000_000n);

    // The sweep's transaction is recorded as the merchant's, with the gas its receipt used.
    const sweeps = await stack.db
      .selectFrom("app.relayer_transactions")
      .select(["purpose", "merchant_id", "gas_used", "status"])
      .execute();
    expect(sweeps).toHaveLength(1);
    const [sweep] = sweeps;
    const merchant = await stack.db
      .selectFrom("app.invoices")
      .select("merchant_id")
      .where("id", "=", invoice.invoice_id)
      .executeTakeFirstOrThrow();
    expect(sweep).toMatchObject({ status: "mined", merchant_id: merchant.merchant_id });
    const sweepGas = Number(sweep?.gas_used);
    expect(sweepGas).toBeGreaterThan(21_000);

    const refused = await api.refund(invoice.invoice_id, { to: freshAddress() });
    const body = (await refused.json()) as Json;
    expect([refused.status, codeOf(body)]).toEqual([429, "relayer_budget_exhausted"]);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refundRows()).toEqual([]);

    expect(await gasBudget()).toMatchObject({
      spent: sweepGas,
      spent_by_kind: { sweep: sweepGas, refund: 0, gasless: 0 },
      limit: 1000,
      exhausted: true,
    });
    const samples = await metrics();
    expect(sampleValue(samples, "remit_relayer_gas_spent_today", { kind: "sweep" })).toBe(sweepGas);
    expect(sampleValue(samples, "remit_relayer_gas_budget_daily")).toBe(1000);
  });

  test("a refund's transaction counts as the merchant's, at the gas it used", async () => {
    const api = await start();
    const invoice = await paidInvoice(api, 500_000n);
    const created = await answer(
      await api.refund(invoice.invoice_id, { amount: "0.20", to: freshAddress() }),
    );
    expect(created.status).toBe(201);
    const refundId = String(created.body.refund_id);
    await api.refundIs(invoice.invoice_id, refundId, "confirmed");
    const transaction = await stack.db
      .selectFrom("app.relayer_transactions")
      .select(["merchant_id", "gas_used"])
      .where("purpose", "like", `refund:${refundId}:%`)
      .executeTakeFirstOrThrow();
    const merchant = await stack.db
      .selectFrom("app.refunds")
      .select("merchant_id")
      .where("id", "=", refundId)
      .executeTakeFirstOrThrow();
    expect(transaction.merchant_id).toBe(merchant.merchant_id);
    const used = Number(transaction.gas_used);
    expect(used).toBeGreaterThan(21_000);
    // Its reservation is gone (the refund was submitted); what it used is counted.
    expect((await gasBudget()).spent_by_kind.refund).toBe(used);
  });
});
