import { webhookUrlProblem } from "../domain/webhookUrlPolicy.ts";
import type { CoreDeps } from "./deps.ts";
import { validationError } from "./refusal.ts";

/**
 * Refuses, as a 400 on `webhook_url` (or the field `path`), a webhook URL the policy does not
 * allow (http, or a private or loopback host), unless the deployment allows private webhooks
 * (local development).
 */
export function assertWebhookUrlAllowed(
  deps: Pick<CoreDeps, "allowPrivateWebhooks">,
  url: string | undefined,
  path = "webhook_url",
): void {
  if (!url || deps.allowPrivateWebhooks) return;
  const problem = webhookUrlProblem(url);
  if (problem) throw validationError([{ path, code: "webhook_url_not_allowed", message: problem }]);
}
