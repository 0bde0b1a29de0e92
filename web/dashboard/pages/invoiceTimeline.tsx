import type { Child } from "hono/jsx";
import type { InvoiceDetail } from "../../../app/invoices/invoiceDetail.ts";
import { formatAmountForDisplay } from "../../../domain/money.ts";
import { Badge, Csrf, Time } from "../layout.tsx";
import { checksummed, Hash, TxLink } from "./hashes.tsx";
import { RefundItem } from "./refundItem.tsx";
import { usdc } from "./usdc.ts";

/** One happening on an invoice's timeline. */
type Happening = { at: Date; key: string; body: Child };

const EMAIL_KINDS: Record<string, string> = {
  vendor_invoice: "Invoice emailed to the customer",
  payment_event: "Payment notice emailed to you",
  sweep_failed: "Sweep failure emailed to you",
  invoice_void: "Void notice emailed to the customer",
  refund_claim_link: "Refund claim link emailed to the customer",
  refund_confirmed: "Refund confirmation emailed",
  refund_failed: "Refund failure emailed to you",
  vendor_reminder: "Payment reminder emailed to the customer",
};

/** The webhook events, as a person says them (the type itself is kept for the developer). */
const EVENT_TYPES: Record<string, string> = {
  "invoice.paid": "Paid in full",
  "invoice.partial": "Partly paid",
  "invoice.excess": "Paid more than due",
  "invoice.payment_reversed": "Payment reversed",
  "invoice.refunded": "Refund confirmed",
  "invoice.unexpected_payment": "Payment after void",
  "invoice.will_be_due": "Due soon",
  "invoice.overdue": "Overdue: past its due date",
};

/** The audit log's actions and actors, in words. */
const AUDIT_ACTIONS: Record<string, string> = {
  "invoice.sent": "Marked as sent",
  "invoice.voided": "Voided",
  "refund.requested": "Refund requested",
  "refund.claimed": "Refund address named by the customer",
  "webhook.redelivered": "Webhook redelivery requested",
  "invoice.reminded": "Reminder sent on request",
};
const AUDIT_ACTORS: Record<string, string> = {
  dashboard: "in the dashboard",
  key: "with an API key",
  anonymous: "without a key",
  claim: "through a claim link",
  operator: "by the operator",
};

/** An unknown name made readable: "payment_reversed" → "Payment reversed". */
const words = (name: string) => {
  const text = name.replace(/[._]+/g, " ").trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
};

