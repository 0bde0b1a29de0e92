import type { Kysely, Selectable, Transaction } from "kysely";
import {
  EMPTY_PAYMENT_STATE,
  type PaymentEventType,
  type PaymentState,
} from "../../domain/paymentState.ts";
import type { Database } from "../database.ts";

type Executor = Kysely<Database> | Transaction<Database>;
export type PaymentEventRow = Selectable<Database["app.payment_events"]>;

export async function loadPaymentState(db: Executor, invoiceId: string): Promise<PaymentState> {
  const row = await db
    .selectFrom("app.invoice_payment_state")
    .selectAll()
    .where("invoice_id", "=", invoiceId)
    .executeTakeFirst();
  if (!row) return EMPTY_PAYMENT_STATE;
  return {
    received: row.received,
    counted: row.counted,
    latestTxHash: row.latest_tx_hash,
    latestPaidAt: row.latest_paid_at,
  };
}

export async function savePaymentState(
  trx: Transaction<Database>,
  invoiceId: string,
  state: PaymentState,
): Promise<void> {
  const values = {
    received: state.received,
    counted: state.counted,
    latest_tx_hash: state.latestTxHash,
    latest_paid_at: state.latestPaidAt,
    updated_at: new Date(),
  };
  await trx
    .insertInto("app.invoice_payment_state")
    .values({ invoice_id: invoiceId, ...values })
    .onConflict((oc) => oc.column("invoice_id").doUpdateSet(values))
    .execute();
}

/**
 * Records a payment event with the notifications it causes, in the caller's transaction: the
 * merchant's email always, a webhook delivery when the invoice has a webhook_url. Their
 * insert triggers queue the jobs that deliver them.
 */
export async function recordPaymentEvent(
  trx: Transaction<Database>,
  event: {
    id: string;
    invoiceId: string;
    type: PaymentEventType;
    status: string;
    paidAmount: bigint;
    txHash: string | null;
    paidAt: Date | null;
    payload: string;
    merchantEmail: string;
    webhookUrl: string | null;
  },
): Promise<void> {
  await trx
    .insertInto("app.payment_events")
    .values({
      id: event.id,
      invoice_id: event.invoiceId,
      type: event.type,
      status: event.status,
      paid_amount: event.paidAmount,
      tx_hash: event.txHash,
      paid_at: event.paidAt,
      payload: event.payload,
    })
    .execute();
  await trx
    .insertInto("app.emails")
    .values({
      kind: "payment_event",
      invoice_id: event.invoiceId,
      recipient: event.merchantEmail,
      event_id: event.id,
    })
    .execute();
  if (event.webhookUrl) {
    await trx
      .insertInto("app.webhook_deliveries")
      .values({ event_id: event.id, url: event.webhookUrl })
      .execute();
  }
}

export async function findPaymentEvent(
  db: Executor,
  id: string,
): Promise<PaymentEventRow | undefined> {
  return db.selectFrom("app.payment_events").selectAll().where("id", "=", id).executeTakeFirst();
}
