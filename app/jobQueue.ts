import type { TaskName } from "../domain/jobs.ts";

/**
 * How a use case run by the worker queues its next job (a look again, a hand-back to another
 * task): graphile-worker's `helpers.addJob`, passed in by the task, so app/ knows nothing of
 * graphile-worker. A job queued in the caller's transaction is db/queries/jobs.ts's queueJob.
 */
export type AddJob = (
  task: TaskName,
  payload: Record<string, unknown>,
  spec: { jobKey: string; runAt?: Date },
) => Promise<unknown>;
