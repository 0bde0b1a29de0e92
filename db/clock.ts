import type { Executor } from "./database.ts";
import { readClockOffset } from "./queries/testClock.ts";

/**
 * The one clock the scheduler and the reminders read (docs/development.md, "The test clock").
 * In production it is the system's. With TEST_CLOCK=on (refused on a real chain by
 * internal/env.ts) it is the system's plus an offset stored in the database, which only
 * something with the database itself can set: tests move every process's time at once,
 * through months, without sleeping. No HTTP route reads or writes it.
 */
export type Clock = {
  /** The current moment. */
  now(): Promise<Date>;
  /** Today's date in UTC, YYYY-MM-DD. */
  today(): Promise<string>;
};

const todayOf = (moment: Date) => moment.toISOString().slice(0, 10);

export const systemClock: Clock = {
  now: async () => new Date(),
  today: async () => todayOf(new Date()),
};

/** The system's time plus the test clock's offset, read afresh each time. */
export function testClock(db: Executor): Clock {
  const now = async () => new Date(Date.now() + (await readClockOffset(db)));
  return { now, today: async () => todayOf(await now()) };
}

/** The clock for TEST_CLOCK's value. */
export function clockFor(setting: "on" | "off", db: Executor): Clock {
  return setting === "on" ? testClock(db) : systemClock;
}
