import { expect, test } from "vitest";
import { clockFor, systemClock } from "../../db/clock.ts";
import { EnvError, parseEnv } from "../../internal/env.ts";

/**
 * The test clock moves what schedules issue and when reminders go out: in production nobody may
 * turn it on. TEST_CLOCK is refused with a real chain (BASE_RPC_URL), off by default, and with it
 * off the clock never reads the stored offset (no database is even given to it here).
 */
test("TEST_CLOCK=on is refused on a real chain", () => {
  const mainnet = { BASE_RPC_URL: "https://base.example", START_BLOCK: "1" };
  expect(() => parseEnv({ ...mainnet, TEST_CLOCK: "on" })).toThrow(EnvError);
  expect(parseEnv(mainnet).TEST_CLOCK).toBe("off");
  expect(parseEnv({ TEST_CLOCK: "on" }).TEST_CLOCK).toBe("on");
});

test("with TEST_CLOCK off the clock is the system's and reads nothing stored", async () => {
  const clock = clockFor("off", undefined as never);
  expect(clock).toBe(systemClock);
  const before = Date.now();
  const now = (await clock.now()).getTime();
  expect(now).toBeGreaterThanOrEqual(before);
  expect(now).toBeLessThanOrEqual(Date.now());
});
