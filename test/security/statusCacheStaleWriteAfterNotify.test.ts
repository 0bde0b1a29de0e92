import { afterEach, describe, expect, test, vi } from "vitest";
import { StatusCache } from "../../api/payments/statusCache.ts";
import { EVENT_MS } from "../helpers/waits.ts";

/** A stand-in for pg.Client: connects at once, and lets the test deliver NOTIFYs. */
const pg = await vi.hoisted(async () => {
  const { EventEmitter } = await import("node:events");
  class FakeClient extends EventEmitter {
    static last: FakeClient | undefined;
    constructor() {
      super();
      FakeClient.last = this;
    }
    connect = async () => {};
    query = async () => ({ rows: [] });
    end = async () => {};
    notify(slug: string) {
      this.emit("notification", { channel: "remit_status", payload: slug });
    }
  }
  return { FakeClient };
});
vi.mock("pg", () => ({ default: { Client: pg.FakeClient } }));

const client = () => pg.FakeClient.last as InstanceType<typeof pg.FakeClient>;
const PAID = { status: "paid" };
const STALE = { status: "pending" };

/**
 * A status read races a payment: it reads "pending", the payment commits and its NOTIFY drops
 * the slug, then the read stores its "pending". Without a check, every checkout page polling
 * that slug would be told "pending" for up to the cache's 30 s.
 */
describe("a status read that an invalidation overtakes", () => {
  const caches: StatusCache[] = [];
  const startCache = async () => {
    const cache = new StatusCache("postgres://unused");
    caches.push(cache);
    await cache.start();
    return cache;
  };
  afterEach(async () => {
    for (const cache of caches.splice(0)) await cache.stop();
  });

  test("does not store its stale answer", async () => {
    const cache = await startCache();
    const generation = cache.generation(); // the read starts
    client().notify("slug-a"); // the payment's NOTIFY arrives
    cache.set("slug-a", STALE, generation); // the read's stale answer
    expect(cache.get("slug-a")).toBeUndefined();
  });

  test("nor when the listening connection was lost and regained meanwhile", async () => {
    const cache = await startCache();
    const generation = cache.generation();
    const lostClient = client();
    lostClient.emit("error", new Error("connection terminated"));
    await vi.waitFor(() => expect(client()).not.toBe(lostClient), { timeout: EVENT_MS });
    await vi.waitFor(() => {
      cache.set("probe", PAID, cache.generation());
      expect(cache.get("probe")).toEqual(PAID);
    });
    cache.set("slug-a", STALE, generation);
    expect(cache.get("slug-a")).toBeUndefined();
  });

  test("while a read nothing overtook is stored, and other slugs' invalidations do not matter", async () => {
    const cache = await startCache();
    const generation = cache.generation();
    client().notify("slug-b");
    cache.set("slug-a", PAID, generation);
    expect(cache.get("slug-a")).toEqual(PAID);
    client().notify("slug-a");
    expect(cache.get("slug-a")).toBeUndefined();
  });
});
