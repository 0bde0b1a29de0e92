import { randomUUID } from "node:crypto";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { indexedHead } from "../../db/queries/indexer.ts";
import { freePort } from "../../internal/freePort.ts";
import { waitFor } from "../../internal/process.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { metricTypes, parseMetrics, type Sample, sampleValue } from "../helpers/prometheus.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { EVENT_MS } from "../helpers/waits.ts";
import { startWebhookReceiver } from "../helpers/webhookReceiver.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";

const scrape = async (url: string) => {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await response.text();
  return { text, samples: parseMetrics(text), types: metricTypes(text) };
};

/** A check that the sample is there and at least `least`. */
const atLeast =
  (name: string, labels: Record<string, string>, least: number) => (samples: Sample[]) =>
    (sampleValue(samples, name, labels) ?? Number.NEGATIVE_INFINITY) >= least;

/** Scrapes until `check` holds, so values computed by other processes have time to move. */
const scrapeUntil = (what: string, url: string, check: (samples: Sample[]) => boolean) =>
  waitFor(
    what,
    async () => {
      const result = await scrape(url);
      return check(result.samples) && result;
    },
    { timeoutMs: EVENT_MS, intervalMs: 200 },
  );

describe("/metrics after a paid invoice", () => {
  const chain = useChainForFile();
  let stack: TestStack;
  let workerMetrics: string;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

  beforeAll(async () => {
    await chain.snapshot();
    // The first delivery is answered 500: one failed attempt, then one delivered.
    receiver = await startWebhookReceiver([500]);
    const port = await freePort();
    workerMetrics = `http://127.0.0.1:${port}/metrics`;
    stack = await startStack({
      worker: true,
      indexer: true,
      env: { WEBHOOK_RETRY_BASE_MS: "50", WORKER_METRICS_PORT: String(port) },
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.stop();
    await chain.revert();
  });

  test("requests, webhooks, emails, indexer lag and jobs move as the invoice is paid", async () => {
    const api = `${stack.api.url}/metrics`;
    const before = await scrape(api);
    expect(before.types).toMatchObject({
      remit_http_request_duration_seconds: "histogram",
      remit_webhook_attempts_total: "counter",
      remit_webhook_deliveries: "gauge",
      remit_email_attempts_total: "counter",
      remit_emails: "gauge",
      remit_indexer_lag_blocks: "gauge",
      remit_jobs_queued: "gauge",
    });
    // Nothing has happened yet: the outcome series exist, at zero.
    for (const outcome of ["delivered", "http_error", "gone", "no_response"])
      expect(sampleValue(before.samples, "remit_webhook_attempts_total", { outcome })).toBe(0);
    expect(
      sampleValue(before.samples, "remit_emails", { kind: "vendor_invoice", status: "sent" }),
    ).toBe(0);

    const created = await stack.request("/api/invoices", {
      method: "POST",
      json: invoiceRequest({
        line_items: [{ description: "Work", quantity: 1, unit_price: "12.00" }],
        webhook_url: receiver.url,
      }),
    });
    expect(created.status).toBe(201);
    const invoice = (await created.json()) as { invoice_id: string; deposit_address: Address };
    expect((await stack.request(`/api/invoices/${randomUUID()}`)).status).toBe(404);
    const paid = await chain.payUsdc(devAccount(3), invoice.deposit_address, 12_000_000n);
    let statusPolls = 0;
    await waitFor("the invoice to be paid", async () => {
      statusPolls++;
      const body = (await (
        await stack.request(`/api/invoices/${invoice.invoice_id}/status`)
      ).json()) as { status: string };
      return body.status === "paid";
    });

    // Webhooks and emails are counted from the database, whichever worker did them. A scrape
    // reads attempts and deliveries in statements of their own, so it may see the delivered
    // attempt and not yet its delivery's status (one transaction wrote both): wait for both.
    const after = await scrapeUntil("the delivery and both emails in /metrics", api, (samples) => {
      const value = (name: string, labels: Record<string, string>) =>
        sampleValue(samples, name, labels);
      return (
        value("remit_webhook_attempts_total", { outcome: "delivered" }) === 1 &&
        value("remit_webhook_deliveries", { status: "delivered" }) === 1 &&
        value("remit_webhook_deliveries", { status: "pending" }) === 0 &&
        value("remit_emails", { kind: "vendor_invoice", status: "sent" }) === 1 &&
        value("remit_emails", { kind: "payment_event", status: "sent" }) === 1
      );
    });
    const value = (name: string, labels: Record<string, string> = {}) =>
      sampleValue(after.samples, name, labels);

    const requests = (method: string, route: string, status: string) =>
      value("remit_http_request_duration_seconds_count", { method, route, status });
    expect(requests("POST", "/api/invoices", "201")).toBe(1);
    expect(requests("GET", "/api/invoices/:id/status", "200")).toBe(statusPolls);
    expect(requests("GET", "/api/invoices/:id", "404")).toBe(1);
    expect(
      value("remit_http_request_duration_seconds_bucket", {
        method: "POST",
        route: "/api/invoices",
        status: "201",
        le: "+Inf",
      }),
    ).toBe(1);
    // Route patterns only: no id ever becomes a label.
    expect(after.text).not.toContain(invoice.invoice_id);

    expect(value("remit_webhook_attempts_total", { outcome: "http_error" })).toBe(1);
    expect(value("remit_webhook_deliveries", { status: "delivered" })).toBe(1);
    expect(value("remit_webhook_deliveries", { status: "pending" })).toBe(0);
    expect(value("remit_email_attempts_total", { kind: "vendor_invoice", outcome: "sent" })).toBe(
      1,
    );
    expect(value("remit_email_attempts_total", { kind: "payment_event", outcome: "sent" })).toBe(1);
    expect(value("remit_email_attempts_total", { kind: "vendor_invoice", outcome: "failed" })).toBe(
      0,
    );
    expect(value("process_resident_memory_bytes")).toBeGreaterThan(0);

    // The indexer has the payment's block; lag is the head minus it, both read at scrape time.
    const head = value("remit_chain_head_block") as number;
    const indexed = value("remit_indexer_indexed_block") as number;
    expect(indexed).toBeGreaterThanOrEqual(Number(paid.blockNumber));
    expect(head).toBeGreaterThanOrEqual(indexed);
    expect(value("remit_indexer_lag_blocks")).toBe(head - indexed);
    expect(Number(await indexedHead(stack.db, "idx_test"))).toBeGreaterThanOrEqual(indexed);

    // The worker's own registry: every job run, by task and outcome, with its latency.
    // A job's outcome is counted once it has returned, just after its writes are visible.
    const jobs = await scrapeUntil(
      "the emails and deliveries in the worker's metrics",
      workerMetrics,
      (s) =>
        sampleValue(s, "remit_jobs_total", { task: "send_email", outcome: "success" }) === 2 &&
        sampleValue(s, "remit_jobs_total", { task: "deliver_webhook", outcome: "success" }) === 2 &&
        atLeast("remit_jobs_total", { task: "reconcile_deposit", outcome: "success" }, 1)(s),
    );
    const job = (name: string, labels: Record<string, string>) =>
      sampleValue(jobs.samples, name, labels);
    expect(jobs.types).toMatchObject({
      remit_jobs_total: "counter",
      remit_job_duration_seconds: "histogram",
      remit_job_latency_seconds: "histogram",
    });
    // Two attempts, both completed jobs: a 500 is recorded and retried by a new job.
    expect(job("remit_jobs_total", { task: "deliver_webhook", outcome: "success" })).toBe(2);
    expect(job("remit_job_latency_seconds_count", { task: "send_email", outcome: "success" })).toBe(
      2,
    );
    expect(
      job("remit_job_duration_seconds_count", { task: "send_email", outcome: "success" }),
    ).toBe(2);
    expect(
      job("remit_jobs_total", { task: "reconcile_deposit", outcome: "success" }),
    ).toBeGreaterThanOrEqual(1);
    expect(job("remit_jobs_total", { task: "send_email", outcome: "retry" })).toBeUndefined();
    expect(sampleValue(jobs.samples, "process_resident_memory_bytes")).toBeGreaterThan(0);
  });
});

describe("/metrics when email delivery fails", () => {
  let stack: TestStack;
  let workerMetrics: string;

  beforeAll(async () => {
    const port = await freePort();
    workerMetrics = `http://127.0.0.1:${port}/metrics`;
    // Nothing listens on the mail port: every send fails and is retried.
    const closed = await freePort();
    stack = await startStack({
      worker: true,
      env: {
        WORKER_METRICS_PORT: String(port),
        SENDGRID_API_URL: `http://127.0.0.1:${closed}`,
      },
    });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  test("the failed attempt is counted by the worker (retry) and from the emails table", async () => {
    const created = await stack.request("/api/invoices", {
      method: "POST",
      json: invoiceRequest(),
    });
    expect(created.status).toBe(201);
    const jobs = await scrapeUntil(
      "a send_email retry",
      workerMetrics,
      atLeast("remit_jobs_total", { task: "send_email", outcome: "retry" }, 1),
    );
    expect(
      sampleValue(jobs.samples, "remit_jobs_total", { task: "send_email", outcome: "success" }),
    ).toBeUndefined();
    // Each retry hands the email over again (`sending`) before it fails back to `queued`: wait
    // for a scrape between two attempts.
    const failed = atLeast(
      "remit_email_attempts_total",
      { kind: "vendor_invoice", outcome: "failed" },
      1,
    );
    const api = await scrapeUntil(
      "the failed attempt, the email queued again",
      `${stack.api.url}/metrics`,
      (samples) =>
        failed(samples) &&
        sampleValue(samples, "remit_emails", { kind: "vendor_invoice", status: "queued" }) === 1,
    );
    expect(
      sampleValue(api.samples, "remit_emails", { kind: "vendor_invoice", status: "queued" }),
    ).toBe(1);
    expect(
      sampleValue(api.samples, "remit_email_attempts_total", {
        kind: "vendor_invoice",
        outcome: "sent",
      }),
    ).toBe(0);
  });
});
