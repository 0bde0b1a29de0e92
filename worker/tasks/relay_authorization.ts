import type { Task } from "graphile-worker";
import { z } from "zod";
import { relayAuthorization as relay } from "../../app/payments/relayAuthorization.ts";
import type { WorkerDeps } from "../deps.ts";
import { addJobOf } from "../jobContext.ts";
import { relayOf } from "../relayer/relayOf.ts";
import { parsePayload } from "./payload.ts";

const Payload = z.object({ id: z.uuid() });

/**
 * Submits a payer's authorization the API verified and stored, then follows its transaction
 * (app/payments/relayAuthorization.ts), through the relayer's one procedure
 * (worker/relayer/moveByAuthorization.ts); without a relayer it fails. Still pending: this job
 * is queued again a second later. A failure (the database, the chain) throws, and
 * graphile-worker retries.
 */
export function relayAuthorization(deps: WorkerDeps): Task {
  return async (payload, helpers) => {
    const parsed = parsePayload(Payload, payload, helpers);
    if (!parsed) return;
    await relay(
      {
        db: deps.db,
        relay: deps.sweep && { ...relayOf(deps.sweep), chain: deps.sweep.relayer.chain },
        addJob: addJobOf(helpers),
        log: helpers.logger,
      },
      parsed.id,
    );
  };
}
