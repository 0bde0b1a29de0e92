import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, test } from "vitest";
import { postWebhook, RESPONSE_BODY_CAP_BYTES } from "./postWebhook.ts";

/** A local receiver answering every request with `handler`; loopback, so allowPrivate. */
async function receiver(handler: http.RequestListener) {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
}
const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const post = (url: string, timeoutMs = 1_000) =>
  postWebhook(url, "{}", {}, { timeoutMs, allowPrivate: true });

describe("postWebhook: one deadline for the whole delivery, a capped read of the answer", () => {
  test("a 2xx with a short body resolves with its status", async () => {
    const url = await receiver((_, res) => res.writeHead(204).end());
    expect((await post(url)).statusCode).toBe(204);
  });

  test("a body that never ends is read up to the cap, then the socket is closed", async () => {
    let closed = false;
    const url = await receiver((_, res) => {
      res.writeHead(200);
      const chunk = Buffer.alloc(1024, "x");
      const timer = setInterval(() => res.write(chunk), 5);
      res.on("close", () => {
        clearInterval(timer);
        closed = true;
      });
    });
    const started = performance.now();
    expect((await post(url, 5_000)).statusCode).toBe(200);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(RESPONSE_BODY_CAP_BYTES).toBe(4096);
    await expect.poll(() => closed).toBe(true);
  });

  test("a 200 whose body trickles is cut at the deadline and fails", async () => {
    const url = await receiver((_, res) => {
      res.writeHead(200);
      res.write("o");
      const timer = setInterval(() => res.write("k"), 200);
      res.on("close", () => clearInterval(timer));
    });
    const started = performance.now();
    await expect(post(url, 800)).rejects.toThrow(/no complete response within 800 ms/);
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(790);
    expect(elapsed).toBeLessThan(1_500);
  });

  test("headers that never come are cut at the same deadline", async () => {
    const url = await receiver(() => {});
    await expect(post(url, 300)).rejects.toThrow(/no complete response within 300 ms/);
  });
});
