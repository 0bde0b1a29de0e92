import { describe, expect, test } from "vitest";
import { formatUtc } from "./dates.ts";

describe("formatUtc", () => {
  test("shows UTC to the second, whatever the milliseconds", () => {
    expect(formatUtc(new Date("2026-11-23T18:42:29.999Z"))).toBe("2026-11-23 18:42:29");
    expect(formatUtc(new Date(Date.UTC(2026, 0, 2, 3, 4, 5)))).toBe("2026-01-02 03:04:05");
  });
});
