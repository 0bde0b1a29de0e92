import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { answer } from "../accounts/accounts.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { freshAddress, invoiceApi, priced, until } from "../refunds/helpers.ts";

/**
 * Refund requests fired at once must never plan the same money twice (each is planned under
 * the invoice's row lock and the deposit's spending lock), and a refund racing the sweep of the
 * same deposit must never leave both wanting the same funds: whichever is first, the other
 * takes only what is left, and every unit is accounted for on chain.
 */
describe("double refund race", () => {
  const chain = useChainForFile();
  let stack: TestStack;
  let api: ReturnType<typeof invoiceApi>;

  beforeAll(async () => {
    await chain.snapshot();
    stack = await startStack({ worker: true, indexer: true });
    api = invoiceApi(stack);
  });
  afterAll(async () => {
    await stack?.stop();
    await chain.revert();
  });

  test("twenty concurrent refunds of the held excess: one is accepted, the money leaves once", async () => {
    const wallet = freshAddress();
    const invoice = await api.create({
      ...priced("2.00"),
      wallet_type: "byo",
      wallet_address: wallet,
    });
    await chain.payUsdc(devAccount(9), invoice.deposit_address, 2_700_000n);
    await api.swept(invoice.invoice_id);
    const targets = Array.from({ length: 20 }, freshAddress);
    const answers = await Promise.all(
      targets.map((to, i) =>
        api.refund(invoice.invoice_id, i % 2 ? { to } : { to, amount: "0.70" }).then(answer),
      ),
    );
    const accepted = answers.filter((a) => a.status === 201);
    expect(accepted).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(19);
    const refundId = String(accepted[0]?.body.refund_id);
    await api.refundIs(invoice.invoice_id, refundId, "confirmed");
    let paidOut = 0n;
    for (const to of targets) paidOut += await chain.usdcBalance(to);
    expect(paidOut).toBe(700_000n);
    expect(await chain.usdcBalance(invoice.deposit_address)).toBe(0n);
    expect(await chain.usdcBalance(wallet)).toBe(2_000_000n);
  });

  test("a refund racing the sweep of a paid invoice: every unit accounted for, nothing failed", async () => {
    const wallet = freshAddress();
    const to = freshAddress();
    const invoice = await api.create({
      ...priced("2.00"),
      wallet_type: "byo",
      wallet_address: wallet,
    });
    await chain.payUsdc(devAccount(0), invoice.deposit_address, 2_000_000n);
    // Fire refunds while reconcile counts the payment and the sweep is decided and submitted.
    const answers: number[] = [];
    await until("the payment counted", async () => {
      answers.push((await api.refund(invoice.invoice_id, { amount: "2.00", to })).status);
      return (await api.status(invoice.invoice_id)).status === "paid";
    });
    answers.push((await api.refund(invoice.invoice_id, { amount: "2.00", to })).status);
    expect(answers.filter((s) => s === 201).length).toBeLessThanOrEqual(1);
    await until(
      "the deposit emptied",
      async () => (await chain.usdcBalance(invoice.deposit_address)) === 0n,
    );
    await until("nothing in flight", async () => {
      const details = await api.get(invoice.invoice_id);
      return (
        details.sweeps.every((s) => s.status === "confirmed") &&
        details.refunds.every((r) => r.status === "confirmed") &&
        details
      );
    });
    const details = await api.get(invoice.invoice_id);
    expect(details.refunds.filter((r) => r.status === "failed")).toEqual([]);
    expect((await chain.usdcBalance(wallet)) + (await chain.usdcBalance(to))).toBe(2_000_000n);
  });
});
