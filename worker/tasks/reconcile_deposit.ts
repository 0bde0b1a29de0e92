import type { Task } from "graphile-worker";
import { z } from "zod";
import {
  catchUpReconciles,
  reconcileDeposit as reconcile,
} from "../../app/payments/reconcileDeposit.ts";
import { jobKey, TASK } from "../../domain/jobs.ts";
import type { WorkerDeps } from "../deps.ts";
import { payloadTask } from "./payload.ts";

const Payload = z.object({ address: z.string().regex(/^0x[0-9a-f]{40}$/) });

/** How soon to look again while a transfer waits for confirmations or for the indexer. */
const RECHECK_MS = 1_000;

/**
 * Reconciles a deposit address (app/payments/reconcileDeposit.ts: its status derived from the
 * transfers indexed to it, the difference recorded as an event, the sweep policy asked), and
 * queues itself again a second later while a transfer waits for its confirmations or for the
 * indexer. A failure (the database, a chain that cannot be asked) throws: nothing is recorded,
 * and graphile-worker retries the job.
 */
export function reconcileDeposit(deps: WorkerDeps): Task {
  return payloadTask(Payload, async ({ address }, helpers) => {
    const { recheck } = await reconcile(
      {
        db: deps.db,
        indexerSchema: deps.indexerSchema,
        chain: deps.chain,
        confirmations: deps.confirmations,
        dustThreshold: deps.dustThreshold,
        autoSweep: deps.sweep && deps.autoSweep ? deps.sweepPolicy : undefined,
      },
      address,
      helpers.logger,
    );
    if (recheck) {
      await helpers.addJob(
        TASK.reconcileDeposit,
        { address },
        { jobKey: jobKey.reconcile(address), runAt: new Date(Date.now() + RECHECK_MS) },
      );
    }
  });
}

/** The start-up catch-up (the `reconcile_all` job, its name kept): app/payments/reconcileDeposit.ts. */
export function reconcileAll(deps: WorkerDeps): Task {
  return async (_payload, helpers) => {
    await catchUpReconciles(deps, helpers.logger);
  };
}
