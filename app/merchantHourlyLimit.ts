import { secondsUntilWindowFrees } from "../domain/relayerBudget.ts";
import { RetryLaterError } from "./refusal.ts";

const HOUR_MS = 3_600_000;

/**
 * The refusal of one more of a merchant's `what` (refunds, payouts) past `limit` an hour: a
 * `rate_limited` whose wait is when the oldest of the hour leaves it (60 s when none is known).
 */
export function merchantHourlyLimitReached(
  what: string,
  limit: number,
  oldest: Date | null,
  now: Date,
): RetryLaterError {
  const wait = oldest ? secondsUntilWindowFrees(oldest, HOUR_MS, now) : 60;
  return new RetryLaterError(
    "rate_limited",
    "rate_limited",
    `at most ${limit} ${what} per merchant per hour; retry after ${wait} s`,
    wait,
  );
}
