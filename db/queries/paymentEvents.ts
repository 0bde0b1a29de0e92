import type { Selectable, Transaction } from "kysely";
import {
  EMPTY_PAYMENT_STATE,
  type PaymentEventType,
  type PaymentState,
} from "../../domain/paymentState.ts";
import type { Database, Executor } from "../database.ts";
import { notificationRecipient } from "./dashboard.ts";
import { rowFinder } from "./rows.ts";
import { queueEndpointDeliveries } from "./webhookEndpoints.ts";

export type PaymentEventRow = Selectable<Database["app.payment_events"]>;

/** Whose deposit address it is: an invoice's or a payment link's. */
export type PaymentOwner =
  | { invoiceId: string; linkId?: undefined }
  | { linkId: string; invoiceId?: undefined };

/** What the reconcile job last derived for a deposit address (nothing received: the empty state). */
export async function loadPaymentState(
  db: Executor,
  depositAddress: string,
): Promise<PaymentState> {
  const row = await db
    .selectFrom("app.payment_state")
    .selectAll()
    .where("deposit_address", "=", depositAddress.toLowerCase())
    .executeTakeFirst();
  if (!row) return EMPTY_PAYMENT_STATE;
  return {
    received: row.received,
    counted: row.counted,
    latestTxHash: row.latest_tx_hash,
    latestPaidAt: row.latest_paid_at,
    receivedInCurrency: row.received_in_currency,
  };
}

/**
 * What reconcile remembers of a deposit address besides its state: the amount received the last
 * event told (0 before the first; in the owner's currency when it has one), since when counted
 * transfers have been missing from the index while still mined (null: none are), and what the
 * counted payments were worth in the owner's currency (null: priced in USDC, or nothing yet).
 */
export async function loadReconcileMemory(
  db: Executor,
  depositAddress: string,
): Promise<{
  notifiedReceived: bigint;
  lostSince: Date | null;
  receivedInCurrency: bigint | null;
}> {
  const row = await db
    .selectFrom("app.payment_state")
    .select(["notified_received", "lost_since", "received_in_currency"])
    .where("deposit_address", "=", depositAddress.toLowerCase())
    .executeTakeFirst();
  return {
    notifiedReceived: row?.notified_received ?? 0n,
    lostSince: row?.lost_since ?? null,
    receivedInCurrency: row?.received_in_currency ?? null,
  };
}

/**
 * Notes that counted transfers of the address are missing from the index but still mined, at
 * `now` unless already noted; returns since when. The row exists: something was counted.
 */
export async function markTransfersMissing(
  trx: Transaction<Database>,
  depositAddress: string,
  now: Date,
): Promise<Date> {
  const row = await trx
    .updateTable("app.payment_state")
    .set((eb) => ({ lost_since: eb.fn.coalesce("lost_since", eb.val(now)) }))
    .where("deposit_address", "=", depositAddress.toLowerCase())
    .returning("lost_since")
    .executeTakeFirst();
  return row?.lost_since ?? now;
}

/** Forgets that transfers of the address went missing: they are back. */
export async function clearTransfersMissing(
  trx: Transaction<Database>,
  depositAddress: string,
): Promise<void> {
  await trx
    .updateTable("app.payment_state")
    .set({ lost_since: null })
    .where("deposit_address", "=", depositAddress.toLowerCase())
    .execute();
}

/**
 * Stores the state reconcile derived (nothing is missing any more); `notifiedReceived` when an
 * event told it.
 */
export async function savePaymentState(
  trx: Transaction<Database>,
  owner: PaymentOwner,
  depositAddress: string,
  state: PaymentState,
  notifiedReceived?: bigint,
  /** What the counted payments are worth in the owner's currency; null when priced in USDC. */
  receivedInCurrency: bigint | null = null,
): Promise<void> {
  const values = {
    received: state.received,
    received_in_currency: receivedInCurrency,
    counted: state.counted,
    latest_tx_hash: state.latestTxHash,
    latest_paid_at: state.latestPaidAt,
    updated_at: new Date(),
    lost_since: null,
    ...(notifiedReceived === undefined ? {} : { notified_received: notifiedReceived }),
  };
  await trx
    .insertInto("app.payment_state")
    .values({
      deposit_address: depositAddress.toLowerCase(),
      invoice_id: owner.invoiceId ?? null,
      link_id: owner.linkId ?? null,
      ...values,
    })
    .onConflict((oc) => oc.column("deposit_address").doUpdateSet(values))
    .execute();
}

/**
 * Records a payment event with the notifications it causes, in the caller's transaction: the
 * merchant's email (invoices), a webhook delivery when a webhook_url was given, and one to each
 * of the merchant's webhook endpoints that takes the event's type. Their insert triggers queue
 * the jobs that deliver them.
 */
export async function recordPaymentEvent(
  trx: Transaction<Database>,
  event: {
    id: string;
    owner: PaymentOwner;
    type: PaymentEventType;
    status: string;
    paidAmount: bigint;
    txHash: string | null;
    paidAt: Date | null;
    /** The moment the payload says it was created: stored as is, so the event has one time. */
    createdAt: Date;
    payload: string;
    merchantEmail: string | null;
    webhookUrl: string | null;
  },
): Promise<void> {
  await trx
    .insertInto("app.payment_events")
    .values({
      id: event.id,
      invoice_id: event.owner.invoiceId ?? null,
      link_id: event.owner.linkId ?? null,
      type: event.type,
      status: event.status,
      paid_amount: event.paidAmount,
      tx_hash: event.txHash,
      paid_at: event.paidAt,
      payload: event.payload,
      created_at: event.createdAt,
    })
    .execute();
  if (event.merchantEmail) {
    await trx
      .insertInto("app.emails")
      .values({
        kind: "payment_event",
        invoice_id: event.owner.invoiceId ?? null,
        // The merchant's notification email (dashboard settings), else its account email.
        recipient: await notificationRecipient(trx, event.merchantEmail),
        event_id: event.id,
      })
      .execute();
  }
  if (event.webhookUrl) {
    await trx
      .insertInto("app.webhook_deliveries")
      .values({ event_id: event.id, url: event.webhookUrl, created_at: event.createdAt })
      .execute();
  }
  await queueEndpointDeliveries(trx, event.id);
}

/** The payment event with this id, or undefined. */
export const findPaymentEvent = rowFinder("app.payment_events", "id");
