import { describe, expect, test } from "vitest";
import { createKeyedQueue } from "./keyedQueue.ts";

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
};

describe("createKeyedQueue", () => {
  test("runs one task at a time per key, in arrival order", async () => {
    const queue = createKeyedQueue();
    const order: string[] = [];
    const gate = deferred();
    const first = queue.run("a", async () => {
      order.push("a1 start");
      await gate.promise;
      order.push("a1 end");
    });
    const second = queue.run("a", async () => {
      order.push("a2");
    });
    await Promise.resolve();
    expect(order).toEqual(["a1 start"]);
    gate.resolve();
    await Promise.all([first, second]);
    expect(order).toEqual(["a1 start", "a1 end", "a2"]);
  });

  test("other keys are not delayed", async () => {
    const queue = createKeyedQueue();
    const gate = deferred();
    const blocked = queue.run("a", () => gate.promise);
    expect(await queue.run("b", async () => "b done")).toBe("b done");
    gate.resolve();
    await blocked;
  });

  test("a failing task rejects its caller only; the next one runs; keys are forgotten when idle", async () => {
    const queue = createKeyedQueue();
    const failed = queue.run("a", async () => {
      throw new Error("boom");
    });
    const next = queue.run("a", async () => 2);
    await expect(failed).rejects.toThrow("boom");
    expect(await next).toBe(2);
    await new Promise((resolve) => setImmediate(resolve));
    expect(queue.size()).toBe(0);
  });
});
