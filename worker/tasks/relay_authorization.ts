import type { Task } from "graphile-worker";
import { z } from "zod";
import { relayAuthorization as relay } from "../../app/payments/relayAuthorization.ts";
import type { WorkerDeps } from "../deps.ts";
import { jobDeps } from "../jobContext.ts";
import { relayOf } from "../relayer/relayOf.ts";
import { payloadTask } from "./payload.ts";

const Payload = z.object({ id: z.uuid() });

/**
 * Submits a payer's authorization the API verified and stored, then follows its transaction
 * (app/payments/relayAuthorization.ts), through the relayer's one procedure
 * (worker/relayer/moveByAuthorization.ts); without a relayer it fails. Still pending: this job
 * is queued again a second later. A failure (the database, the chain) throws, and
 * graphile-worker retries.
 */
export function relayAuthorization(deps: WorkerDeps): Task {
  return payloadTask(Payload, async ({ id }, helpers) => {
    await relay(
      {
        ...jobDeps(deps, helpers),
        relay: deps.sweep && { ...relayOf(deps.sweep), chain: deps.sweep.relayer.chain },
      },
      id,
    );
  });
}
