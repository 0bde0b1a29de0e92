import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import type { CapturedEmail } from "../api/dev/outbox.ts";
import { waitFor } from "../internal/process.ts";
import type { ReceivedWebhook } from "../test/helpers/webhookReceiver.ts";
import type { LoadResult } from "./load.ts";

/** One row of the fault suite's report. Every `duplicates` and `losses` must be 0. */
export type Figures = {
  scenario: string;
  invoices_created: number;
  payments_made: number;
  payments_reflected: number;
  emails_sent: number;
  webhooks_delivered: number;
  /** Webhook events delivered more than once (allowed: delivery is at least once). */
  webhook_redeliveries: number;
  client_retries: number;
  duplicates: number;
  losses: number;
  /** Human-readable reasons behind any duplicate or loss. */
  problems: string[];
};

type Snapshot = {
  invoices: {
    id: string;
    invoice_number: string;
    status: string;
    received: string | null;
    counted: string[] | null;
  }[];
  events: { id: string; invoice_id: string; type: string; status: string }[];
  emails: {
    id: string;
    kind: string;
    invoice_id: string | null;
    event_id: string | null;
    status: string;
  }[];
  jobs: {
    task_identifier: string;
    attempts: number;
    max_attempts: number;
    locked_at: Date | null;
    last_error: string | null;
    key: string | null;
    locked_by: string | null;
    run_at: Date;
    created_at: Date;
  }[];
};

async function snapshot(databaseUrl: string, merchantEmail: string): Promise<Snapshot> {
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on("error", () => {});
  await client.connect();
  try {
    const invoices = await client.query(
      `select i.id, i.invoice_number, i.status, s.received::text, s.counted
         from app.invoices i left join app.payment_state s on s.invoice_id = i.id
        where i.merchant_email = $1`,
      [merchantEmail],
    );
    const events = await client.query(
      `select e.id, e.invoice_id, e.type, e.status from app.payment_events e
         join app.invoices i on i.id = e.invoice_id where i.merchant_email = $1`,
      [merchantEmail],
    );
    const emails = await client.query(
      "select id, kind, invoice_id, event_id, status from app.emails",
    );
    const jobs = await client.query(
      "select task_identifier, key, attempts, max_attempts, locked_at, locked_by, run_at, created_at, last_error from graphile_worker.jobs",
    );
    return {
      invoices: invoices.rows,
      events: events.rows,
      emails: emails.rows,
      jobs: jobs.rows,
    };
  } finally {
    await client.end().catch(() => {});
  }
}

/** Which of these transaction hashes have a transfer in an indexer schema's table. */
async function indexedTransferIds(databaseUrl: string, txHashes: string[]): Promise<Set<string>> {
  if (txHashes.length === 0) return new Set();
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on("error", () => {});
  await client.connect();
  try {
    const schemas = await client.query<{ schema: string }>(
      "select table_schema as schema from information_schema.tables where table_name = 'usdc_transfer'",
    );
    const found = new Set<string>();
    for (const { schema } of schemas.rows) {
      const { rows } = await client.query<{ tx_hash: string }>(
        `select lower(tx_hash) as tx_hash from ${client.escapeIdentifier(schema)}.usdc_transfer where lower(tx_hash) = any($1)`,
        [txHashes],
      );
      for (const row of rows) found.add(row.tx_hash);
    }
    return found;
  } finally {
    await client.end().catch(() => {});
  }
}

async function outbox(dataDir: string): Promise<CapturedEmail[]> {
  const dir = path.join(dataDir, "outbox");
  const names = (await readdir(dir).catch(() => [])).filter((name) => name.endsWith(".json"));
  return Promise.all(
    names.map(
      async (name) => JSON.parse(await readFile(path.join(dir, name), "utf8")) as CapturedEmail,
    ),
  );
}

/** The event id of a delivery the receiver accepted (2xx); failed attempts do not count. */
const eventIdOf = (webhook: ReceivedWebhook): string | undefined =>
  typeof webhook.reply === "number" && webhook.reply < 300
    ? (JSON.parse(webhook.body) as { event_id?: string }).event_id
    : undefined;

/**
 * Waits until the service has caught up with everything the load did (every payment counted,
 * every email sent, every event delivered, the job queue empty), then checks that nothing was
 * lost or duplicated. Resolves with the scenario's figures; the caller asserts on them.
 */
