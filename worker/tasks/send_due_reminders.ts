import type { Task } from "graphile-worker";
import { sweepReminders } from "../../app/reminders/remind.ts";
import type { WorkerDeps } from "../deps.ts";

/** The reminder sweep (app/reminders/remind.ts), every minute by cron. */
export function sendDueReminders(deps: WorkerDeps): Task {
  return async (_payload, helpers) => {
    if (!deps.schedules) return;
    const { reminders, events, deferred } = await sweepReminders(
      deps.db,
      deps.schedules.clock,
      deps.schedules.app.emailBudget,
    );
    if (reminders || events || deferred)
      helpers.logger.info(
        `reminders: ${reminders} sent, ${deferred} deferred (email budget), ${events} due-date events recorded`,
      );
  };
}
