import type { TaskList } from "graphile-worker";
import { TASK } from "../../domain/jobs.ts";
import type { WorkerDeps } from "../deps.ts";
import { checkPayout } from "./check_payout.ts";
import { checkRefund } from "./check_refund.ts";
import { checkSweep } from "./check_sweep.ts";
import { deliverWebhook } from "./deliver_webhook.ts";
import { issueDueSchedules } from "./issue_due_schedules.ts";
import { issueSchedule } from "./issue_schedule.ts";
import { provisionManagedWallets } from "./provision_managed_wallets.ts";
import { reconcileAll, reconcileDeposit } from "./reconcile_deposit.ts";
import { relayAuthorization } from "./relay_authorization.ts";
import { renderPdf } from "./render_pdf.ts";
import { sendDueReminders } from "./send_due_reminders.ts";
import { sendEmail } from "./send_email.ts";
import { submitPayout } from "./submit_payout.ts";
import { submitRefund } from "./submit_refund.ts";
import { sweepDeposit } from "./sweep_deposit.ts";

/** Every task the worker runs, by name; each lives in its own file in this folder. */
export function createTaskList(deps: WorkerDeps): TaskList {
  return {
    [TASK.sendEmail]: sendEmail(deps),
    [TASK.reconcileDeposit]: reconcileDeposit(deps),
    [TASK.reconcileAll]: reconcileAll(deps),
    [TASK.deliverWebhook]: deliverWebhook(deps),
    [TASK.sweepDeposit]: sweepDeposit(deps),
    [TASK.relayAuthorization]: relayAuthorization(deps),
    [TASK.checkSweep]: checkSweep(deps),
    [TASK.provisionManagedWallets]: provisionManagedWallets(deps),
    [TASK.submitRefund]: submitRefund(deps),
    [TASK.checkRefund]: checkRefund(deps),
    [TASK.submitPayout]: submitPayout(deps),
    [TASK.checkPayout]: checkPayout(deps),
    [TASK.issueDueSchedules]: issueDueSchedules(deps),
    [TASK.issueSchedule]: issueSchedule(deps),
    [TASK.sendDueReminders]: sendDueReminders(deps),
    [TASK.renderPdf]: renderPdf(deps),
  };
}
