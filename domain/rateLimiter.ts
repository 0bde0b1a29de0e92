/** What a limiter answers for one request. */
export type RateDecision = {
  allowed: boolean;
  /** The budget: requests per minute, which is also the most a full bucket holds. */
  limit: number;
  /** Whole requests left in the bucket after this one. */
  remaining: number;
  /** Seconds until the next request would be allowed (0 when allowed). */
  retryAfterSeconds: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
};

/** `tokens` as of `at`; `placed`: when it was last moved to the end of the recency order. */
type Bucket = { tokens: number; at: number; placed: number };

/**
 * How stale a bucket's place in the recency order may get. Moving it on every request (a Map
 * delete and set) churned the Map's table at thousands of status polls a second; within this
 * window, the order is least recently used to the second.
 */
const RECENCY_MS = 1_000;

/**
 * A token bucket per key (a client IP): it holds at most `perMinute` requests and refills
 * continuously at `perMinute` per minute, so a client may burst a minute's budget and then
 * sustains the budget. A refused request costs nothing.
 *
 * Memory is bounded: past `maxKeys` keys, buckets that have refilled are dropped (a full
 * bucket is the same as none), then the least recently used ones. Dropping a partly drained
 * bucket only happens when more than `maxKeys` clients are active at once, and only forgives
 * their debt.
 *
 * Pure: the caller passes the clock (`now`, milliseconds), so tests replay hours in a loop.
 *
 * @example
 * const limiter = new RateLimiter({ perMinute: 60 });
 * limiter.take("203.0.113.7", Date.now()).allowed;
 */
export class RateLimiter {
  readonly perMinute: number;
  readonly maxKeys: number;
  // A Map iterates in insertion order: re-inserting on use (at most once per RECENCY_MS) keeps
  // it least-recently-used first.
  readonly #buckets = new Map<string, Bucket>();

  constructor({ perMinute, maxKeys = 100_000 }: { perMinute: number; maxKeys?: number }) {
    if (!Number.isInteger(perMinute) || perMinute < 1)
      throw new RangeError("perMinute must be a positive integer");
    if (!Number.isInteger(maxKeys) || maxKeys < 1)
      throw new RangeError("maxKeys must be a positive integer");
    this.perMinute = perMinute;
    this.maxKeys = maxKeys;
  }

  /** How many keys are held right now (for tests and metrics). */
  get size(): number {
    return this.#buckets.size;
  }

  /** Takes one request from `key`'s bucket, if it holds one. */
  take(key: string, now: number): RateDecision {
    const perMs = this.perMinute / 60_000;
    const held = this.#buckets.get(key);
    const tokens = held
      ? Math.min(this.perMinute, held.tokens + Math.max(0, now - held.at) * perMs)
      : this.perMinute;
    const allowed = tokens >= 1;
    const left = allowed ? tokens - 1 : tokens;
    if (!held) {
      this.#buckets.set(key, { tokens: left, at: now, placed: now });
      if (this.#buckets.size > this.maxKeys) this.#evict(now);
    } else {
      // In place: no new object per request, and the Map is only touched to keep the order.
      held.tokens = left;
      held.at = now;
      if (now - held.placed >= RECENCY_MS || now < held.placed) {
        held.placed = now;
        this.#buckets.delete(key);
        this.#buckets.set(key, held);
      }
    }
    return {
      allowed,
      limit: this.perMinute,
      remaining: Math.floor(left),
      retryAfterSeconds: allowed ? 0 : Math.ceil((1 - left) / perMs / 1000),
      resetSeconds: Math.ceil((this.perMinute - left) / perMs / 1000),
    };
  }

  // Evicts down to 90 % of maxKeys in one pass, so a flood of new keys costs O(1) amortised
  // per request instead of a scan each.
  #evict(now: number): void {
    const perMs = this.perMinute / 60_000;
    const target = Math.floor(this.maxKeys * 0.9);
    for (const [key, bucket] of this.#buckets) {
      if (bucket.tokens + (now - bucket.at) * perMs >= this.perMinute) this.#buckets.delete(key);
    }
    for (const key of this.#buckets.keys()) {
      if (this.#buckets.size <= target) break;
      this.#buckets.delete(key);
    }
  }
}
