import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { answer, bearer, claimedMerchant, codeOf, type Merchant } from "../accounts/accounts.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import {
  freshAddress,
  invoiceApi,
  type Json,
  priced,
  type RefundBody,
} from "../refunds/helpers.ts";

/**
 * The attack (a plain retry, black-box): on an invoice of 2.00 paid 3.50 (`managed`),
 * `POST /api/invoices/{id}/refunds {to: A}` refunded the 1.50 excess; the same request sent
 * again with another `to`, once the first was confirmed, refunded 2.00 more out of the
 * merchant's managed wallet: 3.50 back on a 1.50 overpayment. Now a refund without an amount
 * returns only what is held (not revenue), revenue needs an explicit amount, a repeated
 * explicit request without a key is a 409 naming the first refund, and an Idempotency-Key
 * replays the first answer. Every figure checked on chain.
 */
describe("a retried refund never refunds the merchant's revenue", () => {
  const chain = useChainForFile();
  let stack: TestStack;
  let merchant: Merchant;
  let api: ReturnType<typeof invoiceApi>;

  beforeAll(async () => {
    await chain.snapshot();
    stack = await startStack({ worker: true, indexer: true });
    merchant = await claimedMerchant(stack.db);
    api = invoiceApi(stack, bearer(merchant.key));
  });
  afterAll(async () => {
    if (process.env.DEBUG_STACK) console.log(stack?.worker?.output());
    await stack?.stop();
    await chain.revert();
  });

  const refundWithKey = (id: string, body: Json, key: string) =>
    stack.request(`/api/invoices/${id}/refunds`, {
      method: "POST",
      json: body,
      headers: { ...bearer(merchant.key), "idempotency-key": key },
    });

  test("the excess once; the same request again moves nothing; revenue only on an explicit amount, once per intent", async () => {
    const invoice = await api.create({
      ...priced("2.00"),
      merchant_email: merchant.email,
      wallet_type: "managed",
    });
    await chain.payUsdc(devAccount(6), invoice.deposit_address, 3_500_000n);
    const swept = await api.swept(invoice.invoice_id);
    const managed = swept.wallet_address;
    const [a, b] = [freshAddress(), freshAddress()];

    const first = await answer(await api.refund(invoice.invoice_id, { to: a }));
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ amount: "1.50", source: "deposit" });
    const firstId = (first.body as RefundBody).refund_id;
    // The same request while it is in flight: nothing held is left.
    const inFlight = await answer(await api.refund(invoice.invoice_id, { to: a }));
    expect(inFlight.status).toBe(409);
    expect(codeOf(inFlight.body)).toBe("nothing_to_refund");
    await api.refundIs(invoice.invoice_id, firstId, "confirmed");
    const managedBefore = await chain.usdcBalance(managed);
    expect(managedBefore).toBeGreaterThanOrEqual(2_000_000n);

    // The attack: the same request with another `to` once the first is confirmed.
    const again = await answer(await api.refund(invoice.invoice_id, { to: b }));
    expect(again.status).toBe(409);
    expect(codeOf(again.body)).toBe("nothing_to_refund");
    expect(((again.body.error as Json).message as string).includes("explicit `amount`")).toBe(true);
    expect(await chain.usdcBalance(b)).toBe(0n);
    expect(await chain.usdcBalance(managed)).toBe(managedBefore);
    expect((await api.get(invoice.invoice_id)).refunds).toHaveLength(1);

    // Revenue, asked for explicitly: from the managed wallet.
    const revenue = await answer(await api.refund(invoice.invoice_id, { amount: "1.00", to: b }));
    expect(revenue.status).toBe(201);
    expect(revenue.body).toMatchObject({ amount: "1.00", source: "managed_wallet", from: managed });
    const revenueId = (revenue.body as RefundBody).refund_id;
    // The same explicit request again without a key: a resubmission, named, not paid.
    const repeated = await answer(await api.refund(invoice.invoice_id, { amount: "1.00", to: b }));
    expect(repeated.status).toBe(409);
    expect(codeOf(repeated.body)).toBe("duplicate_refund");
    expect((repeated.body.error as Json).refund_id).toBe(revenueId);

    // A second refund of that amount is a new intent: a key of its own. Its retry replays it.
    const keyed = await answer(
      await refundWithKey(invoice.invoice_id, { amount: "1.00", to: b }, "second-dollar"),
    );
    expect(keyed.status).toBe(201);
    const keyedId = (keyed.body as RefundBody).refund_id;
    expect(keyedId).not.toBe(revenueId);
    const replayed = await answer(
      await refundWithKey(invoice.invoice_id, { amount: "1.00", to: b }, "second-dollar"),
    );
    expect(replayed.status).toBe(201);
    expect((replayed.body as RefundBody).refund_id).toBe(keyedId);
    const reused = await answer(
      await refundWithKey(invoice.invoice_id, { amount: "0.50", to: b }, "second-dollar"),
    );
    expect(reused.status).toBe(409);
    expect(codeOf(reused.body)).toBe("idempotency_key_reused");

    await api.refundIs(invoice.invoice_id, revenueId, "confirmed");
    const done = await api.refundIs(invoice.invoice_id, keyedId, "confirmed");
    // Counted everywhere: three refunds, 3.50 in all, exactly what moved on chain.
    expect(done.refunds).toHaveLength(3);
    expect(done.refunded_amount).toBe("3.50");
    expect(await chain.usdcBalance(a)).toBe(1_500_000n);
    expect(await chain.usdcBalance(b)).toBe(2_000_000n);
    expect(managedBefore - (await chain.usdcBalance(managed))).toBe(2_000_000n);
    expect(await api.status(invoice.invoice_id)).toMatchObject({ refunded_amount: "3.50" });
  });
}, 600_000);
