import { createHmac } from "node:crypto";

/**
 * The API key of the local email capture (api/dev/outbox.ts): derived from the stack's
 * WEBHOOK_SECRET_KEY, which `npm start` gives the API and the worker and nothing else, so the
 * worker's SendGrid client holds it and any other local process does not. A fixed key would let
 * every program on the machine write into the outbox the merchant reads as Remit's mail.
 *
 * @example localCaptureKey("7e57…") // "SG.local-3f1c…"
 */
export function localCaptureKey(webhookSecretKey: string): string {
  const mac = createHmac("sha256", webhookSecretKey).update("remit local email capture").digest();
  return `SG.local-${mac.toString("base64url")}`;
}
