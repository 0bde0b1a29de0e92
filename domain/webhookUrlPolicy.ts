import { isIP } from "node:net";
import { isPrivateAddress } from "./privateAddress.ts";

/**
 * The rule a form states for a webhook URL, as this deployment applies it: https on a public
 * host, unless private webhooks are allowed (ALLOW_PRIVATE_WEBHOOKS, the local default), when
 * any http(s) URL is taken, loopback included, and the form says so.
 */
export function webhookUrlRule(allowPrivate: boolean): string {
  return allowPrivate
    ? "http or https, any host: this service allows loopback and private addresses (local development, ALLOW_PRIVATE_WEBHOOKS); in production only https on a public host is taken."
    : "https, on a public host (not a loopback, private or link-local address).";
}

/**
 * Why a webhook URL is refused in production, or null: the one policy, checked when an invoice
 * or link is created and again before every delivery. Literal hosts are judged here, in the
 * form the URL parser gives them (`[::ffff:127.0.0.1]` arrives as `[::ffff:7f00:1]`, `127.1`
 * as `127.0.0.1`); names are resolved and judged at every delivery, inside the connection, and
 * the connected peer is checked last (webhooks/postWebhook.ts).
 *
 * @example webhookUrlProblem("http://hooks.example.com/x") // "must use https"
 */
export function webhookUrlProblem(url: string): string | null {
  const target = new URL(url);
  if (target.protocol !== "https:") return "must use https";
  // A name may end with the root's dot: "localhost." is localhost.
  const host = target.hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "");
  if (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    (isIP(host) !== 0 && isPrivateAddress(host))
  ) {
    return "must not point at a loopback, private or link-local address";
  }
  return null;
}
