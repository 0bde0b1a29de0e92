import { describe, expect, test } from "vitest";
import { RecentIds } from "./recentIds.ts";

describe("RecentIds", () => {
  test("a row is given before only once it was given", () => {
    const given = new RecentIds();
    expect(given.givenBefore(["0x01-0"])).toBe(false);
    expect(given.givenBefore(["0x01-0"])).toBe(true);
    // One of several seen is enough: the whole write goes past the cache.
    expect(given.givenBefore(["0x02-0", "0x01-0"])).toBe(true);
    expect(given.givenBefore(["0x03-0"])).toBe(false);
  });

  test("keeps the newest `limit`, a repeated id counting as new", () => {
    const given = new RecentIds(2);
    given.givenBefore(["a"]);
    given.givenBefore(["b"]);
    given.givenBefore(["a"]); // a is now the newest
    given.givenBefore(["c"]); // b, the oldest, goes
    expect(given.givenBefore(["a"])).toBe(true);
    expect(given.givenBefore(["b"])).toBe(false);
  });
});
