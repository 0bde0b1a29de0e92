import type { TaskList } from "graphile-worker";
import { TASK, type TaskName } from "../domain/jobs.ts";

/**
 * The worker's queues: each is a graphile-worker runner of its own in the worker process,
 * with its own slots (concurrency) and its own tasks, so no queue's jobs can take another's
 * slots. Payment detection (reconcile) never waits behind outbound or money-moving work: a
 * webhook receiver that answers slowly, a slow email provider, or sweeps waiting on the chain
 * fill their own queue's slots, never these. (graphile-worker's named queues run their jobs
 * one at a time, which is not wanted here; its priorities order jobs but reserve no slots.)
 */
export const QUEUES = {
  /** Reconciles: a payment's status, its event, its email and webhook rows. */
  payments: [TASK.reconcileDeposit, TASK.reconcileAll],
  /** Emails, and the PDFs of created documents (which their emails carry). */
  email: [TASK.sendEmail, TASK.renderPdf],
  webhooks: [TASK.deliverWebhook],
  /**
   * Relayer transactions, each submit-then-check: sweeps, payers' gasless payments, refunds
   * and payouts; and
   * the refill of the managed-wallet pool (key derivation, where the seed is).
   */
  chain: [
    TASK.sweepDeposit,
    TASK.checkSweep,
    TASK.relayAuthorization,
    TASK.provisionManagedWallets,
    TASK.submitRefund,
    TASK.checkRefund,
    TASK.submitPayout,
    TASK.checkPayout,
  ],
  /** Invoice schedules and reminders: never in a payment's way. */
  schedules: [TASK.issueDueSchedules, TASK.issueSchedule, TASK.sendDueReminders],
} as const satisfies Record<string, readonly TaskName[]>;

export type QueueName = keyof typeof QUEUES;

/** The queue a task runs in. */
export function queueOf(task: TaskName): QueueName {
  for (const [queue, tasks] of Object.entries(QUEUES) as [QueueName, readonly TaskName[]][])
    if (tasks.includes(task)) return queue;
  throw new Error(`task ${task} belongs to no queue (worker/queues.ts)`);
}

/**
 * The task list split by queue. Throws on a task of no queue: it would never run.
 *
 * @example splitTaskList(tasks).payments // { reconcile_deposit, reconcile_all }
 */
export function splitTaskList(tasks: TaskList): Record<QueueName, TaskList> {
  const split = Object.fromEntries(
    Object.keys(QUEUES).map((queue) => [queue, {} as TaskList]),
  ) as Record<QueueName, TaskList>;
  for (const [name, task] of Object.entries(tasks)) {
    if (task) split[queueOf(name as TaskName)][name] = task;
  }
  return split;
}
