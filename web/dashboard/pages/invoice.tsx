import type { Child } from "hono/jsx";
import type { InvoiceDetail, InvoiceRow, RefundRow } from "../../../app/invoices/invoiceDetail.ts";
import { reportedStatus } from "../../../domain/invoiceStatus.ts";
import { formatUsdcForDisplay } from "../../../domain/money.ts";
import { Alert, Badge, Csrf, DashboardLayout, Time } from "../layout.tsx";
import { Field } from "./forms.tsx";
import { checksummed, Hash, type Session, TxLink } from "./lists.tsx";

const usdc = (units: bigint) => `${formatUsdcForDisplay(units)} USDC`;

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
function happenings(detail: InvoiceDetail, csrf: string): Happening[] {
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
          <Badge status={event.status} /> · paid {usdc(event.paid_amount)}{" "}
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

/** One refund: its amount, where it goes, its state and its transaction once sent. */
export function RefundItem(props: { refund: RefundRow; explorerUrl: string | null }) {
  const { refund } = props;
  return (
    <>
      <strong>Refund of {usdc(refund.amount)}</strong>
      {refund.to_address ? (
        <>
          {" "}
          to <Hash value={checksummed(refund.to_address)} />
        </>
      ) : (
        " (claim link: the customer names the address)"
      )}
      : <Badge status={refund.status} />
      {refund.error && <span class="muted small"> ({refund.error})</span>}
      {refund.tx_hash && (
        <>
          <br />
          Transaction <TxLink hash={refund.tx_hash} explorerUrl={props.explorerUrl} />
        </>
      )}
    </>
  );
}

/** What can still be voided: nothing was paid (POST /api/invoices/{id}/void). */
export const VOIDABLE_STATUSES: ReadonlySet<string> = new Set(["draft", "sent", "overdue"]);

const NOTICES: Record<string, { tone: "ok" | "bad"; text: string }> = {
  redelivered: { tone: "ok", text: "The webhook is queued for redelivery." },
  created: { tone: "ok", text: "The invoice is created." },
  voided: { tone: "ok", text: "The invoice is void." },
};

export function InvoiceDetailPage(props: {
  session: Session;
  detail: InvoiceDetail;
  notice?: string;
  problem?: string;
  /** A refund just requested: its amount and, without a destination, its claim link. */
  refunded?: { amount: string; claimUrl: string | null };
  /** The refund form as typed, shown again with the API's message per field. */
  refund?: { values: Record<string, string>; errors: Record<string, string> };
  /**
   * What a refund without an amount would take now (the API's own plan), or why there is none:
   * the amount field's hint.
   */
  refundDefault?: { amount: string } | { refused: string };
}) {
  const { invoice, lines, money } = props.detail;
  const status = reportedStatus(invoice.status, invoice.due_date, props.detail.today);
  const notice = props.notice ? NOTICES[props.notice] : undefined;
  return (
    <DashboardLayout
      title={`Invoice ${invoice.invoice_number}`}
      section="/dashboard/invoices"
      {...props.session}
    >
      {notice && <Alert tone={notice.tone}>{notice.text}</Alert>}
      {props.problem && <Alert tone="bad">{props.problem}</Alert>}
      {props.refunded && (
        <Alert tone="ok">
          A refund of {props.refunded.amount} USDC is requested.
          {props.refunded.claimUrl && (
            <>
              {" "}
              The customer is emailed a link to name the address; you may hand it over yourself (it
              is shown only now): <code>{props.refunded.claimUrl}</code>
            </>
          )}
        </Alert>
      )}
      <section class="card" aria-labelledby="summary">
        <h2 id="summary">
          <Badge status={status} /> {usdc(invoice.total_amount)} from {invoice.vendor_name}
        </h2>
        <p>
          Received <strong data-figure="received">{usdc(money.received)}</strong> · refunded{" "}
          <strong data-figure="refunded">{usdc(money.refunded)}</strong> · net{" "}
          <strong data-figure="net">{usdc(money.net)}</strong> · still due{" "}
          <strong data-figure="due">{usdc(money.due)}</strong>
        </p>
        <p>
          Issued {invoice.issue_date} · due {invoice.due_date}
        </p>
        <p class="muted small">
          Customer: {invoice.vendor_name} &lt;{invoice.vendor_email}&gt;
          <br />
          Deposit address: <Hash value={checksummed(invoice.deposit_address)} />
        </p>
        <div class="actions">
          <a class="button" href={props.detail.pdfUrl}>
            Download PDF
          </a>
          <a class="button" href={props.detail.invoiceUrl}>
            Customer's page
          </a>
          {VOIDABLE_STATUSES.has(status) && (
            <form method="post" action={`/dashboard/invoices/${invoice.id}/void`} class="inline">
              <Csrf token={props.session.csrf} />
              <button type="submit">Void invoice…</button>
            </form>
          )}
        </div>
      </section>
      {money.received > 0n && (
        <section class="card" aria-labelledby="refund">
          <h2 id="refund">Refund</h2>
          <form method="post" action={`/dashboard/invoices/${invoice.id}/refunds`}>
            <Csrf token={props.session.csrf} />
            <Field
              name="amount"
              label="Amount in USDC"
              hint={
                props.refundDefault && "amount" in props.refundDefault
                  ? `Empty: ${props.refundDefault.amount} USDC, what a refund without an amount takes now (as the API does). You confirm on the next screen.`
                  : props.refundDefault
                    ? `Nothing to refund now: ${props.refundDefault.refused}`
                    : "You confirm the amount on the next screen."
              }
              state={props.refund ?? { values: {}, errors: {} }}
            />
            <Field
              name="to"
              label="Send to address"
              hint="Empty: the customer is emailed a one-time link to name the address. An exchange pays from a shared wallet, so a payment's sender is often not the customer's own."
              state={props.refund ?? { values: {}, errors: {} }}
            />
            <button type="submit">Request refund…</button>
          </form>
        </section>
      )}
      <section class="card">
        <div class="tablewrap">
          <table class="responsive">
            <caption>Line items</caption>
            <thead>
              <tr>
                <th scope="col">Description</th>
                <th scope="col" class="num">
                  Quantity
                </th>
                <th scope="col" class="num">
                  Unit price
                </th>
                <th scope="col" class="num">
                  Total
                </th>
              </tr>
            </thead>
            <tbody>
              {lines.map((line) => (
                <tr>
                  <td data-label="Description">{line.description}</td>
                  <td data-label="Quantity" class="num">
                    {line.quantity}
                  </td>
                  <td data-label="Unit price" class="num">
                    {usdc(line.unit_price)}
                  </td>
                  <td data-label="Total" class="num">
                    {usdc(line.line_total)}
                  </td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colspan={3}>
                  Total
                </th>
                <td class="num total">
                  <strong>{usdc(invoice.total_amount)}</strong>
                </td>
              </tr>
            </tfoot>
          </table>
        </div>
      </section>
      <section class="card" aria-labelledby="timeline">
        <h2 id="timeline">Timeline</h2>
        <ol class="timeline">
          {happenings(props.detail, props.session.csrf).map((item) => (
            <li data-happening={item.key}>
              <Time at={item.at} />
              {item.body}
            </li>
          ))}
        </ol>
      </section>
    </DashboardLayout>
  );
}

/** A confirmation: what will happen, the button that does it, and a way back. */
function ConfirmCard(props: {
  action: string;
  csrf: string;
  button: string;
  cancel: string;
  hidden?: Record<string, string>;
  children: Child;
}) {
  return (
    <section class="card" aria-labelledby="confirm">
      <h2 id="confirm">Please confirm</h2>
      {props.children}
      <form method="post" action={props.action} class="actions">
        <Csrf token={props.csrf} />
        {Object.entries(props.hidden ?? {}).map(([name, value]) => (
          <input type="hidden" name={name} value={value} />
        ))}
        <input type="hidden" name="confirm" value="1" />
        <button type="submit" class="danger">
          {props.button}
        </button>
        <a href={props.cancel}>Cancel</a>
      </form>
    </section>
  );
}

/** The second screen of "Void invoice": nothing happens until its button is pressed. */
export function VoidConfirmPage(props: { session: Session; invoice: InvoiceRow }) {
  const { invoice } = props;
  return (
    <DashboardLayout
      title={`Void invoice ${invoice.invoice_number}?`}
      section="/dashboard/invoices"
      {...props.session}
    >
      <ConfirmCard
        action={`/dashboard/invoices/${invoice.id}/void`}
        csrf={props.session.csrf}
        button={`Void invoice ${invoice.invoice_number}`}
        cancel={`/dashboard/invoices/${invoice.id}`}
      >
        <p>
          Invoice <strong>{invoice.invoice_number}</strong> of{" "}
          <strong data-figure="amount">{usdc(invoice.total_amount)}</strong> to{" "}
          {invoice.vendor_name} &lt;{invoice.vendor_email}&gt; will no longer be payable. Nothing
          was paid, so no money moves.
        </p>
        <p class="muted small">
          Its deposit address <Hash value={checksummed(invoice.deposit_address)} /> stops asking for
          payment; anything sent there later is held for you to refund. Voiding cannot be undone.
        </p>
      </ConfirmCard>
    </DashboardLayout>
  );
}

/** What the refund asked for would do (the API's own plan), before it is requested. */
export type RefundConfirmation = {
  amount: string;
  source: "deposit" | "managed_wallet";
  from: string;
  to: string | null;
  vendorEmail: string | null;
};

/** The second screen of "Request refund": the amount, where from and where to; then the button. */
export function RefundConfirmPage(props: {
  session: Session;
  invoice: InvoiceRow;
  refund: RefundConfirmation;
}) {
  const { invoice, refund } = props;
  return (
    <DashboardLayout
      title={`Refund ${refund.amount} USDC?`}
      section="/dashboard/invoices"
      {...props.session}
    >
      <ConfirmCard
        action={`/dashboard/invoices/${invoice.id}/refunds`}
        csrf={props.session.csrf}
        button={`Refund ${refund.amount} USDC`}
        cancel={`/dashboard/invoices/${invoice.id}`}
        hidden={{ amount: refund.amount, ...(refund.to ? { to: refund.to } : {}) }}
      >
        <dl class="facts">
          <dt>Amount</dt>
          <dd>
            <strong data-figure="amount">{refund.amount} USDC</strong> for invoice{" "}
            {invoice.invoice_number}
          </dd>
          <dt>From</dt>
          <dd data-figure="from">
            {refund.source === "deposit" ? "The invoice's deposit address" : "Your managed wallet"}{" "}
            <Hash value={refund.from} />
          </dd>
          <dt>To</dt>
          <dd data-figure="to">
            {refund.to ? (
              <Hash value={refund.to} />
            ) : refund.vendorEmail ? (
              `a one-time claim link emailed to ${refund.vendorEmail}, where the customer names the address`
            ) : (
              "a one-time claim link, where the customer names the address"
            )}
          </dd>
        </dl>
        <p class="muted small">
          The relayer sends it once confirmed here; a refund on its way cannot be called back.
        </p>
      </ConfirmCard>
    </DashboardLayout>
  );
}
