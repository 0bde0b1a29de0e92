import { sql } from "kysely";
import type {
  EmailStatus,
  WebhookAttemptOutcome,
  WebhookDeliveryStatus,
} from "../../domain/statuses.ts";
import type { Executor } from "../database.ts";

/**
 * What /metrics counts from the tables, each row a series: every webhook attempt by outcome,
 * deliveries by status, emails by kind and status (with their attempts), graphile-worker jobs
 * by task (due and waiting, or out of attempts). Rows, not in-process counters: right across
 * worker restarts and replicas.
 */
export type Outcomes = {
  webhookAttempts: { outcome: WebhookAttemptOutcome; n: number }[];
  deliveries: { status: WebhookDeliveryStatus; n: number }[];
  emails: { kind: string; status: EmailStatus; n: number; attempts: number }[];
  jobs: { task: string; waiting: number; failed: number }[];
};

/** Reads every count of {@link Outcomes} at once. */
export async function countOutcomes(db: Executor): Promise<Outcomes> {
  const [webhookAttempts, deliveries, emails, jobs] = await Promise.all([
    sql<Outcomes["webhookAttempts"][number]>`
      select case
          when status_code between 200 and 299 then 'delivered'
          when status_code = 410 then 'gone'
          when status_code is not null then 'http_error'
          else 'no_response'
        end as outcome,
        count(*)::int as n
      from app.webhook_attempts group by 1`.execute(db),
    sql<Outcomes["deliveries"][number]>`
      select status, count(*)::int as n from app.webhook_deliveries group by status`.execute(db),
    sql<Outcomes["emails"][number]>`
      select kind, status, count(*)::int as n, sum(attempts)::int as attempts
      from app.emails group by kind, status`.execute(db),
    sql<Outcomes["jobs"][number]>`
      select task_identifier as task,
        count(*) filter (where locked_at is null and run_at <= now() and attempts < max_attempts)::int as waiting,
        count(*) filter (where attempts >= max_attempts)::int as failed
      from graphile_worker.jobs group by task_identifier`.execute(db),
  ]);
  return {
    webhookAttempts: webhookAttempts.rows,
    deliveries: deliveries.rows,
    emails: emails.rows,
    jobs: jobs.rows,
  };
}
