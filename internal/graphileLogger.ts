import { Logger as GraphileLogger } from "graphile-worker";
import type { Logger } from "./logger.ts";
import { redactCredentials } from "./redactSecrets.ts";

// At debug level graphile-worker prints its whole options object, connection string included.
export { redactCredentials };

type Meta = Record<string, unknown>;
/** What graphile-worker puts in a logger's scope (its own LogScope, which it does not export). */
type Scope = { label?: string; workerId?: string; taskIdentifier?: string; jobId?: string };

/**
 * Our fields for one of graphile-worker's log calls. Its scope names the worker and, inside a
 * job, the job and its task; its metadata may hold the whole job row (payload included), which
 * is reduced to the same two ids, and an error, reduced to its message.
 */
export function graphileFields(scope: Scope, meta: Meta = {}): Meta {
  const job = meta.job as { id?: unknown; task_identifier?: unknown } | undefined;
  const fields: Meta = {
    worker_id: scope.workerId,
    task: scope.taskIdentifier ?? job?.task_identifier,
    job_id: scope.jobId ?? (job?.id === undefined ? undefined : String(job.id)),
  };
  if (typeof meta.duration === "number") fields.duration_ms = Math.round(meta.duration * 100) / 100;
  if (meta.error instanceof Error) fields.error = meta.error.message;
  return fields;
}

/**
 * graphile-worker's Logger writing through ours, so its lines (and the ones tasks write with
 * `helpers.logger`) are JSON lines like every other.
 */
export function graphileLogger(log: Logger): GraphileLogger {
  return new GraphileLogger((scope) => (level, message, meta) => {
    const fields = graphileFields(scope, meta);
    const text = redactCredentials(message);
    // Remit schedules nothing by crontab: its absence is expected, not news at info level.
    if (/^Failed to read crontab file/.test(message)) return log.debug(text, fields);
    if (level === "warning") log.warn(text, fields);
    else log[level](text, fields);
  });
}
