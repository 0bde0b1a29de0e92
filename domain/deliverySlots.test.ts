import { describe, expect, test } from "vitest";
import { DeliverySlots } from "./deliverySlots.ts";

describe("webhook delivery slots shared between merchants", () => {
  test("a merchant holds at most its share; another merchant still gets a slot", () => {
    const slots = new DeliverySlots({ perMerchant: 3, perEndpoint: 2 });
    const taken = Array.from({ length: 16 }, (_, i) => slots.tryTake("noisy", `https://h/${i}`));
    expect(taken.filter(Boolean)).toHaveLength(3);
    expect(slots.tryTake("quiet", "https://q/1")).not.toBeNull();
  });

  test("an endpoint holds at most its share, whichever merchant", () => {
    const slots = new DeliverySlots({ perMerchant: 10, perEndpoint: 2 });
    expect(slots.tryTake("m", "https://h/a")).not.toBeNull();
    expect(slots.tryTake("m", "https://h/a")).not.toBeNull();
    expect(slots.tryTake("m", "https://h/a")).toBeNull();
    expect(slots.tryTake("m", "https://h/b")).not.toBeNull();
  });

  test("a released slot is free again, and releasing twice frees one", () => {
    const slots = new DeliverySlots({ perMerchant: 1, perEndpoint: 1 });
    const slot = slots.tryTake("m", "e");
    expect(slots.tryTake("m", "e")).toBeNull();
    slot?.release();
    slot?.release();
    expect(slots.inFlight("m")).toBe(0);
    const again = slots.tryTake("m", "e");
    expect(again).not.toBeNull();
    expect(slots.tryTake("m", "f")).toBeNull();
  });

  test("shares below one are refused", () => {
    expect(() => new DeliverySlots({ perMerchant: 0, perEndpoint: 1 })).toThrow(RangeError);
    expect(() => new DeliverySlots({ perMerchant: 1, perEndpoint: 0.5 })).toThrow(RangeError);
  });
});

test("an endpoint that keeps failing gets a smaller share, never a larger one", () => {
  const slots = new DeliverySlots({ perMerchant: 10, perEndpoint: 2 });
  expect(slots.tryTake("m", "failing", 1)).not.toBeNull();
  expect(slots.tryTake("m", "failing", 1)).toBeNull();
  expect(slots.tryTake("m", "other", 5)).not.toBeNull();
  expect(slots.tryTake("m", "other", 5)).not.toBeNull();
  expect(slots.tryTake("m", "other", 5)).toBeNull();
});
