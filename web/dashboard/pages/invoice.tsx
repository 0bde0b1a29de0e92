import type { Child } from "hono/jsx";
import type { InvoiceRow, LineItemRow } from "../../../db/queries/invoices.ts";
import type { RefundRow } from "../../../db/queries/refunds.ts";
import type { IndexedSweepRow } from "../../../db/queries/sweeps.ts";
import type { WebhookHistory } from "../../../db/queries/webhookHistory.ts";
import { reportedStatus } from "../../../domain/invoiceStatus.ts";
import { formatUsdcForDisplay } from "../../../domain/money.ts";
import type { InvoiceMoney } from "../../../domain/moneyRules.ts";
import type { IndexedTransfer } from "../../../domain/paymentState.ts";
import { Alert, Badge, Csrf, DashboardLayout, Time } from "../layout.tsx";
import { Field } from "./forms.tsx";
import { type Session, TxLink } from "./lists.tsx";

const usdc = (units: bigint) => `${formatUsdcForDisplay(units)} USDC`;

export type InvoiceEmail = {
  id: string;
  kind: string;
  recipient: string;
  status: string;
  attempts: number;
  sent_at: Date | null;
  last_error: string | null;
  created_at: Date;
};

export type AuditItem = { id: bigint; actor: string; action: string; created_at: Date };

/** One happening on an invoice's timeline. */
type Happening = { at: Date; key: string; body: Child };

const EMAIL_KINDS: Record<string, string> = {
  vendor_invoice: "Invoice emailed to the customer",
  payment_event: "Payment notice emailed to you",
  sweep_failed: "Sweep failure emailed to you",
};

export type InvoiceDetail = {
  invoice: InvoiceRow;
  lines: LineItemRow[];
  /** Received, refunded, net, due: domain/moneyRules.ts, as the API reports them. */
  money: InvoiceMoney;
  /** Every refund requested, oldest first. */
  refunds: RefundRow[];
  pdfUrl: string;
  invoiceUrl: string;
  transfers: IndexedTransfer[];
  counted: string[];
  history: WebhookHistory;
  emails: InvoiceEmail[];
  sweeps: IndexedSweepRow[];
  audit: AuditItem[];
  today: string;
  explorerUrl: string | null;
};

/** Everything that happened to the invoice, oldest first. */
function happenings(detail: InvoiceDetail, csrf: string): Happening[] {
  const { invoice, history, explorerUrl } = detail;
  const items: Happening[] = [
    { at: invoice.created_at, key: "created", body: <strong>Created</strong> },
  ];
  if (invoice.sent_at)
    items.push({ at: invoice.sent_at, key: "sent", body: <strong>Marked as sent</strong> });
  if (invoice.voided_at)
    items.push({ at: invoice.voided_at, key: "voided", body: <strong>Voided</strong> });
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
          from <code>{transfer.from}</code>
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
          <strong>
            Event <code>{event.type}</code>
          </strong>{" "}
          <Badge status={event.status} /> · paid {usdc(event.paid_amount)}
          {deliveries.length > 0 && (
            <ul class="small">
              {deliveries.map((delivery) => {
                const attempts = history.attempts.filter((a) => a.delivery_id === delivery.id);
                return (
                  <li data-delivery={delivery.id}>
                    Webhook to <code>{delivery.url}</code>: <Badge status={delivery.status} />
                    {attempts.map((a) => (
                      <>
                        {" "}
                        · attempt {a.attempt} <Time at={a.attempted_at} />{" "}
                        <span data-response-code={a.status_code ?? "none"}>
                          {a.status_code === null
                            ? `no response${a.error ? ` (${a.error})` : ""}`
                            : `HTTP ${a.status_code}`}
                        </span>
                      </>
                    ))}
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
          <strong>{EMAIL_KINDS[email.kind] ?? `Email (${email.kind})`}</strong> to{" "}
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
          <strong>Sweep of {usdc(sweep.amount)}</strong> to <code>{sweep.destination}</code>:{" "}
          <Badge status={sweep.status} />
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
    items.push({
      at: entry.created_at,
      key: `audit-${entry.id}`,
      body: (
        <>
          <strong>{entry.action}</strong> <span class="muted small">by {entry.actor}</span>
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
          to <code>{refund.to_address}</code>
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
const VOIDABLE = new Set(["draft", "sent", "overdue"]);

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
          Deposit address: <code>{invoice.deposit_address}</code>
        </p>
        <div class="actions">
          <a class="button" href={props.detail.pdfUrl}>
            Download PDF
          </a>
          <a class="button" href={props.detail.invoiceUrl}>
            Customer's page
          </a>
          {VOIDABLE.has(status) && (
            <form method="post" action={`/dashboard/invoices/${invoice.id}/void`} class="inline">
              <Csrf token={props.session.csrf} />
              <button type="submit">Void invoice</button>
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
              hint="Empty: everything Remit still holds for this invoice."
              state={props.refund ?? { values: {}, errors: {} }}
            />
            <Field
              name="to"
              label="Send to address"
              hint="Empty: the customer is emailed a one-time link to name the address. An exchange pays from a shared wallet, so a payment's sender is often not the customer's own."
              state={props.refund ?? { values: {}, errors: {} }}
            />
            <button type="submit">Request refund</button>
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
                <td class="num" data-label="Total">
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
