/** Webhook retries keep going for at least this long after the first attempt: 72 hours. */
export const WEBHOOK_RETRY_WINDOW_MS = 72 * 60 * 60 * 1000;
const MAX_DELAY_MS = 6 * 60 * 60 * 1000;

/**
 * Delay before retry number `attempt` (1 = the first retry): exponential from `baseMs`,
 * capped at 6 h, with ±50 % jitter so receivers coming back up are not hit by every sender at
 * once. `random` is injectable for tests.
 */
export function retryDelay(
  attempt: number,
  baseMs: number,
  random: () => number = Math.random,
): number {
  const exponential = Math.min(MAX_DELAY_MS, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exponential * (0.5 + random()));
}

/** Whether another attempt is due: always inside the window, never after it. */
export const shouldRetry = (firstAttemptAt: Date, now: Date): boolean =>
  now.getTime() - firstAttemptAt.getTime() < WEBHOOK_RETRY_WINDOW_MS;
