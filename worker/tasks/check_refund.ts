import type { Task } from "graphile-worker";
import { z } from "zod";
import { checkRefund as check } from "../../app/refunds/checkRefund.ts";
import type { WorkerDeps } from "../deps.ts";
import { jobDeps } from "../jobContext.ts";
import { relayOf } from "../relayer/relayOf.ts";
import { payloadTask } from "./payload.ts";

const Payload = z.object({ refund_id: z.uuid() });

/**
 * One look at a submitted refund (app/refunds/checkRefund.ts), through the relayer's check
 * (worker/relayer/check.ts); nothing without a relayer. Still pending, or executed and not yet
 * indexed: this job is queued again a second later. A failure (the database, the chain) throws,
 * and graphile-worker retries.
 */
export function checkRefund(deps: WorkerDeps): Task {
  return payloadTask(Payload, async ({ refund_id }, helpers) => {
    if (!deps.sweep) return;
    await check(
      {
        ...jobDeps(deps, helpers),
        indexerSchema: deps.indexerSchema,
        relay: relayOf(deps.sweep),
      },
      refund_id,
    );
  });
}
