import type { Task } from "graphile-worker";
import { z } from "zod";
import { sendEmail as send } from "../../app/email/sendEmail.ts";
import type { WorkerDeps } from "../deps.ts";
import { payloadTask } from "./payload.ts";

const Payload = z.object({ email_id: z.uuid() });

/**
 * Delivers one queued email (app/email/sendEmail.ts). A failure to compose or hand it over
 * throws, and graphile-worker retries the job; the job's last attempt records the email failed
 * for good.
 */
export function sendEmail(deps: WorkerDeps): Task {
  return payloadTask(Payload, async ({ email_id }, helpers) => {
    await send(
      {
        db: deps.db,
        mailer: deps.mailer,
        emailFrom: deps.emailFrom,
        baseUrl: deps.baseUrl,
        payUrl: deps.payUrl,
        explorerUrl: deps.explorerUrl,
        keys: deps.webhooks.keys,
        pdf: deps.pdf,
      },
      email_id,
      { log: helpers.logger, lastAttempt: helpers.job.attempts >= helpers.job.max_attempts },
    );
  });
}
