import type { Task } from "graphile-worker";
import { z } from "zod";
import { sweepDeposit as sweep } from "../../app/sweeps/sweepDeposit.ts";
import type { WorkerDeps } from "../deps.ts";
import {
  authorizationUsed,
  describeMoveFailure,
  moveByAuthorization,
} from "../relayer/moveByAuthorization.ts";
import { queueNextRound } from "../sweeps.ts";
import { payloadTask } from "./payload.ts";

const Payload = z.object({ address: z.string().regex(/^0x[0-9a-f]{40}$/) });

/**
 * Sweeps a deposit address (app/sweeps/sweepDeposit.ts) with the relayer's one procedure
 * (worker/relayer/moveByAuthorization.ts); nothing without a relayer. A transfer USDC refuses for
 * good is marked failed there and not retried; any other failure (no ETH for gas, an RPC error)
 * throws, and graphile-worker retries the job with its backoff.
 */
export function sweepDeposit(deps: WorkerDeps): Task {
  return payloadTask(Payload, async ({ address }, helpers) => {
    if (!deps.sweep) return;
    const sweeping = deps.sweep;
    await sweep(
      {
        db: deps.db,
        policy: deps.sweepPolicy,
        relay: {
          mnemonic: sweeping.mnemonic,
          chain: sweeping.chain,
          move: (move) => moveByAuthorization(sweeping, move),
          authorizationUsed: (from, nonce) => authorizationUsed(sweeping, from, nonce),
          describeFailure: describeMoveFailure,
        },
        queueNextRound: (address, runAt) => queueNextRound(helpers, address, runAt),
        log: helpers.logger,
      },
      address,
    );
  });
}
