import type { Task, TaskSpec } from "graphile-worker";
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
 * How soon to look again while a payment waits for a usable rate (a feed round older than its
 * heartbeat, the sequencer down or in its grace period): feeds move in minutes or hours, not
 * blocks, so every 15 s is soon enough and costs a few calls to the node.
 */
const RATE_RECHECK_MS = 15_000;

/**
 * Reconciles a deposit address (app/payments/reconcileDeposit.ts: its status derived from the
 * transfers indexed to it, the difference recorded as an event, the sweep policy asked), and
 * queues itself again a second later while a transfer waits for its confirmations or for the
 * indexer (every 15 s while a payment waits for a usable rate). A failure (the database, a chain that cannot be asked) throws: nothing is recorded,
 * and graphile-worker retries the job.
 */
export function reconcileDeposit(deps: WorkerDeps): Task {
  return payloadTask(Payload, async ({ address }, helpers) => {
    const { recheck, waitingForRate } = await reconcile(
      {
        db: deps.db,
        indexerSchema: deps.indexerSchema,
        chain: deps.chain,
        feeds: deps.feeds,
        confirmations: deps.confirmations,
        dustThreshold: deps.dustThreshold,
        autoSweep: deps.sweep && deps.autoSweep ? deps.sweepPolicy : undefined,
      },
      address,
      helpers.logger,
    );
    if (recheck || waitingForRate)
      await helpers.addJob(
        TASK.reconcileDeposit,
        { address },
        recheckSpec(address, recheck ? RECHECK_MS : RATE_RECHECK_MS),
      );
  });
}

/**
 * A reconcile's next look at its address, `delayMs` from now. It never postpones a reconcile
 * queued meanwhile (`preserve_run_at`): a transfer indexed during this run queued one for now,
 * and a look "in 15 s" that replaced it would hold that payment back as long.
 */
export function recheckSpec(address: string, delayMs: number): TaskSpec {
  return {
    jobKey: jobKey.reconcile(address),
    runAt: new Date(Date.now() + delayMs),
    jobKeyMode: "preserve_run_at",
  };
}

/** A catch-up names the indexer build it is for; a job queued before it did (`{}`) is this worker's. */
const CatchUpPayload = z.object({
  indexerSchema: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/)
    .optional(),
});

/**
 * The start-up catch-up (the `reconcile_all` job, its name kept): app/payments/reconcileDeposit.ts.
 * It catches up the build its payload names, whichever worker takes it: during an upgrade the old
 * release's worker may take the new one's catch-up (docs/operations.md, "Upgrades"), and must
 * not run it against its own build.
 */
export function reconcileAll(deps: WorkerDeps): Task {
  return payloadTask(CatchUpPayload, async ({ indexerSchema }, helpers) => {
    await catchUpReconciles(
      { db: deps.db, indexerSchema: indexerSchema ?? deps.indexerSchema },
      helpers.logger,
    );
  });
}