/** Everything that happened to the invoice, oldest first. */
export function happenings(detail: InvoiceDetail, csrf: string): Happening[] {
  const { invoice, history, explorerUrl } = detail;
  const items: Happening[] = [
    { at: invoice.created_at, key: "created", body: <strong>Created</strong> },
  ];
  // Sending and voiding are told once, with who did it (their audit entries).
  const by = (action: string) => {
    const entry = detail.audit.find((e) => e.action === action);
    return entry ? (
      <span class="muted small"> {AUDIT_ACTORS[entry.actor] ?? `by ${entry.actor}`}</span>
    ) : null;
  };
  if (invoice.sent_at)
    items.push({
      at: invoice.sent_at,
      key: "sent",
      body: (
        <>
          <strong>Marked as sent</strong>
          {by("invoice.sent")}
        </>
      ),
    });
  if (invoice.voided_at)
    items.push({
      at: invoice.voided_at,
      key: "voided",
      body: (
        <>
          <strong>Voided</strong>
          {by("invoice.voided")}
        </>
      ),
    });
  for (const transfer of detail.transfers) {
    const counted = detail.counted.includes(transfer.id);
    items.push({
      at: transfer.paidAt,
      key: `transfer-${transfer.id}`,
      body: (
        <>
          <strong>
            Payment of {usdc(transfer.value)}
            {counted ? "" : " (not counted)"}
          </strong>{" "}
          from <Hash value={checksummed(transfer.from)} />
          <br />
          Transaction <TxLink hash={transfer.txHash} explorerUrl={explorerUrl} />
        </>
      ),
    });
  }
  for (const event of history.events) {
    const deliveries = history.deliveries.filter((d) => d.event_id === event.id);
    items.push({
      at: event.created_at,
      key: `event-${event.id}`,
      body: (
        <>
          <strong>{EVENT_TYPES[event.type] ?? words(event.type)}</strong>{" "}
          <Badge status={event.status} /> · paid{" "}
          {formatAmountForDisplay(event.paid_amount, invoice.currency)}{" "}
          <span class="muted small">
            (webhook event <code>{event.type}</code>)
          </span>
          {deliveries.length > 0 && (
            <ul class="small">
              {deliveries.map((delivery) => {
                const attempts = history.attempts.filter((a) => a.delivery_id === delivery.id);
                return (
                  <li data-delivery={delivery.id}>
                    Webhook to <code>{delivery.url}</code>: <Badge status={delivery.status} />
                    {attempts.length > 0 && (
                      <ul class="attempts">
                        {attempts.map((a) => (
                          <li data-attempt={a.attempt}>
                            Attempt {a.attempt} · <Time at={a.attempted_at} /> ·{" "}
                            <span data-response-code={a.status_code ?? "none"}>
                              {a.status_code === null
                                ? `no response${a.error ? ` (${a.error})` : ""}`
                                : `HTTP ${a.status_code}`}
                            </span>
                          </li>
                        ))}
                      </ul>
                    )}
                  </li>
                );
              })}
            </ul>
          )}
          {invoice.webhook_url && (
            <form
              method="post"
              action={`/dashboard/invoices/${invoice.id}/events/${event.id}/redeliver`}
              class="inline"
            >
              <Csrf token={csrf} />
              <button type="submit">Redeliver webhook</button>
            </form>
          )}
        </>
      ),
    });
  }
  for (const email of detail.emails) {
    items.push({
      at: email.sent_at ?? email.created_at,
      key: `email-${email.id}`,
      body: (
        <>
          <strong>{EMAIL_KINDS[email.kind] ?? `${words(email.kind)} email`}</strong> to{" "}
          <span>{email.recipient}</span>:{" "}
          <Badge
            status={email.status === "sent" ? "sent-email" : email.status}
            label={email.status}
          />
          {email.last_error && <span class="muted small"> ({email.last_error})</span>}
        </>
      ),
    });
  }
  for (const sweep of detail.sweeps) {
    items.push({
      at: sweep.created_at,
      key: `sweep-${sweep.id}`,
      body: (
        <>
          <strong>Sweep of {usdc(sweep.amount)}</strong> to{" "}
          <Hash value={checksummed(sweep.destination)} />: <Badge status={sweep.status} />
          {sweep.tx_hash && (
            <>
              <br />
              Transaction <TxLink hash={sweep.tx_hash} explorerUrl={explorerUrl} />
            </>
          )}
        </>
      ),
    });
  }
  for (const refund of detail.refunds) {
    items.push({
      at: refund.confirmed_at ?? refund.created_at,
      key: `refund-${refund.id}`,
      body: <RefundItem refund={refund} explorerUrl={explorerUrl} />,
    });
  }
  for (const entry of detail.audit) {
    if (entry.action === "invoice.created") continue;
    if (entry.action === "invoice.sent" && invoice.sent_at) continue;
    if (entry.action === "invoice.voided" && invoice.voided_at) continue;
    items.push({
      at: entry.created_at,
      key: `audit-${entry.id}`,
      body: (
        <>
          <strong>{AUDIT_ACTIONS[entry.action] ?? words(entry.action)}</strong>{" "}
          <span class="muted small">{AUDIT_ACTORS[entry.actor] ?? `by ${entry.actor}`}</span>
        </>
      ),
    });
  }
  return items.sort((a, b) => a.at.getTime() - b.at.getTime());
}
