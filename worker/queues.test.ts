import type { Task } from "graphile-worker";
import { describe, expect, test } from "vitest";
import { TASK, type TaskName } from "../domain/jobs.ts";
import { QUEUES, queueOf, splitTaskList } from "./queues.ts";

describe("the worker's queues", () => {
  test("every task is in exactly one queue", () => {
    for (const task of Object.values(TASK)) {
      const homes = Object.values(QUEUES).filter((tasks) =>
        (tasks as readonly TaskName[]).includes(task),
      );
      expect(homes, task).toHaveLength(1);
    }
  });

  test("payment detection shares its queue with no outbound or money-moving task", () => {
    expect([...QUEUES.payments].sort()).toEqual([TASK.reconcileAll, TASK.reconcileDeposit].sort());
    for (const task of [
      TASK.deliverWebhook,
      TASK.sendEmail,
      TASK.sweepDeposit,
      TASK.checkSweep,
      TASK.relayAuthorization,
    ])
      expect(queueOf(task)).not.toBe("payments");
  });

  test("a task list splits into the queues, each with only its tasks", () => {
    const task: Task = async () => {};
    const split = splitTaskList(
      Object.fromEntries(Object.values(TASK).map((name) => [name, task])),
    );
    expect(Object.keys(split.payments).sort()).toEqual([...QUEUES.payments].sort());
    expect(Object.keys(split.webhooks)).toEqual([TASK.deliverWebhook]);
    expect(Object.keys(split.chain).sort()).toEqual(
      [
        TASK.checkSweep,
        TASK.provisionManagedWallets,
        TASK.relayAuthorization,
        TASK.sweepDeposit,
        TASK.submitRefund,
        TASK.checkRefund,
        TASK.submitPayout,
        TASK.checkPayout,
      ].sort(),
    );
  });

  test("a task of no queue is refused rather than never run", () => {
    expect(() => splitTaskList({ mystery: async () => {} })).toThrow(/no queue/);
  });
});
