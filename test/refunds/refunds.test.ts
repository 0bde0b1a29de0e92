import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { waitFor } from "../../internal/process.ts";
import { answer, bearer, claimedMerchant, codeOf } from "../accounts/accounts.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { startWebhookReceiver } from "../helpers/webhookReceiver.ts";
import { linkRequest } from "../links/fixtures.ts";
import { freshAddress, invoiceApi, type Json, priced, type RefundBody, until } from "./helpers.ts";

/**
 * Refunds on the real stack (anvil with Circle's USDC, Ponder, the worker's relayer): the
 * excess of an overpaid invoice is held after the total is swept, refunded to an address the
 * merchant gives with exact balances, events and emails, and never twice; money swept to a
 * byo wallet is refused with a message saying so.
 */
describe("refunds", () => {
  const chain = useChainForFile();
  let stack: TestStack;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let api: ReturnType<typeof invoiceApi>;

  beforeAll(async () => {
    await chain.snapshot();
    receiver = await startWebhookReceiver();
    stack = await startStack({ worker: true, indexer: true });
    api = invoiceApi(stack);
  });
  afterAll(async () => {
    if (process.env.DEBUG_STACK) console.log(stack?.worker?.output());
    await stack?.stop();
    await receiver?.stop();
    await chain.revert();
  });

  test("excess: the total is swept, the excess held, refunded to a given address exactly once", async () => {
    const wallet = freshAddress();
    const payer = devAccount(1);
    const refundTo = freshAddress();
    const invoice = await api.create({
      ...priced("3.00"),
      wallet_type: "byo",
      wallet_address: wallet,
      webhook_url: receiver.url,
    });
    await chain.payUsdc(payer, invoice.deposit_address, 3_500_000n);
    await api.swept(invoice.invoice_id);
    // The sweep policy moved the total; the excess stays on the deposit address.
    expect(await chain.usdcBalance(wallet)).toBe(3_000_000n);
    expect(await chain.usdcBalance(invoice.deposit_address)).toBe(500_000n);

    const created = await answer(await api.refund(invoice.invoice_id, { to: refundTo }));
    expect(created.status).toBe(201);
    const refund = created.body as RefundBody;
    expect(refund).toMatchObject({
      status: "requested",
      amount: "0.50",
      source: "deposit",
      from: invoice.deposit_address,
      to: refundTo,
      to_sender: false,
    });
    expect(refund.claim_url).toBeUndefined();

    // A second refund of the same money, at once: refused, whatever its form.
    const again = await answer(await api.refund(invoice.invoice_id, { to: refundTo }));
    expect(again.status).toBe(409);
    expect(codeOf(again.body)).toBe("nothing_to_refund");
    const some = await answer(
      await api.refund(invoice.invoice_id, { amount: "0.10", to: freshAddress() }),
    );
    expect(some.status).toBe(409);

    const done = await api.refundIs(invoice.invoice_id, refund.refund_id, "confirmed");
    expect(done.refunded_amount).toBe("0.50");
    const confirmed = done.refunds[0] as RefundBody;
    expect(confirmed.tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    // On chain, exactly: the payer's refund address got the excess, nothing else moved.
    expect(await chain.usdcBalance(refundTo)).toBe(500_000n);
    expect(await chain.usdcBalance(invoice.deposit_address)).toBe(0n);
    expect(await chain.usdcBalance(wallet)).toBe(3_000_000n);
    // The status endpoint adds refunded_amount; the status stays what the payments made it.
    expect(await api.status(invoice.invoice_id)).toMatchObject({
      status: "excess",
      paid_amount: "3.50",
      refunded_amount: "0.50",
    });

    // The webhook: invoice.refunded, signed like every event.
    const hook = (await until("the invoice.refunded webhook", async () =>
      receiver.received
        .map((r) => JSON.parse(r.body) as Json)
        .find((b) => b.type === "invoice.refunded" && b.invoice_id === invoice.invoice_id),
    )) as Json;
    expect(hook).toMatchObject({
      refund_id: refund.refund_id,
      amount: "0.50",
      to: refundTo,
      tx_hash: confirmed.tx_hash,
      refunded_amount: "0.50",
      invoice_number: invoice.invoice_number,
    });
    // The merchant and the vendor are emailed that it was paid.
    const merchantEmail = String((await api.get(invoice.invoice_id)).merchant_email);
    for (const recipient of [merchantEmail, "ap@globex.example"]) {
      const email = await stack.waitForEmail(
        (e) =>
          e.to.includes(recipient) &&
          e.subject.startsWith("Refund of 0.50 USDC") &&
          e.subject.includes(invoice.invoice_number),
      );
      expect(email.text).toContain(refundTo);
    }
    // Still nothing more to refund; a sweep after it moved nothing (the refund was never swept).
    const third = await answer(await api.refund(invoice.invoice_id, {}));
    expect(codeOf(third.body)).toBe("nothing_to_refund");
    expect((await api.get(invoice.invoice_id)).sweeps).toHaveLength(1);
  });

  test("money swept to a byo wallet: refused with a message that says Remit no longer holds it", async () => {
    const wallet = freshAddress();
    const invoice = await api.create({
      ...priced("2.00"),
      wallet_type: "byo",
      wallet_address: wallet,
    });
    await chain.payUsdc(devAccount(2), invoice.deposit_address, 2_000_000n);
    await api.swept(invoice.invoice_id);
    expect(await chain.usdcBalance(wallet)).toBe(2_000_000n);
    for (const body of [{ to: freshAddress() }, { amount: "1.00", to: freshAddress() }, {}]) {
      const refused = await answer(await api.refund(invoice.invoice_id, body));
      expect(refused.status).toBe(409);
      expect(codeOf(refused.body)).toBe("refund_swept_to_own_wallet");
      expect((refused.body.error as Json).message).toMatch(
        /no longer holds.*your own wallet|swept to your own wallet/,
      );
    }
    expect((await api.get(invoice.invoice_id)).refunds).toEqual([]);
  });

  test("to_sender sends the refund to the payment's sender, only when asked", async () => {
    const payer = devAccount(3);
    const invoice = await api.create({ ...priced("1.00"), wallet_type: "managed" });
    await chain.payUsdc(payer, invoice.deposit_address, 1_250_000n);
    await api.swept(invoice.invoice_id);
    const before = await chain.usdcBalance(payer.address);
    const created = await answer(
      await api.refund(invoice.invoice_id, { amount: "0.25", to_sender: true }),
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ to: payer.address, to_sender: true, source: "deposit" });
    await api.refundIs(invoice.invoice_id, (created.body as RefundBody).refund_id, "confirmed");
    expect((await chain.usdcBalance(payer.address)) - before).toBe(250_000n);
  });

  test("managed: money swept into the managed wallet is refunded from it, signed by its key", async () => {
    const invoice = await api.create({ ...priced("2.00"), wallet_type: "managed" });
    await chain.payUsdc(devAccount(4), invoice.deposit_address, 2_000_000n);
    const swept = await api.swept(invoice.invoice_id);
    const managed = swept.wallet_address;
    const before = await chain.usdcBalance(managed);
    const to = freshAddress();
    const created = await answer(await api.refund(invoice.invoice_id, { amount: "1.25", to }));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ source: "managed_wallet", from: managed });
    await api.refundIs(invoice.invoice_id, (created.body as RefundBody).refund_id, "confirmed");
    expect(await chain.usdcBalance(to)).toBe(1_250_000n);
    expect(before - (await chain.usdcBalance(managed))).toBe(1_250_000n);
    // What is left of this invoice's money in the managed wallet: 0.75, not more.
    const over = await answer(await api.refund(invoice.invoice_id, { amount: "0.76", to }));
    expect(codeOf(over.body)).toBe("refund_exceeds_refundable");
  });

  test("a payment link: the excess held is refunded by its merchant's key, link.refunded is sent", async () => {
    // A link's slug is public: only its merchant's key refunds it (test/security/linkSlugRefundTheft.test.ts).
    const merchant = await claimedMerchant(stack.db);
    const response = await stack.request("/api/links", {
      method: "POST",
      json: linkRequest({
        merchant_email: merchant.email,
        amount: "1.00",
        webhook_url: receiver.url,
      }),
      headers: bearer(merchant.key),
    });
    const link = (await response.json()) as { slug: string; deposit_address?: string };
    const deposit = (
      await stack.db
        .selectFrom("app.payment_links")
        .select("deposit_address")
        .where("slug", "=", link.slug)
        .executeTakeFirstOrThrow()
    ).deposit_address as `0x${string}`;
    await chain.payUsdc(devAccount(5), deposit, 1_300_000n);
    await until("the link settled and swept", async () => {
      const sweeps = await stack.db
        .selectFrom("app.sweeps")
        .select("status")
        .where("deposit_address", "=", deposit)
        .execute();
      return sweeps.length === 1 && sweeps[0]?.status === "confirmed";
    });
    // Polled once before the refund, so the API's status cache holds the answer without it.
    const pollStatus = async () =>
      (await (await stack.request(`/api/payments/status/${link.slug}`)).json()) as Json;
    const before = await pollStatus();
    expect(before).toMatchObject({ status: "excess", amount_usdc: "1.30" });
    expect(before).not.toHaveProperty("refunded_amount");
    const to = freshAddress();
    const created = await answer(
      await stack.request(`/api/links/${link.slug}/refunds`, {
        method: "POST",
        json: { to },
        headers: bearer(merchant.key),
      }),
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ amount: "0.30", source: "deposit" });
    const hook = (await until("the link.refunded webhook", async () =>
      receiver.received
        .map((r) => JSON.parse(r.body) as Json)
        .find((b) => b.type === "link.refunded" && b.slug === link.slug),
    )) as Json;
    expect(hook).toMatchObject({ amount: "0.30", to, refunded_amount: "0.30" });
    expect(await chain.usdcBalance(to)).toBe(300_000n);
    // The confirmed refund clears the cached status (well before its 30 s expiry): the status
    // endpoint adds refunded_amount, and the status stays what the payments made it.
    await waitFor(
      "the link's status to show the refund",
      async () => (await pollStatus()).refunded_amount === "0.30",
      { timeoutMs: 5_000, intervalMs: 100 },
    );
    expect(await pollStatus()).toMatchObject({ status: "excess", amount_usdc: "1.30" });
  });

  test("bad bodies are field-level 400s; nothing is written", async () => {
    const invoice = await api.create({ ...priced("1.00") });
    for (const [body, path] of [
      [{ amount: 1 }, "amount"],
      [{ amount: "0.00", to: freshAddress() }, "amount"],
      [{ to: "0x123" }, "to"],
      [{ to: freshAddress(), to_sender: true }, "to_sender"],
      [{ to_sender: false }, "to_sender"],
      [{ too: freshAddress() }, "too"],
      [{ to: invoice.deposit_address }, "to"],
    ] as const) {
      const refused = await answer(await api.refund(invoice.invoice_id, body));
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(
        ((refused.body.error as Json).fields as { path: string }[]).map((f) => f.path),
      ).toContain(path);
    }
    // Nothing received: nothing to refund.
    const empty = await answer(await api.refund(invoice.invoice_id, { to: freshAddress() }));
    expect(empty.status).toBe(409);
    expect(codeOf(empty.body)).toBe("nothing_to_refund");
    expect((await api.get(invoice.invoice_id)).refunds).toEqual([]);
  });
});
