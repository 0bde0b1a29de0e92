import net from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { MAX_BODY_BYTES } from "../../api/middleware/jsonBody.ts";
import { waitFor } from "../../internal/process.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { EVENT_MS } from "../helpers/waits.ts";

/** A raw connection to the API that records what it receives and when it is closed. */
async function connect(port: number) {
  const socket = net.connect(port, "127.0.0.1");
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  let received = "";
  let closedAt: number | null = null;
  const openedAt = performance.now();
  socket.setEncoding("latin1");
  socket.on("data", (chunk: string) => (received += chunk));
  // The server may close while we are still writing: that is the point.
  socket.on("error", () => {});
  socket.on("close", () => (closedAt = performance.now()));
  return {
    socket,
    received: () => received,
    /** Milliseconds from connecting until the server closed the connection. */
    closedAfter: () =>
      waitFor("the server to close the connection", async () => closedAt && closedAt - openedAt, {
        timeoutMs: EVENT_MS,
      }),
    /** Writes `text` one byte every `ms` until the connection closes. */
    trickle: (text: string, ms: number) => {
      let i = 0;
      const timer = setInterval(() => {
        if (socket.destroyed) return clearInterval(timer);
        socket.write(text[i++ % text.length] as string);
      }, ms);
      socket.once("close", () => clearInterval(timer));
    },
  };
}

describe("slow and oversized requests", () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({
      env: {
        HTTP_HEADERS_TIMEOUT_MS: "1000",
        HTTP_REQUEST_TIMEOUT_MS: "2000",
        HTTP_KEEP_ALIVE_TIMEOUT_MS: "500",
      },
    });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  test("headers trickled byte by byte are cut off after HTTP_HEADERS_TIMEOUT_MS with a 408", async () => {
    const client = await connect(stack.api.port);
    client.socket.write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    client.trickle("X-Slow: aaaaaaaaaaaaaaaaaaaa\r\n", 50);
    const closedAfter = await client.closedAfter();
    expect(closedAfter).toBeGreaterThanOrEqual(900);
    // The bound plus Node's check interval (a quarter of it) plus scheduling slack.
    expect(closedAfter).toBeLessThan(2500);
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  test("a body trickled byte by byte is cut off after HTTP_REQUEST_TIMEOUT_MS", async () => {
    const client = await connect(stack.api.port);
    client.socket.write(
      "POST /api/invoices HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n",
    );
    client.trickle('{"merchant_email": "aaaaaaaaaaaa', 50);
    const closedAfter = await client.closedAfter();
    expect(closedAfter).toBeGreaterThanOrEqual(1900);
    expect(closedAfter).toBeLessThan(4000);
    expect(client.received()).not.toMatch(/^HTTP\/1\.1 [25]/);
  });

  test("while slow clients hold connections, others are served at once; idle keep-alive is closed", async () => {
    const slow = await Promise.all(Array.from({ length: 50 }, () => connect(stack.api.port)));
    for (const client of slow) {
      client.socket.write("GET /health HTTP/1.1\r\n");
      client.trickle("X: y\r\n", 100);
    }
    const started = performance.now();
    const response = await stack.request("/api/payments/status/unknownslug1");
    expect(response.status).toBe(404);
    expect(performance.now() - started).toBeLessThan(1000);
    await Promise.all(slow.map((client) => client.closedAfter()));

    const idle = await connect(stack.api.port);
    idle.socket.write("GET /openapi.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    await waitFor("the answer", async () => idle.received().startsWith("HTTP/1.1 200"));
    const answeredAt = performance.now();
    await idle.closedAfter();
    // Closed after HTTP_KEEP_ALIVE_TIMEOUT_MS (500) of idleness, not Node's 5 s default.
    expect(performance.now() - answeredAt).toBeLessThan(2000);
  });

  test("a chunked body without Content-Length is refused once it passes 256 KiB", async () => {
    for (const path of ["/api/invoices", "/api/links"]) {
      const client = await connect(stack.api.port);
      client.socket.write(
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
      );
      const chunk = `{"x":"${"a".repeat(16 * 1024)}`;
      // 16 KiB chunks, far past the limit; the server answers (and closes) before the end.
      for (let i = 0; i < 40 && !client.socket.destroyed; i++) {
        client.socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
      }
      await client.closedAfter();
      const [head, body] = client.received().split("\r\n\r\n") as [string, string];
      expect(head).toMatch(/^HTTP\/1\.1 413 /);
      expect(head.toLowerCase()).toContain("connection: close");
      expect(body).toContain('"code":"payload_too_large"');
    }
  });

  test("a declared oversized body is refused before it is sent, on routes that take no body too", async () => {
    for (const path of [
      "/api/invoices",
      "/api/invoices/00000000-0000-4000-8000-000000000000/send",
    ]) {
      const client = await connect(stack.api.port);
      client.socket.write(
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${10 * 1024 * 1024}\r\n\r\n`,
      );
      await client.closedAfter();
      expect(client.received()).toMatch(/^HTTP\/1\.1 413 /);
      expect(client.received()).toContain(`at most ${MAX_BODY_BYTES} bytes`);
    }
  });
});
