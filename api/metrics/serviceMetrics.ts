import { Counter, Gauge, type Registry } from "prom-client";
import { rpcRequest } from "../../chain/rpc.ts";
import type { Db } from "../../db/database.ts";
import { indexedHead } from "../../db/queries/indexer.ts";
import { countOutcomes, type Outcomes } from "../../db/queries/metrics.ts";
import {
  RELAYER_GAS_KINDS,
  type RelayerGasSpent,
  relayerGasSpent,
} from "../../db/queries/relayerGas.ts";
import { type FeedName, PRICE_FEEDS } from "../../domain/currencies.ts";
import { utcDayStart } from "../../domain/relayedAuthorization.ts";
import { REFUND_GAS_RESERVE, type RelayerBudget } from "../../domain/relayerBudget.ts";
import {
  EMAIL_STATUSES,
  WEBHOOK_ATTEMPT_OUTCOMES,
  WEBHOOK_DELIVERY_STATUSES,
} from "../../domain/statuses.ts";
import type { Logger } from "../../internal/logger.ts";
import { feedAges, sharedFeedsReading } from "../feedHealth.ts";
import { withTimeout } from "../health.ts";

export type ServiceMetricsDeps = {
  db: Db;
  rpcUrl: string;
  indexerSchema: string;
  log: Logger;
  /** The relayer's daily gas budgets; none: their gauges read NaN. */
  relayerBudget?: RelayerBudget;
};

/** A scrape waits this long for the chain and the database; a late source reads as NaN or stale. */
const SOURCE_TIMEOUT_MS = 2_000;
/** One reading serves every series of a scrape (they are collected concurrently). */
const READING_TTL_MS = 1_000;

const EMAIL_KINDS = ["vendor_invoice", "payment_event"];

/** `read`'s result, shared by calls within `ttlMs` of each other. */
function shared<T>(read: () => Promise<T>, ttlMs: number): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | undefined;
  return () => {
    if (!last || Date.now() - last.at > ttlMs) last = { at: Date.now(), value: read() };
    return last.value;
  };
}

type Labels = Record<string, string>;

/**
 * Replaces every series of `metric` by a fresh reading: the `zeros` first (so a series that has
 * nothing to count yet is reported at 0 rather than missing), then the readings, added up on a
 * counter and set on a gauge.
 */
function publish(metric: Counter | Gauge, zeros: Labels[], readings: [Labels, number][]): void {
  metric.reset();
  const put =
    metric instanceof Counter
      ? (labels: Labels, value: number) => metric.inc(labels, value)
      : (labels: Labels, value: number) => metric.set(labels, value);
  for (const labels of zeros) put(labels, 0);
  for (const [labels, value] of readings) put(labels, value);
}

const product = (kinds: readonly string[], key: string, values: readonly string[]): Labels[] =>
  kinds.flatMap((kind) => values.map((value) => ({ kind, [key]: value })));

/**
 * Series read from the chain and the database when Prometheus scrapes: the indexer's lag, and
 * the outcomes of webhook deliveries, emails and jobs. Deliveries and emails happen in the
 * worker, but every attempt is a row (app.webhook_attempts, app.emails), so counting rows
 * gives totals that are right across worker restarts and replicas, which in-process counters
 * are not. Every API replica reports the same totals: aggregate them with max(), not sum().
 */
