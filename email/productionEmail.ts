import { type Env, EnvError } from "../internal/env.ts";

/**
 * Refuses, before anything starts, a real chain without a real email configuration: without
 * SENDGRID_API_KEY the emails had nowhere to go but the development capture, which holds every
 * invoice and its PDF; with the default sender (`…@remit.localhost`) no mail is delivered.
 */
export function requireProductionEmail(
  env: Pick<Env, "localChain" | "SENDGRID_API_KEY" | "EMAIL_FROM">,
): void {
  if (env.localChain) return;
  if (!env.SENDGRID_API_KEY)
    throw new EnvError(
      "SENDGRID_API_KEY is required with BASE_RPC_URL: invoices and payment emails go through SendGrid (the development email capture exists only on a local chain)",
    );
  if (/@[^>\s]*\.localhost>?\s*$/i.test(env.EMAIL_FROM.trim()))
    throw new EnvError(
      `EMAIL_FROM is required with BASE_RPC_URL: a sender on a domain you verified with SendGrid, such as "Acme Billing <billing@acme.example>" (not ${env.EMAIL_FROM})`,
    );
}
