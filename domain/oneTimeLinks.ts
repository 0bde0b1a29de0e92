import { createHmac } from "node:crypto";

/**
 * When a one-time link (a claim link, a dashboard sign-in link) is emailed. New links are
 * capped per address and per (address, client): one client, however often it asks for someone
 * else's address, spends only its own share. Past a cap, the newest live link is emailed again
 * instead of a new one (or, when none has long enough left, a new one), at most once per
 * OVER_CAP_INTERVAL_MINUTES per address: the owner asking always finds a working link in its
 * inbox within minutes, and the mail a flood causes stays bounded
 * (PER_EMAIL_PER_HOUR + 60 / OVER_CAP_INTERVAL_MINUTES an hour).
 */

/** How long a one-time link works. */
export const ONE_TIME_LINK_TTL_MINUTES = 30;
/** New links of one purpose to one address per hour, whoever asks. */
export const ONE_TIME_LINKS_PER_EMAIL_PER_HOUR = 5;
/** New links of one purpose to one address per hour at one client's request. */
export const ONE_TIME_LINKS_PER_CLIENT_PER_HOUR = 3;
/** Past a cap: at most one email per address and purpose this often. */
export const OVER_CAP_INTERVAL_MINUTES = 5;
/**
 * A link emailed again still works at least this long: with one over-cap email per interval, a
 * withheld request finds in its inbox a link sent under OVER_CAP_INTERVAL_MINUTES ago that
 * works for at least this minus that.
 */
export const RESENT_LINK_MIN_MINUTES_LEFT = 15;

export type OneTimeLinkDecision =
  /** A new link, under both caps. */
  | "new"
  /** Over a cap: the newest live link again. */
  | "resend"
  /** Over a cap and no link with long enough left: a new one, as the over-cap email. */
  | "new_over_cap"
  /** Over a cap, and an over-cap email went out moments ago (it carries a working link). */
  | "withheld";

export function decideOneTimeLink(state: {
  sentToAddress: number;
  sentForClient: number;
  overCapSentRecently: boolean;
  liveLink: boolean;
}): OneTimeLinkDecision {
  if (
    state.sentToAddress < ONE_TIME_LINKS_PER_EMAIL_PER_HOUR &&
    state.sentForClient < ONE_TIME_LINKS_PER_CLIENT_PER_HOUR
  )
    return "new";
  if (state.overCapSentRecently) return "withheld";
  return state.liveLink ? "resend" : "new_over_cap";
}

/**
 * The client's address as stored for counting: an HMAC under a server key, since a bare hash
 * of an IPv4 address is reversed by hashing all four billion.
 */
export const clientHashOf = (client: string, key: Buffer): string =>
  createHmac("sha256", key).update("remit one-time link client\0").update(client).digest("hex");
