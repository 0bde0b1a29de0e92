import type { TaskList } from "graphile-worker";
import type { WorkerDeps } from "../deps.ts";
import { deliverWebhook } from "./deliver_webhook.ts";
import { reconcileAll, reconcileDeposit } from "./reconcile_deposit.ts";
import { sendEmail } from "./send_email.ts";
import { sweepDeposit } from "./sweep_deposit.ts";

/** Every task the worker runs, by name; each lives in its own file in this folder. */
export function createTaskList(deps: WorkerDeps): TaskList {
  return {
    send_email: sendEmail(deps),
    reconcile_deposit: reconcileDeposit(deps),
    reconcile_all: reconcileAll(deps),
    deliver_webhook: deliverWebhook(deps),
    sweep_deposit: sweepDeposit(deps),
  };
}
