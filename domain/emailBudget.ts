/**
 * The budget of email a merchant may have Remit send to addresses that are not its own (its
 * account email and its verified notice address): vendors' invoices and reminders, a new notice
 * address's verification link. Without one, an account (open sign-up makes one for anybody) turns
 * Remit into a mail cannon aimed at strangers, on Remit's sender reputation.
 */
export type EmailBudget = {
  /** Emails to others per merchant in any rolling hour (EMAILS_TO_OTHERS_PER_HOUR). */
  perHour: number;
  /** Emails to others per merchant in any rolling 24 hours (EMAILS_TO_OTHERS_PER_DAY). */
  perDay: number;
};

/** Verification links to one candidate notice address per hour, as claim links are capped. */
export const NOTICE_VERIFICATIONS_PER_ADDRESS_PER_HOUR = 3;

export type EmailBudgetVerdict =
  | { allowed: true }
  | { allowed: false; window: "hour" | "day"; limit: number; retryAfterSeconds: number };

const HOUR_S = 3600;
const DAY_S = 86_400;

/**
 * Whether one more email to another address fits, given what was queued in the last hour and
 * day and how long ago the oldest of each was (seconds): over, the window that is full, its limit,
 * and when its oldest email leaves it. A limit of 0 is no limit.
 *
 * @example emailBudgetVerdict({ hour: 100, day: 120, oldestInHourAgo: 600, oldestInDayAgo: 9000 }, { perHour: 100, perDay: 500 })
 *   // { allowed: false, window: "hour", limit: 100, retryAfterSeconds: 3000 }
 */
export function emailBudgetVerdict(
  sent: { hour: number; day: number; oldestInHourAgo: number; oldestInDayAgo: number },
  budget: EmailBudget,
): EmailBudgetVerdict {
  return (
    windowFull("day", budget.perDay, sent.day, DAY_S, sent.oldestInDayAgo) ??
    windowFull("hour", budget.perHour, sent.hour, HOUR_S, sent.oldestInHourAgo) ?? {
      allowed: true,
    }
  );
}

/** One window's verdict when it is full (a limit of 0 is none): its limit, when its oldest leaves. */
function windowFull(
  window: "hour" | "day",
  limit: number,
  sent: number,
  windowSeconds: number,
  oldestAgo: number,
): EmailBudgetVerdict | undefined {
  if (limit > 0 && sent >= limit)
    return {
      allowed: false,
      window,
      limit,
      retryAfterSeconds: Math.max(1, Math.ceil(windowSeconds - oldestAgo)),
    };
  return undefined;
}

/** Whether `recipient` is one of the merchant's own addresses (case-insensitively). */
export const isOwnAddress = (recipient: string, own: readonly (string | null)[]): boolean =>
  own.some((address) => address !== null && address.toLowerCase() === recipient.toLowerCase());
