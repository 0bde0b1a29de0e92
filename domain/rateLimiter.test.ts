import { describe, expect, test } from "vitest";
import { RateLimiter } from "./rateLimiter.ts";

describe("RateLimiter", () => {
  test("a client may burst a minute's budget, then waits for the refill", () => {
    const limiter = new RateLimiter({ perMinute: 60 });
    for (let i = 0; i < 60; i++) expect(limiter.take("a", 0).allowed).toBe(true);
    const refused = limiter.take("a", 0);
    expect(refused).toMatchObject({ allowed: false, limit: 60, remaining: 0 });
    expect(refused.retryAfterSeconds).toBe(1);
    expect(refused.resetSeconds).toBe(60);
    expect(limiter.take("a", 999).allowed).toBe(false);
    expect(limiter.take("a", 1000).allowed).toBe(true);
  });

  test("a refused request costs nothing, and clients do not share a bucket", () => {
    const limiter = new RateLimiter({ perMinute: 2 });
    limiter.take("a", 0);
    limiter.take("a", 0);
    for (let i = 0; i < 100; i++) expect(limiter.take("a", 0).allowed).toBe(false);
    expect(limiter.take("a", 30_000).allowed).toBe(true);
    expect(limiter.take("b", 0).allowed).toBe(true);
  });

  test("Retry-After is exact enough to be obeyed: the request at that moment passes", () => {
    const limiter = new RateLimiter({ perMinute: 7 });
    for (let i = 0; i < 7; i++) limiter.take("a", 0);
    const { retryAfterSeconds } = limiter.take("a", 0);
    expect(retryAfterSeconds).toBe(9); // 60 / 7 = 8.57 s, rounded up
    expect(limiter.take("a", retryAfterSeconds * 1000).allowed).toBe(true);
  });

  test("sustained use at the budget is never refused", () => {
    const limiter = new RateLimiter({ perMinute: 120 });
    for (let t = 0; t < 3_600_000; t += 500) expect(limiter.take("a", t).allowed).toBe(true);
  });

  test("memory stays bounded: refilled buckets go first, then the least recently used", () => {
    const limiter = new RateLimiter({ perMinute: 10, maxKeys: 1000 });
    for (let i = 0; i < 999; i++) limiter.take(`old-${i}`, 0);
    for (let i = 0; i < 10; i++) limiter.take("drained", 59_000);
    // At 60 s every old bucket has refilled: the first new client past the bound evicts them
    // all, and the drained one (10 requests a second ago) is kept.
    limiter.take("new-0", 60_000);
    limiter.take("new-1", 60_000);
    expect(limiter.size).toBe(3);
    expect(limiter.take("drained", 60_000).allowed).toBe(false);
    // A flood of new clients pushes even recent buckets out, least recently used first.
    for (let i = 0; i < 50_000; i++) limiter.take(`flood-${i}`, 60_000);
    expect(limiter.size).toBeLessThanOrEqual(1000);
    expect(limiter.take("flood-49999", 60_000).remaining).toBe(8);
  });

  test("a bucket used again moves behind the others, its place updated at most once a second", () => {
    const limiter = new RateLimiter({ perMinute: 10, maxKeys: 3 });
    for (const key of ["a", "b", "c"]) limiter.take(key, 0);
    limiter.take("a", 1_000);
    // A fourth client evicts down to 2 (none has refilled): b and c were used least recently.
    limiter.take("d", 1_000);
    expect(limiter.size).toBe(2);
    expect(limiter.take("a", 1_000).remaining).toBe(7);
    expect(limiter.take("b", 1_000).remaining).toBe(9);
    // Within the second its place is not moved: used again at 500 ms, "x" still goes first.
    const within = new RateLimiter({ perMinute: 10, maxKeys: 3 });
    for (const key of ["x", "y", "w"]) within.take(key, 0);
    within.take("x", 500);
    within.take("z", 500);
    expect(within.size).toBe(2);
    expect(within.take("w", 500).remaining).toBe(8);
    // "x" was dropped (a full bucket again), its debt forgiven.
    expect(within.take("x", 500).remaining).toBe(9);
  });

  /** Each page polls every 5 s at its own phase; returns how many polls were refused. */
  const poll = (limiter: RateLimiter, pages: number, key: (page: number) => string) => {
    const phases = Array.from({ length: pages }, (_, page) => ({ page, at: (page * 7919) % 5000 }));
    phases.sort((a, b) => a.at - b.at);
    let refused = 0;
    for (let round = 0; round < 120; round++) {
      for (const { page, at } of phases) {
        if (!limiter.take(key(page), round * 5000 + at).allowed) refused++;
      }
    }
    return refused;
  };

  test("10,000 hosted pages polling every 5 s for 10 minutes: never a 429", () => {
    const limiter = new RateLimiter({ perMinute: 600 });
    expect(poll(limiter, 10_000, (page) => `page-${page}`)).toBe(0);
    expect(limiter.size).toBe(10_000);
  });

  test("a whole office behind one NAT: 50 open pages at 12 polls a minute fit the budget", () => {
    expect(poll(new RateLimiter({ perMinute: 600 }), 50, () => "office")).toBe(0);
    // Twice as many drain the bucket within about a minute.
    expect(poll(new RateLimiter({ perMinute: 600 }), 100, () => "office")).toBeGreaterThan(0);
  });

  test("refuses a budget that is not a positive integer", () => {
    expect(() => new RateLimiter({ perMinute: 0 })).toThrow(RangeError);
    expect(() => new RateLimiter({ perMinute: 1.5 })).toThrow(RangeError);
  });
});
