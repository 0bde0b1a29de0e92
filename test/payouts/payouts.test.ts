import { setTimeout as delay } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { stopProcess } from "../../internal/process.ts";
import {
  answer,
  bearer,
  claimedMerchant,
  codeOf,
  type Merchant,
  registerWallet,
} from "../accounts/accounts.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import type { TestProcess } from "../helpers/processes.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { freshAddress, invoiceApi, type Json, priced, until } from "../refunds/helpers.ts";

type PayoutBody = { payout_id: string; status: string; amount: string; to: string };
type Wallet = { address: string; balance: string; reserved: string; available: string };

/**
 * Payouts out of the managed wallet on the real stack (anvil with Circle's USDC, Ponder, the
 * worker's relayer): to a registered payout wallet only, at most what is available (never what
 * refunds on their way reserve), once per intent, and exactly once on chain even when the
 * worker is killed with `kill -9` while it submits.
 */
describe("payouts from the managed wallet", () => {
  const chain = useChainForFile();
  let stack: TestStack;
  let merchant: Merchant;
  let api: ReturnType<typeof invoiceApi>;
  let managed = "" as `0x${string}`;
  const payoutWallet = freshAddress();
  const extra: TestProcess[] = [];

  beforeAll(async () => {
    await chain.snapshot();
    stack = await startStack({ worker: true, indexer: true });
    merchant = await claimedMerchant(stack.db);
    api = invoiceApi(stack, bearer(merchant.key));
    expect((await registerWallet(stack, merchant, payoutWallet)).status).toBe(201);
    // Two managed invoices of 3.00, paid and swept: 6.00 in the managed wallet.
    for (const payer of [devAccount(7), devAccount(8)]) {
      const invoice = await api.create({
        ...priced("3.00"),
        merchant_email: merchant.email,
        wallet_type: "managed",
      });
      await chain.payUsdc(payer, invoice.deposit_address, 3_000_000n);
      managed = (await api.swept(invoice.invoice_id)).wallet_address;
    }
  });
  afterAll(async () => {
    for (const worker of extra) await worker.stop();
    await stack?.stop();
    await chain.revert();
  });

  const payout = (body: Json, key?: string) =>
    stack.request("/api/merchant/payouts", {
      method: "POST",
      json: body,
      headers: { ...bearer(merchant.key), ...(key ? { "idempotency-key": key } : {}) },
    });
  const state = async () =>
    (await (
      await stack.request("/api/merchant/payouts", { headers: bearer(merchant.key) })
    ).json()) as { payouts: PayoutBody[]; managed_wallet: Wallet };
  const confirmed = (id: string) =>
    until(`payout ${id} confirmed`, async () => {
      const found = (await state()).payouts.find((p) => p.payout_id === id);
      if (found?.status === "failed") throw new Error(`payout ${id} failed`);
      return found?.status === "confirmed" && found;
    });

  test("the balance, and refusals: an unregistered address, more than available, no key", async () => {
    expect((await state()).managed_wallet).toEqual({
      address: managed,
      balance: "6.00",
      reserved: "0.00",
      available: "6.00",
    });
    const stranger = await answer(await payout({ amount: "1.00", to: freshAddress() }));
    expect(stranger.status).toBe(400);
    expect(((stranger.body.error as Json).fields as { code: string }[]).map((f) => f.code)).toEqual(
      ["not_a_payout_wallet"],
    );
    const tooMuch = await answer(await payout({ amount: "6.01", to: payoutWallet }));
    expect(tooMuch.status).toBe(409);
    expect(codeOf(tooMuch.body)).toBe("payout_exceeds_available");
    const anonymous = await stack.request("/api/merchant/payouts", {
      method: "POST",
      json: { amount: "1.00", to: payoutWallet },
    });
    expect(anonymous.status).toBe(401);
    expect(await stack.db.selectFrom("app.payouts").select("id").execute()).toEqual([]);
    expect(await chain.usdcBalance(payoutWallet)).toBe(0n);
  });

  test("a payout never spends what a refund on its way reserved", async () => {
    const [invoice] = (await stack.db
      .selectFrom("app.invoices")
      .select("id")
      .where("merchant_email", "=", merchant.email)
      .execute()) as { id: string }[];
    if (!invoice) throw new Error("no invoice");
    // The indexer frozen is not needed: a refund requested with no worker stays `requested`.
    const worker = stack.worker;
    if (!worker) throw new Error("no worker");
    await stopProcess(worker.process, "SIGKILL");
    const refund = await answer(
      await api.refund(invoice.id, { amount: "2.50", to: freshAddress() }),
    );
    expect(refund.status).toBe(201);
    expect((await state()).managed_wallet).toMatchObject({
      balance: "6.00",
      reserved: "2.50",
      available: "3.50",
    });
    const over = await answer(await payout({ amount: "3.51", to: payoutWallet }));
    expect(codeOf(over.body)).toBe("payout_exceeds_available");
    extra.push(stack.startWorker());
    await api.refundIs(invoice.id, (refund.body as { refund_id: string }).refund_id, "confirmed");
    expect((await state()).managed_wallet).toMatchObject({
      balance: "3.50",
      reserved: "0.00",
      available: "3.50",
    });
  });

  test("paid once per intent: an Idempotency-Key's retry answers the first payout", async () => {
    const first = await answer(await payout({ amount: "1.00", to: payoutWallet }, "withdraw-1"));
    expect(first.status).toBe(201);
    const again = await answer(await payout({ amount: "1.00", to: payoutWallet }, "withdraw-1"));
    expect(again.status).toBe(201);
    expect((again.body as PayoutBody).payout_id).toBe((first.body as PayoutBody).payout_id);
    await confirmed((first.body as PayoutBody).payout_id);
    expect(await chain.usdcBalance(payoutWallet)).toBe(1_000_000n);
    expect(await chain.usdcBalance(managed)).toBe(2_500_000n);
    // The account was emailed, once.
    await stack.waitForEmail(
      (e) => e.to.includes(merchant.email) && e.subject.startsWith("Payout of 1.00 USDC"),
    );
  });

  test("kill -9 of the worker as it submits: the payout arrives once", async () => {
    const current = extra.pop();
    if (current) await stopProcess(current.process, "SIGKILL");
    const created = await answer(await payout({ amount: "2.50", to: payoutWallet }));
    expect(created.status).toBe(201);
    const id = (created.body as PayoutBody).payout_id;
    const worker = stack.startWorker();
    // Killed as soon as its relayer transaction is recorded (the broadcast may or may not
    // have left): the next worker signs the same authorization, which USDC executes once.
    for (;;) {
      const row = await stack.db
        .selectFrom("app.relayer_transactions")
        .select("id")
        .where("purpose", "like", `payout:${id}:%`)
        .executeTakeFirst();
      if (row) break;
      await delay(5);
    }
    await stopProcess(worker.process, "SIGKILL");
    extra.push(stack.startWorker());
    await confirmed(id);
    expect(await chain.usdcBalance(payoutWallet)).toBe(3_500_000n);
    expect(await chain.usdcBalance(managed)).toBe(0n);
    expect((await state()).managed_wallet).toMatchObject({ balance: "0.00", available: "0.00" });
    // Nothing left to pay out, nothing more moved.
    const empty = await answer(await payout({ amount: "0.01", to: payoutWallet }));
    expect(codeOf(empty.body)).toBe("payout_exceeds_available");
    const audit = await stack.db
      .selectFrom("app.audit_log")
      .select("action")
      .where("merchant_id", "=", merchant.merchantId)
      .where("action", "=", "payout.requested")
      .execute();
    expect(audit).toHaveLength(2);
  });
}, 600_000);
