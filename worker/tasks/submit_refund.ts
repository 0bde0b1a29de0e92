import type { Task } from "graphile-worker";
import { z } from "zod";
import { submitRefund as submit } from "../../app/refunds/submitRefund.ts";
import type { WorkerDeps } from "../deps.ts";
import { jobDeps } from "../jobContext.ts";
import { relayOf } from "../relayer/relayOf.ts";
import { payloadTask } from "./payload.ts";

const Payload = z.object({ refund_id: z.uuid() });

/**
 * Pays a requested refund, or ends an expired claim link (app/refunds/submitRefund.ts), through
 * the relayer's one procedure (worker/relayer/moveByAuthorization.ts); without a relayer the
 * refund fails. A busy address queues this job again a second later; a failure the chain may
 * clear (no ETH for gas, an RPC error) throws, and graphile-worker retries the job.
 */
export function submitRefund(deps: WorkerDeps): Task {
  return payloadTask(Payload, async ({ refund_id }, helpers) => {
    await submit(
      {
        ...jobDeps(deps, helpers),
        managedWalletSeed: deps.managedWalletSeed,
        relay: deps.sweep && { ...relayOf(deps.sweep), mnemonic: deps.sweep.mnemonic },
      },
      refund_id,
    );
  });
}
