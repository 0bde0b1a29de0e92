import type { Task } from "graphile-worker";
import { z } from "zod";
import { checkPayout as check } from "../../app/payouts/checkPayout.ts";
import type { WorkerDeps } from "../deps.ts";
import { jobDeps } from "../jobContext.ts";
import { relayOf } from "../relayer/relayOf.ts";
import { payloadTask } from "./payload.ts";

const Payload = z.object({ payout_id: z.uuid() });

/**
 * One look at a submitted payout's transaction (app/payouts/checkPayout.ts), through the
 * relayer's check (worker/relayer/check.ts); nothing without a relayer. Still pending: this job
 * is queued again a second later. A failure (the database, the chain) throws, and
 * graphile-worker retries.
 */
export function checkPayout(deps: WorkerDeps): Task {
  return payloadTask(Payload, async ({ payout_id }, helpers) => {
    if (!deps.sweep) return;
    await check({ ...jobDeps(deps, helpers), relay: relayOf(deps.sweep) }, payout_id);
  });
}
