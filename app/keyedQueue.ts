/**
 * Runs tasks one at a time per key, in arrival order, within this process. Invoice creation
 * serialises per merchant anyway (gap-free numbers: the merchant's row stays locked until the
 * invoice commits); queueing here, before a database connection is taken, keeps a burst on
 * one merchant from holding every pooled connection while it waits on that row lock, which
 * starved the pool and answered 503 under load. Other merchants are not delayed.
 *
 * @example
 * const queue = createKeyedQueue();
 * await queue.run("merchant@example.com", () => createInTransaction());
 */
export function createKeyedQueue(): {
  run: <T>(key: string, task: () => Promise<T>) => Promise<T>;
  size: () => number;
} {
  const tails = new Map<string, Promise<unknown>>();
  return {
    run<T>(key: string, task: () => Promise<T>): Promise<T> {
      const previous = tails.get(key) ?? Promise.resolve();
      const result = previous.then(task, task);
      const tail = result.then(
        () => undefined,
        () => undefined,
      );
      tails.set(key, tail);
      // The last task of a key removes the key, so the map holds only keys with work queued.
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key);
      });
      return result;
    },
    size: () => tails.size,
  };
}
