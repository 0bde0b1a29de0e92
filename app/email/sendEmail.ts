import {
  findEmail,
  markEmailSending,
  markEmailSent,
  recordEmailFailure,
} from "../../db/queries/emails.ts";
import { createLogger } from "../../internal/logger.ts";
import type { JobLog } from "../jobLog.ts";
import { composeEmail } from "./composeEmail.ts";
import type { EmailDeps } from "./emailDeps.ts";

// No job fields here: the job's log context (worker/jobContext.ts) adds job_id and task. The
// component keeps its name from when this was the worker's own code: the same lines as before.
const log = createLogger("worker/email");

/**
 * Delivers one queued email (app.emails). The row is written in the same transaction as the
 * change that causes it, so no email is lost; a delivered email is marked sent and never sent
 * again. The hand-over is recorded first (`sending`): a job that finds an email in that state
 * follows one that died between SendGrid's 202 and the mark, so it asks SendGrid's activity
 * feed whether the message (tagged with its id) arrived, and only sends when it did not, or
 * when the feed cannot tell (then, as documented, at least once).
 */
export async function sendEmail(
  deps: EmailDeps,
  emailId: string,
  job: { log: JobLog; lastAttempt: boolean },
): Promise<void> {
  const email = await findEmail(deps.db, emailId);
  if (email?.status !== "queued" && email?.status !== "sending") return;
  if (email.status === "sending") {
    const accepted = await deps.mailer.wasAccepted(email.id);
    if (accepted) {
      job.log.info(`email ${email.id} had already reached SendGrid; not sending it again`);
      await markEmailSent(deps.db, email.id);
      return;
    }
    if (accepted === null)
      job.log.warn(
        `email ${email.id} may have reached SendGrid before a crash and its activity feed cannot tell; sending again`,
      );
  }
  const message = await composeEmail(deps, email);
  await markEmailSending(deps.db, email.id);
  try {
    await deps.mailer.send(message);
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    await recordEmailFailure(deps.db, email.id, text, {
      final: job.lastAttempt,
      refused: isRefusal(error),
    });
    throw error;
  }
  await markEmailSent(deps.db, email.id);
  log.info("email sent", { email_id: email.id, kind: email.kind });
}

/**
 * SendGrid certainly did not take the message: it answered with an error status, or no
 * connection was ever made. A timeout or a dropped connection is not that.
 */
const isRefusal = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "number") return code >= 400;
  return typeof code === "string" && NEVER_CONNECTED.has(code);
};

const NEVER_CONNECTED = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH"]);
