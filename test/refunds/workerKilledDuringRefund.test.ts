import { setTimeout as delay } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { stopProcess } from "../../internal/process.ts";
import { answer } from "../accounts/accounts.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import type { TestProcess } from "../helpers/processes.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { freshAddress, invoiceApi, priced, type RefundBody, until } from "./helpers.ts";

/**
 * `kill -9` of the worker while a refund is on its way: the refund is paid exactly once (its
 * EIP-3009 nonce is derived from the refund, so any resubmission is the same authorization)
 * and the next worker recovers its state: confirmed, one event, one email per recipient.
 */
describe("the worker killed during a refund", () => {
  const chain = useChainForFile();
  let stack: TestStack;
  let api: ReturnType<typeof invoiceApi>;
  const extra: TestProcess[] = [];

  beforeAll(async () => {
    await chain.snapshot();
    stack = await startStack({ worker: true, indexer: true });
    api = invoiceApi(stack);
  });
  afterAll(async () => {
    for (const worker of extra) await worker.stop();
    await stack?.stop();
    await chain.revert();
  });

  const refundRow = (id: string) =>
    stack.db.selectFrom("app.refunds").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const kill = async (worker: TestProcess) => {
    await stopProcess(worker.process, "SIGKILL");
  };

  test("killed with the refund submitted and not yet confirmed: paid once, confirmed by the next worker", async () => {
    const invoice = await api.create({
      ...priced("1.00"),
      wallet_type: "byo",
      wallet_address: freshAddress(),
    });
    await chain.payUsdc(devAccount(6), invoice.deposit_address, 1_600_000n);
    await api.swept(invoice.invoice_id);
    // The indexer frozen: the refund's transfer is mined but cannot be seen, so the refund
    // stays `submitted` while its check job runs again and again; then the worker dies.
    const indexer = stack.indexer?.process;
    if (!indexer?.pid) throw new Error("no indexer");
    process.kill(indexer.pid, "SIGSTOP");
    const to = freshAddress();
    let refund: RefundBody;
    try {
      refund = (await answer(await api.refund(invoice.invoice_id, { to }))).body as RefundBody;
      await until(
        "the refund paid on chain",
        async () => (await chain.usdcBalance(to)) === 600_000n,
      );
      expect((await refundRow(refund.refund_id)).status).toBe("submitted");
      if (!stack.worker) throw new Error("no worker");
      await kill(stack.worker);
    } finally {
      process.kill(indexer.pid, "SIGCONT");
    }
    extra.push(stack.startWorker());
    const done = await api.refundIs(invoice.invoice_id, refund.refund_id, "confirmed");
    expect(done.refunded_amount).toBe("0.60");
    expect(await chain.usdcBalance(to)).toBe(600_000n);
    expect(await chain.usdcBalance(invoice.deposit_address)).toBe(0n);
    // One submission, one event; the emails once each.
    const relayed = await stack.db
      .selectFrom("app.relayer_transactions")
      .select("purpose")
      .where("purpose", "like", `refund:${refund.refund_id}:%`)
      .execute();
    expect(relayed).toHaveLength(1);
    const events = await stack.db
      .selectFrom("app.payment_events")
      .select("type")
      .where("invoice_id", "=", invoice.invoice_id)
      .where("type", "=", "invoice.refunded")
      .execute();
    expect(events).toHaveLength(1);
  });

  test("killed as it submits: the resubmission is the same authorization, paid once", async () => {
    const invoice = await api.create({
      ...priced("1.00"),
      wallet_type: "byo",
      wallet_address: freshAddress(),
    });
    await chain.payUsdc(devAccount(7), invoice.deposit_address, 1_300_000n);
    await api.swept(invoice.invoice_id);
    // No worker while the refund is requested; then one, killed as soon as its relayer
    // transaction is recorded (the broadcast may or may not have left).
    const current = extra.pop();
    if (current) await kill(current);
    const to = freshAddress();
    const refund = (await answer(await api.refund(invoice.invoice_id, { to }))).body as RefundBody;
    const worker = stack.startWorker();
    for (;;) {
      const row = await stack.db
        .selectFrom("app.relayer_transactions")
        .select("id")
        .where("purpose", "like", `refund:${refund.refund_id}:%`)
        .executeTakeFirst();
      if (row) break;
      await delay(5);
    }
    await kill(worker);
    extra.push(stack.startWorker());
    await api.refundIs(invoice.invoice_id, refund.refund_id, "confirmed");
    expect(await chain.usdcBalance(to)).toBe(300_000n);
    expect(await chain.usdcBalance(invoice.deposit_address)).toBe(0n);
    const row = await refundRow(refund.refund_id);
    expect(row.status).toBe("confirmed");
    // However many submissions it took, USDC executed the one authorization once.
    const transfersOut = await stack.db
      .selectFrom("app.refunds")
      .select("id")
      .where("invoice_id", "=", invoice.invoice_id)
      .execute();
    expect(transfersOut).toHaveLength(1);
  });
});
