import type { Task } from "graphile-worker";
import { z } from "zod";
import { checkSweep as check } from "../../app/sweeps/checkSweep.ts";
import { SWEEP_CHECK_MS } from "../../app/sweeps/execution.ts";
import { jobKey, TASK } from "../../domain/jobs.ts";
import type { WorkerDeps } from "../deps.ts";
import { checkRelayed } from "../relayer/check.ts";
import { authorizationUsed } from "../relayer/moveByAuthorization.ts";
import { queueNextRound } from "../sweeps.ts";
import { payloadTask } from "./payload.ts";

const Payload = z.object({ sweep_id: z.uuid() });

/**
 * One look at a submitted sweep's transaction (app/sweeps/checkSweep.ts), through the relayer's
 * check (worker/relayer/check.ts); nothing without a relayer. Still pending: this job is queued
 * again a second later. A failure (the database, the chain) throws, and graphile-worker retries.
 */
export function checkSweep(deps: WorkerDeps): Task {
  return payloadTask(Payload, async ({ sweep_id }, helpers) => {
    if (!deps.sweep) return;
    const sweeping = deps.sweep;
    await check(
      {
        db: deps.db,
        checkRelayed: (relayed) => checkRelayed(sweeping.relayer, relayed),
        authorizationUsed: (from, nonce) => authorizationUsed(sweeping, from, nonce),
        queueCheck: async (sweepId) => {
          await helpers.addJob(
            TASK.checkSweep,
            { sweep_id: sweepId },
            { jobKey: jobKey.sweepCheck(sweepId), runAt: new Date(Date.now() + SWEEP_CHECK_MS) },
          );
        },
        queueNextRound: (address) => queueNextRound(helpers, address),
        log: helpers.logger,
      },
      sweep_id,
    );
  });
}
