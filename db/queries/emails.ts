import type { Selectable } from "kysely";
import type { Database, Executor } from "../database.ts";
import { rowFinder } from "./rows.ts";

export type EmailRow = Selectable<Database["app.emails"]>;

/**
 * The columns every queued email starts with, in the order the queries insert them: its kind,
 * its invoice (if any), its recipient, not yet tried nor sent, and the event it tells of (if any).
 * The insert's trigger adds the send_email job.
 */
export const queuedEmail = (email: {
  kind: string;
  invoiceId: string | null;
  recipient: string;
  eventId?: string | null;
}) => ({
  kind: email.kind,
  invoice_id: email.invoiceId,
  recipient: email.recipient,
  last_error: null,
  sent_at: null,
  event_id: email.eventId ?? null,
});

/** The queued email with this id, or undefined. */
export const findEmail = rowFinder("app.emails", "id");

export async function markEmailSent(db: Executor, id: string): Promise<void> {
  await db
    .updateTable("app.emails")
    .set((eb) => ({
      status: "sent",
      sent_at: new Date(),
      // A secret the email carried (a claim link) now lives in the mailbox only.
      sealed: null,
      attempts: eb("attempts", "+", 1),
      last_error: null,
    }))
    .where("id", "=", id)
    .execute();
}

/** Recorded (committed) just before the message is handed to the provider. */
export async function markEmailSending(db: Executor, id: string): Promise<void> {
  await db
    .updateTable("app.emails")
    .set({ status: "sending", handed_over_at: new Date() })
    .where("id", "=", id)
    .execute();
}

/**
 * A failed attempt. `refused`: the provider answered and did not take the message, so it is
 * queued again; otherwise (a timeout, a dropped connection) it stays `sending`: it may have
 * arrived, and the next attempt asks before sending again.
 */
export async function recordEmailFailure(
  db: Executor,
  id: string,
  error: string,
  outcome: { final: boolean; refused: boolean },
): Promise<void> {
  await db
    .updateTable("app.emails")
    .set((eb) => ({
      attempts: eb("attempts", "+", 1),
      last_error: error.slice(0, 2000),
      ...(outcome.final
        ? { status: "failed" as const }
        : outcome.refused
          ? { status: "queued" as const }
          : {}),
    }))
    .where("id", "=", id)
    .execute();
}

/**
 * Queues an account email (a claim link, a payout wallet added) in the caller's transaction;
 * its insert trigger adds the send_email job. `sealed` is a secret it carries, already sealed.
 */
export async function queueAccountEmail(
  db: Executor,
  email: { kind: string; recipient: string; details?: Record<string, string>; sealed?: string },
): Promise<string> {
  const row = await db
    .insertInto("app.emails")
    .values({
      ...queuedEmail({ kind: email.kind, invoiceId: null, recipient: email.recipient }),
      details: email.details ? JSON.stringify(email.details) : undefined,
      sealed: email.sealed ?? null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}
