import type { Task } from "graphile-worker";
import { sweepReminders } from "../../app/reminders/remind.ts";
import type { WorkerDeps } from "../deps.ts";

/** The reminder sweep (app/reminders/remind.ts), every minute by cron. */
export function sendDueReminders(deps: WorkerDeps): Task {
  return async (_payload, helpers) => {
    if (!deps.schedules) return;
    const { reminders, events } = await sweepReminders(deps.db, deps.schedules.clock);
    if (reminders || events)
      helpers.logger.info(`reminders: ${reminders} sent, ${events} due-date events recorded`);
  };
}
