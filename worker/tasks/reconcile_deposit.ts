import type { Task } from "graphile-worker";
import { sql } from "kysely";
import { getAddress } from "viem";
import { z } from "zod";
import { indexedHead, indexedTransfersTo } from "../../db/queries/indexer.ts";
import {
  loadPaymentState,
  recordPaymentEvent,
  savePaymentState,
} from "../../db/queries/paymentEvents.ts";
import { formatUsdc } from "../../domain/money.ts";
import {
  confirmedTransfers,
  derivePaymentState,
  invoiceStatusFor,
  type PaymentEventType,
  type PaymentState,
  paymentEventType,
} from "../../domain/paymentState.ts";
import type { WorkerDeps } from "../deps.ts";
import { parsePayload } from "./payload.ts";

const Payload = z.object({ address: z.string().regex(/^0x[0-9a-f]{40}$/) });

/** How soon to look again while a counted-to-be transfer waits for confirmations. */
const CONFIRMATION_RECHECK_MS = 1_000;

/** The webhook body: spec §6.1's fields, plus the event's id and type and the invoice's totals. */
export function webhookPayload(event: {
  id: string;
  type: PaymentEventType;
  createdAt: Date;
  invoice: { id: string; invoice_number: string; total_amount: bigint };
  status: string;
  state: PaymentState;
  txHash: string | null;
}): string {
  const due = event.invoice.total_amount - event.state.received;
  return JSON.stringify({
    event_id: event.id,
    type: event.type,
    created_at: event.createdAt.toISOString(),
    invoice_id: event.invoice.id,
    invoice_number: event.invoice.invoice_number,
    status: event.status,
    tx_hash: event.txHash,
    paid_amount: formatUsdc(event.state.received),
    paid_at: event.state.latestPaidAt?.toISOString() ?? null,
    total_amount: formatUsdc(event.invoice.total_amount),
    amount_due: formatUsdc(due > 0n ? due : 0n),
  });
}

/**
 * Recomputes what a deposit address has received from every transfer currently indexed to it
 * (payments are derived, never counted by hand) and records only the difference: the invoice's
 * status, and an event — with its merchant email and webhook — when the amount received
 * changed. Replays, restarts and reorgs therefore neither double-count nor lose a payment, and
 * running it twice does nothing the second time. The invoice row is locked, so concurrent runs
 * for one address serialise.
 */
export function reconcileDeposit(deps: WorkerDeps): Task {
  return async (payload, helpers) => {
    const parsed = parsePayload(Payload, payload, helpers);
    if (!parsed) return;
    const { address } = parsed;
    const waiting = await deps.db.transaction().execute(async (trx) => {
      const invoice = await trx
        .selectFrom("app.invoices")
        .selectAll()
        .where("deposit_address", "=", address)
        .forUpdate()
        .executeTakeFirst();
      if (!invoice) return false; // not an invoice's address (a payment link's, handled elsewhere)

      const [head, transfers] = await Promise.all([
        indexedHead(trx, deps.indexerSchema),
        indexedTransfersTo(trx, deps.indexerSchema, address),
      ]);
      const confirmed = confirmedTransfers(transfers, head, deps.confirmations);
      const next = derivePaymentState(address, confirmed);
      const previous = await loadPaymentState(trx, invoice.id);
      const unchanged =
        next.received === previous.received && next.counted.join() === previous.counted.join();
      // A counted transfer missing from the index is either reorged out, or being replayed by
      // the indexer (after a restart it deletes and re-inserts its last blocks). The chain
      // decides: while the transaction is still mined, nothing is reversed; look again soon.
      const lost = previous.counted.filter((id) => !next.counted.includes(id));
      if (!unchanged && lost.length && (await anyStillMined(deps, lost))) return true;
      if (!unchanged) {
        const status = invoiceStatusFor(
          invoice.total_amount,
          next.received,
          invoice.sent_at !== null,
        );
        const type = paymentEventType(previous, next, status);
        await savePaymentState(trx, invoice.id, next);
        if (status !== invoice.status) {
          await trx
            .updateTable("app.invoices")
            .set({ status })
            .where("id", "=", invoice.id)
            .execute();
        }
        if (type) {
          const id = crypto.randomUUID();
          // A reversal names the transaction that disappeared; a payment the latest counted one.
          const removed = previous.counted.find((c) => !next.counted.includes(c));
          const txHash =
            type === "invoice.payment_reversed"
              ? (removed?.split("-")[0] ?? previous.latestTxHash)
              : next.latestTxHash;
          await recordPaymentEvent(trx, {
            id,
            invoiceId: invoice.id,
            type,
            status,
            paidAmount: next.received,
            txHash,
            paidAt: next.latestPaidAt,
            payload: webhookPayload({
              id,
              type,
              createdAt: new Date(),
              invoice,
              status,
              state: next,
              txHash,
            }),
            merchantEmail: invoice.merchant_email,
            webhookUrl: invoice.webhook_url,
          });
          helpers.logger.info(
            `invoice ${invoice.invoice_number} (${getAddress(address)}): ${type}, received ${formatUsdc(next.received)} of ${formatUsdc(invoice.total_amount)}`,
          );
        }
      }
      return transfers.length > confirmed.length;
    });
    if (waiting) {
      await helpers.addJob(
        "reconcile_deposit",
        { address },
        {
          jobKey: `reconcile:${address}`,
          runAt: new Date(Date.now() + CONFIRMATION_RECHECK_MS),
        },
      );
    }
  };
}

/** Whether any of these transfers' transactions is still in the canonical chain. */
async function anyStillMined(deps: WorkerDeps, transferIds: string[]): Promise<boolean> {
  for (const id of transferIds) {
    const hash = id.split("-")[0] as `0x${string}`;
    const receipt = await deps.chain.getTransactionReceipt({ hash }).catch(() => null);
    if (receipt?.status === "success") return true;
  }
  return false;
}

/** Queues a reconcile for every deposit address that has transfers or a recorded payment. */
export function reconcileAll(deps: WorkerDeps): Task {
  return async () => {
    await sql`
      select graphile_worker.add_job('reconcile_deposit', json_build_object('address', d.address), job_key => 'reconcile:' || d.address)
      from app.deposit_addresses d
      where exists (select 1 from ${sql.table(`${deps.indexerSchema}.usdc_transfer`)} t where t."to" = d.address)
         or exists (select 1 from app.invoices i join app.invoice_payment_state s on s.invoice_id = i.id
                    where i.deposit_address = d.address and s.received > 0)`.execute(deps.db);
  };
}
