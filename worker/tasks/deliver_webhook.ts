import type { Task } from "graphile-worker";
import { z } from "zod";
import { deliverWebhook as deliver } from "../../app/webhooks/deliverWebhook.ts";
import type { WorkerDeps } from "../deps.ts";
import { jobDeps } from "../jobContext.ts";
import { payloadTask } from "./payload.ts";

const Payload = z.object({ delivery_id: z.uuid() });

/**
 * One attempt to deliver a webhook event (app/webhooks/deliverWebhook.ts): the next attempt,
 * when there is one, or this one once its merchant's share of the queue is free, is queued as a
 * job of its own. A failure to record the attempt (the database) or to open the endpoint's
 * secret throws, and graphile-worker retries the job.
 */
export function deliverWebhook(deps: WorkerDeps): Task {
  return payloadTask(Payload, async ({ delivery_id }, helpers) => {
    await deliver({ ...jobDeps(deps, helpers), webhooks: deps.webhooks }, delivery_id);
  });
}
