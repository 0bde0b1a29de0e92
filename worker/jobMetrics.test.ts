import { EventEmitter } from "node:events";
import { Registry } from "prom-client";
import { describe, expect, test } from "vitest";
import { parseMetrics, sampleValue } from "../test/helpers/prometheus.ts";
import { jobOutcome, observeJobs } from "./jobMetrics.ts";

describe("jobOutcome", () => {
  test("success, a retry while attempts remain, failed on the last one", () => {
    expect(jobOutcome({ attempts: 1, max_attempts: 25 }, false)).toBe("success");
    expect(jobOutcome({ attempts: 24, max_attempts: 25 }, true)).toBe("retry");
    expect(jobOutcome({ attempts: 25, max_attempts: 25 }, true)).toBe("failed");
  });
});

describe("observeJobs", () => {
  test("counts and times runs from graphile-worker's events", async () => {
    const events = new EventEmitter();
    const registry = new Registry();
    observeJobs(events, registry);
    const job = (id: string, task: string, attempts: number, dueMsAgo: number) => ({
      id,
      task_identifier: task,
      attempts,
      max_attempts: 2,
      run_at: new Date(Date.now() - dueMsAgo),
    });
    const run = (event: string, j: ReturnType<typeof job>) => {
      events.emit("job:start", { job: j });
      events.emit(event, { job: j });
    };
    run("job:success", job("1", "send_email", 1, 3_000));
    run("job:error", job("2", "send_email", 1, 0));
    run("job:error", job("3", "send_email", 2, 0));
    run("job:success", job("4", "deliver_webhook", 1, 0));

    const samples = parseMetrics(await registry.metrics());
    const value = (name: string, labels: Record<string, string>) =>
      sampleValue(samples, name, labels);
    expect(value("remit_jobs_total", { task: "send_email", outcome: "success" })).toBe(1);
    expect(value("remit_jobs_total", { task: "send_email", outcome: "retry" })).toBe(1);
    expect(value("remit_jobs_total", { task: "send_email", outcome: "failed" })).toBe(1);
    expect(value("remit_jobs_total", { task: "deliver_webhook", outcome: "success" })).toBe(1);
    expect(
      value("remit_job_duration_seconds_count", { task: "send_email", outcome: "retry" }),
    ).toBe(1);
    // Latency runs from run_at: the job due 3 s ago is past the 2.5 s bucket, not the 5 s one.
    const bucket = (le: string) =>
      value("remit_job_latency_seconds_bucket", { task: "send_email", outcome: "success", le });
    expect([bucket("2.5"), bucket("5")]).toEqual([0, 1]);
    expect(
      value("remit_job_latency_seconds_sum", { task: "send_email", outcome: "success" }),
    ).toBeGreaterThanOrEqual(3);
  });
});
