import type { JobHelpers } from "graphile-worker";
import { jobKey, TASK } from "../domain/jobs.ts";

/**
 * What sweep_deposit (submits a sweep) and check_sweep (follows it) share in the worker: neither
 * task imports the other. Their shared steps of a sweep's state are app/sweeps/execution.ts's.
 */

/** A sweep of the address again (now, or at `runAt`): funds that arrived while the last one was in flight. */
export async function queueNextRound(
  helpers: JobHelpers,
  address: string,
  runAt?: Date,
): Promise<void> {
  await helpers.addJob(
    TASK.sweepDeposit,
    { address },
    { jobKey: jobKey.sweep(address), ...(runAt ? { runAt } : {}) },
  );
}
