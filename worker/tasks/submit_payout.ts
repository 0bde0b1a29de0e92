import type { Task } from "graphile-worker";
import { z } from "zod";
import { submitPayout as submit } from "../../app/payouts/submitPayout.ts";
import type { WorkerDeps } from "../deps.ts";
import { jobDeps } from "../jobContext.ts";
import { relayOf } from "../relayer/relayOf.ts";
import { payloadTask } from "./payload.ts";

const Payload = z.object({ payout_id: z.uuid() });

/**
 * Pays a requested payout (app/payouts/submitPayout.ts) through the relayer's one procedure
 * (worker/relayer/moveByAuthorization.ts); without a relayer the payout fails. A busy wallet
 * queues this job again a second later; a failure the chain may clear (no ETH for gas, an RPC
 * error) throws, and graphile-worker retries the job.
 */
export function submitPayout(deps: WorkerDeps): Task {
  return payloadTask(Payload, async ({ payout_id }, helpers) => {
    await submit(
      {
        ...jobDeps(deps, helpers),
        managedWalletSeed: deps.managedWalletSeed,
        relay: deps.sweep && relayOf(deps.sweep),
      },
      payout_id,
    );
  });
}
