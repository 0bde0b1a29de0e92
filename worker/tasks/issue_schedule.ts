import type { Task } from "graphile-worker";
import { z } from "zod";
import { issueDuePeriods } from "../../app/schedules/issueDuePeriods.ts";
import type { WorkerDeps } from "../deps.ts";
import { permanentRefusal } from "../refusalVerdict.ts";
import { payloadTask } from "./payload.ts";

const Payload = z.object({ schedule_id: z.uuid() });

/**
 * Issues a schedule's due periods (app/schedules/issueDuePeriods.ts), each once. A template the
 * application refuses for good (a permanent refusal, worker/refusalVerdict.ts) pauses the
 * schedule with the reason in `last_error`; anything else (the database, a PDF thread) throws,
 * and graphile-worker retries the job.
 */
export function issueSchedule(deps: WorkerDeps): Task {
  return payloadTask(Payload, async ({ schedule_id }, helpers) => {
    if (!deps.schedules) return;
    const { app, clock } = deps.schedules;
    await issueDuePeriods(app, clock, schedule_id, {
      log: helpers.logger,
      refusedForGood: permanentRefusal,
    });
  });
}
