/**
 * The webhook queue's slots shared fairly between merchants: at most `perMerchant` deliveries
 * of one merchant in flight at once, and `perEndpoint` to one endpoint (or webhook URL). A
 * merchant whose receivers hang holds at most its share; every other merchant's deliveries still
 * find a free slot. In memory, per worker process: each worker enforces its own share.
 *
 * @example
 * const slots = new DeliverySlots({ perMerchant: 4, perEndpoint: 2 });
 * const slot = slots.tryTake("merchant-1", "https://hooks.example/a");
 * if (slot) try { await post(); } finally { slot.release(); }
 */
export class DeliverySlots {
  readonly perMerchant: number;
  readonly perEndpoint: number;
  readonly #merchants = new Map<string, number>();
  readonly #endpoints = new Map<string, number>();

  constructor({ perMerchant, perEndpoint }: { perMerchant: number; perEndpoint: number }) {
    if (!Number.isInteger(perMerchant) || perMerchant < 1)
      throw new RangeError("perMerchant must be a positive integer");
    if (!Number.isInteger(perEndpoint) || perEndpoint < 1)
      throw new RangeError("perEndpoint must be a positive integer");
    this.perMerchant = perMerchant;
    this.perEndpoint = perEndpoint;
  }

  /** Deliveries in flight for `merchant` (for tests and metrics). */
  inFlight(merchant: string): number {
    return this.#merchants.get(merchant) ?? 0;
  }

  /**
   * A slot for one delivery, or null when the merchant or the endpoint holds its share already
   * (`endpointShare`: a smaller one, for an endpoint that keeps failing).
   * `release` gives it back (once; a second call does nothing).
   */
  tryTake(
    merchant: string,
    endpoint: string,
    endpointShare = this.perEndpoint,
  ): { release: () => void } | null {
    const byMerchant = this.#merchants.get(merchant) ?? 0;
    const byEndpoint = this.#endpoints.get(endpoint) ?? 0;
    if (byMerchant >= this.perMerchant || byEndpoint >= Math.min(endpointShare, this.perEndpoint))
      return null;
    this.#merchants.set(merchant, byMerchant + 1);
    this.#endpoints.set(endpoint, byEndpoint + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        decrement(this.#merchants, merchant);
        decrement(this.#endpoints, endpoint);
      },
    };
  }
}

/** One less for `key`; gone at zero, so the maps hold only who is in flight. */
function decrement(counts: Map<string, number>, key: string): void {
  const left = (counts.get(key) ?? 1) - 1;
  if (left <= 0) counts.delete(key);
  else counts.set(key, left);
}