export async function audit(options: {
  scenario: string;
  databaseUrl: string;
  dataDir: string;
  merchantEmail: string;
  load: LoadResult;
  webhooks: ReceivedWebhook[];
  timeoutMs?: number;
}): Promise<Figures> {
  const { load } = options;
  const paidPerInvoice = new Map<string, bigint>();
  for (const payment of load.payments)
    paidPerInvoice.set(
      payment.invoiceId,
      (paidPerInvoice.get(payment.invoiceId) ?? 0n) + payment.amount,
    );

  const settled = (state: Snapshot) => {
    const byId = new Map(state.invoices.map((invoice) => [invoice.id, invoice]));
    const allPaid = load.invoices.every(
      (invoice) =>
        byId.get(invoice.invoiceId)?.status === "paid" &&
        BigInt(byId.get(invoice.invoiceId)?.received ?? "0") ===
          paidPerInvoice.get(invoice.invoiceId),
    );
    const delivered = new Set(options.webhooks.map(eventIdOf));
    return (
      allPaid &&
      state.emails.every((email) => email.status === "sent") &&
      state.events.every((event) => delivered.has(event.id)) &&
      state.jobs.length === 0
    );
  };

  let state: Snapshot | undefined;
  try {
    await waitFor(
      "the service to catch up with the load",
      async () => {
        state = await snapshot(options.databaseUrl, options.merchantEmail);
        return settled(state);
      },
      { timeoutMs: options.timeoutMs ?? 180_000, intervalMs: 500 },
    );
  } catch {
    // Not settled: the figures below say what is missing.
  }
  state ??= await snapshot(options.databaseUrl, options.merchantEmail);
  const captured = await outbox(options.dataDir);
  const problems: string[] = [];
  let duplicates = 0;
  let losses = 0;

  // Invoices: each acknowledged creation exactly once, numbers unique and gap-free.
  const stored = new Map(state.invoices.map((invoice) => [invoice.id, invoice]));
  const acknowledged = new Set(load.invoices.map((invoice) => invoice.invoiceId));
  for (const id of acknowledged)
    if (!stored.has(id)) {
      losses++;
      problems.push(`invoice ${id} was acknowledged but is not stored`);
    }
  const extra = state.invoices.filter((invoice) => !acknowledged.has(invoice.id));
  duplicates += extra.length;
  for (const invoice of extra)
    problems.push(
      `invoice ${invoice.invoice_number} was never acknowledged (a duplicate creation)`,
    );
  const numbers = state.invoices.map((invoice) =>
    Number(invoice.invoice_number.match(/(\d+)$/)?.[1]),
  );
  const expectedNumbers = numbers.map((_, i) => i + 1);
  if (JSON.stringify([...numbers].sort((a, b) => a - b)) !== JSON.stringify(expectedNumbers))
    problems.push(`invoice numbers are not unique and gap-free: ${numbers.join(",")}`);

  // Payments: each transfer counted exactly once in its invoice's state.
  let reflected = 0;
  const uncounted = load.payments.filter(
    (payment) =>
      !(stored.get(payment.invoiceId)?.counted ?? []).some((id) =>
        id.startsWith(payment.txHash.toLowerCase()),
      ),
  );
  const indexed = await indexedTransferIds(
    options.databaseUrl,
    uncounted.map((payment) => payment.txHash.toLowerCase()),
  );
  for (const payment of load.payments) {
    const counted = stored.get(payment.invoiceId)?.counted ?? [];
    const times = counted.filter((id) => id.startsWith(payment.txHash.toLowerCase())).length;
    if (times === 1) reflected++;
    else if (times === 0) {
      losses++;
      // Where it stopped: never indexed (the indexer), or indexed and never counted (the queue).
      const where = indexed.has(payment.txHash.toLowerCase())
        ? "indexed, never counted"
        : "not indexed";
      problems.push(`payment ${payment.txHash} is not reflected in its invoice (${where})`);
    } else {
      duplicates++;
      problems.push(`payment ${payment.txHash} is counted ${times} times`);
    }
  }
  for (const invoice of load.invoices) {
    const row = stored.get(invoice.invoiceId);
    const expected = paidPerInvoice.get(invoice.invoiceId) ?? 0n;
    if (row && BigInt(row.received ?? "0") !== expected)
      problems.push(
        `invoice ${invoice.number} shows ${row.received} received, ${expected} was paid`,
      );
    if (row && expected === invoice.total && row.status !== "paid")
      problems.push(`invoice ${invoice.number} is fully paid but ${row.status}`);
  }

  // Status changes: exactly one `paid` event per invoice, and at most one `partial` for those
  // paid in two halves (none when both halves were mined before the service looked).
  const split = new Set(
    load.invoices
      .filter(
        (invoice) => load.payments.filter((p) => p.invoiceId === invoice.invoiceId).length > 1,
      )
      .map((invoice) => invoice.invoiceId),
  );
  for (const invoice of load.invoices) {
    const events = state.events
      .filter((event) => event.invoice_id === invoice.invoiceId)
      .map((event) => event.status);
    const paid = events.filter((status) => status === "paid").length;
    const partial = events.filter((status) => status === "partial").length;
    const maxPartial = split.has(invoice.invoiceId) ? 1 : 0;
    const other = events.length - paid - partial;
    if (paid === 0) losses++;
    duplicates += Math.max(0, paid - 1) + Math.max(0, partial - maxPartial) + other;
    if (paid !== 1 || partial > maxPartial || other > 0)
      problems.push(`invoice ${invoice.number} has events [${events}]`);
  }

  // Emails: one per status change (the vendor's invoice when sent, the merchant's per event),
  // each delivered to SendGrid exactly once.
  const ours = new Set(load.invoices.map((invoice) => invoice.invoiceId));
  const eventIds = new Set(state.events.map((event) => event.id));
  const emailRows = state.emails.filter(
    (email) =>
      (email.invoice_id && ours.has(email.invoice_id)) ||
      (email.event_id && eventIds.has(email.event_id)),
  );
  const capturedById = new Map(captured.map((email) => [email.id, email]));
  let emailsSent = 0;
  for (const row of emailRows) {
    const email = capturedById.get(row.id);
    if (!email) {
      losses++;
      problems.push(`email ${row.kind} ${row.id} never reached SendGrid`);
      continue;
    }
    emailsSent++;
    if (email.deliveries > 1) {
      duplicates += email.deliveries - 1;
      problems.push(`email ${row.id} reached SendGrid ${email.deliveries} times`);
    }
  }
  const expectedEmails = load.invoices.length + state.events.length;
  if (emailRows.length !== expectedEmails) {
    const difference = emailRows.length - expectedEmails;
    if (difference > 0) duplicates += difference;
    else losses -= difference;
    problems.push(`${emailRows.length} emails for ${expectedEmails} status changes`);
  }

  // Webhooks: at least one delivery of every event, with its id.
  const deliveries = new Map<string, number>();
  for (const webhook of options.webhooks) {
    const id = eventIdOf(webhook);
    if (id) deliveries.set(id, (deliveries.get(id) ?? 0) + 1);
  }
  let webhooksDelivered = 0;
  let redeliveries = 0;
  for (const event of state.events) {
    const times = deliveries.get(event.id) ?? 0;
    if (times === 0) {
      losses++;
      problems.push(`event ${event.id} (${event.status}) was never delivered`);
    } else {
      webhooksDelivered++;
      redeliveries += times - 1;
    }
  }

  // Jobs: none stuck (locked by a dead worker, failed for good, or still queued).
  for (const job of state.jobs)
    problems.push(
      `job ${job.task_identifier} ${job.key ?? ""} still queued (attempts ${job.attempts}/${job.max_attempts}, created ${job.created_at.toISOString()}, run at ${job.run_at.toISOString()}${job.locked_at ? `, locked by ${job.locked_by}` : ""}${job.last_error ? `, ${job.last_error.slice(0, 200)}` : ""})`,
    );

  return {
    scenario: options.scenario,
    invoices_created: load.invoices.length,
    payments_made: load.payments.length,
    payments_reflected: reflected,
    emails_sent: emailsSent,
    webhooks_delivered: webhooksDelivered,
    webhook_redeliveries: redeliveries,
    client_retries: load.retries,
    duplicates,
    losses,
    problems,
  };
}
