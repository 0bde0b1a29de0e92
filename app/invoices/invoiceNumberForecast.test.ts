import { describe, expect, test } from "vitest";
import { createNumberForecasts } from "./invoiceNumberForecast.ts";

describe("invoice number forecasts", () => {
  test("a burst expects consecutive numbers after the stored one, read once", async () => {
    const reads: string[] = [];
    const forecasts = createNumberForecasts(async (email) => {
      reads.push(email);
      return 4;
    });
    const burst = [1, 2, 3].map(() => forecasts.take("a@example.com"));
    expect(await Promise.all(burst.map((f) => f.expected))).toEqual([5, 6, 7]);
    expect(reads).toEqual(["a@example.com"]);
  });

  test("a creation ahead that fails: later arrivals expect the number it gave back", async () => {
    const forecasts = createNumberForecasts(async () => 4);
    const [first, second] = [forecasts.take("a"), forecasts.take("a")];
    first?.settle(null);
    // The second was forecast 6 but will take 5 (re-rendered); a new arrival expects 6.
    expect(await second?.expected).toBe(6);
    expect(await forecasts.take("a").expected).toBe(6);
  });

  test("commits teach the real number (another process created meanwhile)", async () => {
    const forecasts = createNumberForecasts(async () => 4);
    const first = forecasts.take("a");
    const second = forecasts.take("a");
    first.settle(9);
    expect(await forecasts.take("a").expected).toBe(11);
    second.settle(10);
  });

  test("merchants are forecast apart, and forgotten when idle (read again next time)", async () => {
    let stored = 0;
    const forecasts = createNumberForecasts(async () => stored);
    const a = forecasts.take("a");
    const b = forecasts.take("b");
    expect([await a.expected, await b.expected]).toEqual([1, 1]);
    a.settle(1);
    b.settle(1);
    a.settle(1); // settling twice counts once
    expect(forecasts.size()).toBe(0);
    stored = 41;
    expect(await forecasts.take("a").expected).toBe(42);
  });
});