export function registerServiceMetrics(
  registry: Registry,
  deps: ServiceMetricsDeps,
  { readingTtlMs = READING_TTL_MS } = {},
): void {
  const chainReading = shared(async () => {
    const [head, indexed] = await Promise.all([
      withTimeout(rpcRequest<string>(deps.rpcUrl, "eth_blockNumber", []), SOURCE_TIMEOUT_MS)
        .then(BigInt)
        .catch(() => null),
      withTimeout(indexedHead(deps.db, deps.indexerSchema), SOURCE_TIMEOUT_MS).catch(() => null),
    ]);
    return { head, indexed };
  }, readingTtlMs);

  const asNumber = (block: bigint | null) => (block === null ? Number.NaN : Number(block));
  const headGauge: Gauge = new Gauge({
    name: "remit_chain_head_block",
    help: "Latest block of the chain (RPC eth_blockNumber); NaN when the RPC does not answer within 2 s.",
    registers: [registry],
    collect: async () => headGauge.set(asNumber((await chainReading()).head)),
  });
  const indexedGauge: Gauge = new Gauge({
    name: "remit_indexer_indexed_block",
    help: "Latest block the indexer has fully processed; NaN before its first or when the database does not answer.",
    registers: [registry],
    collect: async () => indexedGauge.set(asNumber((await chainReading()).indexed)),
  });
  const lagGauge: Gauge = new Gauge({
    name: "remit_indexer_lag_blocks",
    help: "Chain head minus the indexer's latest block; NaN when either is unknown.",
    registers: [registry],
    collect: async () => {
      const { head, indexed } = await chainReading();
      lagGauge.set(head === null || indexed === null ? Number.NaN : Number(head - indexed));
    },
  });

  const feedAge: Gauge = new Gauge({
    name: "remit_price_feed_age_seconds",
    help: "Age of each price feed's latest round at the chain's latest block (api/feedHealth.ts); NaN when it has none or the chain does not answer. Past the feed's heartbeat (86400 s) payments priced in its currency wait for a fresh round.",
    labelNames: ["feed"] as const,
    registers: [registry],
    collect: async () => {
      const ages = await sharedFeedsReading(deps.rpcUrl)
        .then(feedAges)
        .catch(() => null);
      for (const feed of Object.keys(PRICE_FEEDS))
        feedAge.set({ feed }, ages?.[feed as FeedName] ?? Number.NaN);
    },
  });

  let lastOutcomes: Outcomes | undefined;
  const outcomes = shared(async (): Promise<Outcomes | undefined> => {
    try {
      lastOutcomes = await withTimeout(countOutcomes(deps.db), SOURCE_TIMEOUT_MS);
    } catch (error) {
      // Counters must not drop to zero because one scrape failed: keep the last reading.
      deps.log.warn("metrics: could not read outcomes from the database", { error });
    }
    return lastOutcomes;
  }, readingTtlMs);

  const attempts: Counter = new Counter({
    name: "remit_webhook_attempts_total",
    help: "Webhook delivery attempts by outcome: delivered (2xx), gone (410), http_error (another status), no_response (timeout, network error, refused address).",
    labelNames: ["outcome"] as const,
    registers: [registry],
    collect: async () => {
      const read = await outcomes();
      if (!read) return;
      publish(
        attempts,
        WEBHOOK_ATTEMPT_OUTCOMES.map((outcome) => ({ outcome })),
        read.webhookAttempts.map((row) => [{ outcome: row.outcome }, row.n]),
      );
    },
  });
  const deliveries: Gauge = new Gauge({
    name: "remit_webhook_deliveries",
    help: "Webhook deliveries (one per event and URL) by current status: pending (being retried), delivered, failed (gave up), gone (410).",
    labelNames: ["status"] as const,
    registers: [registry],
    collect: async () => {
      const read = await outcomes();
      if (!read) return;
      publish(
        deliveries,
        WEBHOOK_DELIVERY_STATUSES.map((status) => ({ status })),
        read.deliveries.map((row) => [{ status: row.status }, row.n]),
      );
    },
  });
  const emails: Gauge = new Gauge({
    name: "remit_emails",
    help: "Emails by kind and current status: queued (not sent yet, or being retried), sending (handed to SendGrid, acceptance not yet recorded), sent, failed (gave up).",
    labelNames: ["kind", "status"] as const,
    registers: [registry],
    collect: async () => {
      const read = await outcomes();
      if (!read) return;
      publish(
        emails,
        product(EMAIL_KINDS, "status", EMAIL_STATUSES),
        read.emails.map((row) => [{ kind: row.kind, status: row.status }, row.n]),
      );
    },
  });
  const emailAttempts: Counter = new Counter({
    name: "remit_email_attempts_total",
    help: "Attempts to hand an email to SendGrid, by kind and outcome (sent: accepted; failed: an error, retried with backoff).",
    labelNames: ["kind", "outcome"] as const,
    registers: [registry],
    collect: async () => {
      const read = await outcomes();
      if (!read) return;
      publish(
        emailAttempts,
        product(EMAIL_KINDS, "outcome", ["sent", "failed"]),
        read.emails.flatMap((row): [Labels, number][] => {
          // A sent row's attempts include its one success; every other attempt failed.
          const sent = row.status === "sent" ? row.n : 0;
          return [
            [{ kind: row.kind, outcome: "sent" }, sent],
            [{ kind: row.kind, outcome: "failed" }, row.attempts - sent],
          ];
        }),
      );
    },
  });
  const jobs: Gauge = new Gauge({
    name: "remit_jobs_queued",
    help: "graphile-worker jobs by task and state: waiting (due and not taken yet) or failed (out of attempts, kept for inspection).",
    labelNames: ["task", "state"] as const,
    registers: [registry],
    collect: async () => {
      const read = await outcomes();
      if (!read) return;
      publish(
        jobs,
        [],
        read.jobs.flatMap((row): [Labels, number][] => [
          [{ task: row.task, state: "waiting" }, row.waiting],
          [{ task: row.task, state: "failed" }, row.failed],
        ]),
      );
    },
  });

  // The relayer's gas today against its budgets (docs/operations.md, "The relayer's gas budget").
  const gasReading = shared(
    (): Promise<RelayerGasSpent | null> =>
      withTimeout(
        relayerGasSpent(deps.db, utcDayStart(new Date()), REFUND_GAS_RESERVE),
        SOURCE_TIMEOUT_MS,
      ).catch((error: unknown) => {
        deps.log.warn("metrics: could not read the relayer's gas", { error });
        return null;
      }),
    readingTtlMs,
  );
  const gasSpent: Gauge = new Gauge({
    name: "remit_relayer_gas_spent_today",
    help: "Gas the relayer has spent since midnight UTC, plus what it holds for refunds and gasless payments not yet sent, by what it pays for (sweep, refund, gasless); NaN when the database does not answer.",
    labelNames: ["kind"] as const,
    registers: [registry],
    collect: async () => {
      const read = await gasReading();
      for (const kind of RELAYER_GAS_KINDS)
        gasSpent.set({ kind }, read ? Number(read.byKind[kind]) : Number.NaN);
    },
  });
  const budgetOf = (value: bigint | undefined) =>
    value === undefined ? Number.NaN : Number(value);
  const gasBudget: Gauge = new Gauge({
    name: "remit_relayer_gas_budget_daily",
    help: "The relayer's gas budget per UTC day (RELAYER_DAILY_GAS_BUDGET): refunds and gasless payments are refused once the day's spend reaches it.",
    registers: [registry],
    collect: () => gasBudget.set(budgetOf(deps.relayerBudget?.daily)),
  });
  const merchantBudget: Gauge = new Gauge({
    name: "remit_relayer_gas_budget_per_merchant_daily",
    help: "Each merchant's share of the relayer's gas per UTC day (RELAYER_MERCHANT_DAILY_GAS_BUDGET; 0: no per-merchant limit).",
    registers: [registry],
    collect: () => merchantBudget.set(budgetOf(deps.relayerBudget?.perMerchantDaily)),
  });
}
