import { isIP } from "node:net";
import { isPrivateAddress } from "./privateAddress.ts";

/**
 * Why a webhook URL is refused in production, or null: the one policy, checked when an invoice
 * or link is created and again before every delivery. Literal hosts are judged here; names are
 * resolved and judged at every delivery, inside the connection (webhooks/postWebhook.ts).
 *
 * @example webhookUrlProblem("http://hooks.example.com/x") // "must use https"
 */
export function webhookUrlProblem(url: string): string | null {
  const target = new URL(url);
  if (target.protocol !== "https:") return "must use https";
  const host = target.hostname.replace(/^\[|\]$/g, "");
  if (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    (isIP(host) !== 0 && isPrivateAddress(host))
  ) {
    return "must not point at a loopback, private or link-local address";
  }
  return null;
}
