import type { EventEmitter } from "node:events";
import type { Job } from "graphile-worker";
import { Counter, Histogram, type Registry } from "prom-client";

/** Seconds; from a sub-millisecond reconcile to an email or a sweep waiting on the chain. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

export type JobOutcome = "success" | "retry" | "failed";

/**
 * How a run of `job` ended: success, or an error that will be retried, or one on its last
 * attempt (graphile-worker then gives up and emits `job:failed`: the same condition).
 */
export function jobOutcome(
  job: Pick<Job, "attempts" | "max_attempts">,
  failed: boolean,
): JobOutcome {
  if (!failed) return "success";
  return job.attempts >= job.max_attempts ? "failed" : "retry";
}

/**
 * Counts and times every job run from graphile-worker's events into `registry`:
 * `remit_jobs_total`, `remit_job_duration_seconds` (the run itself) and
 * `remit_job_latency_seconds` (from the time the job was due, `run_at`, to its completion:
 * queueing and running together), each by task and outcome.
 */
export function observeJobs(events: EventEmitter, registry: Registry): void {
  const labelNames = ["task", "outcome"] as const;
  const total = new Counter({
    name: "remit_jobs_total",
    help: "Job runs by task and outcome: success, retry (failed, will run again), failed (failed its last attempt).",
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "remit_job_duration_seconds",
    help: "Time a job run took, by task and outcome.",
    labelNames,
    buckets: BUCKETS,
    registers: [registry],
  });
  const latency = new Histogram({
    name: "remit_job_latency_seconds",
    help: "Time from a job being due (run_at) to the end of its run, by task and outcome.",
    labelNames,
    buckets: BUCKETS,
    registers: [registry],
  });

  const startedAt = new Map<string, number>();
  events.on("job:start", ({ job }: { job: Job }) => startedAt.set(job.id, performance.now()));
  const finished = (job: Job, failed: boolean) => {
    const labels = { task: job.task_identifier, outcome: jobOutcome(job, failed) };
    const started = startedAt.get(job.id);
    startedAt.delete(job.id);
    total.inc(labels);
    if (started !== undefined) duration.observe(labels, (performance.now() - started) / 1000);
    latency.observe(labels, Math.max(0, Date.now() - new Date(job.run_at).getTime()) / 1000);
  };
  events.on("job:success", ({ job }: { job: Job }) => finished(job, false));
  events.on("job:error", ({ job }: { job: Job }) => finished(job, true));
}
