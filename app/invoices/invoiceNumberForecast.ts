/** A creation's forecast number, and how it ended. */
export type NumberForecast = {
  /** The number the creation should take, if every creation queued before it takes one. */
  expected: Promise<number>;
  /** Once its transaction ends: the number it committed, or null (failed, rolled back, replayed). */
  settle(committed: number | null): void;
};

/**
 * Forecasts the invoice number each creation will take, so its PDF, which prints the number,
 * can be rendered before the creating transaction instead of inside it. Take a forecast
 * synchronously right before queueing the creation on the merchant's queue (app/keyedQueue.ts),
 * so forecasts follow queue order: a creation expects the merchant's last committed number
 * (read once per burst, then learnt from commits) plus the creations queued ahead of it, plus one.
 * A forecast is only a guess: the transaction takes the real number under the merchant's row
 * lock, and re-renders should it differ (a creation ahead failed, or another API process
 * created for the same merchant).
 *
 * @example
 * const forecast = forecasts.take(email);
 * const pdf = render(await forecast.expected);
 */
export function createNumberForecasts(readLast: (merchantEmail: string) => Promise<number>) {
  const merchants = new Map<string, { last: Promise<number>; inFlight: number }>();
  return {
    take(merchantEmail: string): NumberForecast {
      let entry = merchants.get(merchantEmail);
      if (!entry) {
        entry = { last: readLast(merchantEmail), inFlight: 0 };
        merchants.set(merchantEmail, entry);
      }
      const current = entry;
      const ahead = current.inFlight++;
      let settled = false;
      return {
        expected: current.last.then((last) => last + ahead + 1),
        settle(committed) {
          if (settled) return;
          settled = true;
          if (committed !== null) current.last = Promise.resolve(committed);
          current.inFlight--;
          // Idle: the next burst reads the database again (other processes may have created).
          if (current.inFlight === 0 && merchants.get(merchantEmail) === current)
            merchants.delete(merchantEmail);
        },
      };
    },
    /** Merchants with creations in flight (for tests). */
    size: () => merchants.size,
  };
}
