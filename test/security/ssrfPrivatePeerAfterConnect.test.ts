import { once } from "node:events";
import http from "node:http";
import net from "node:net";
import { afterEach, describe, expect, test } from "vitest";
import { refusePrivatePeer, WebhookRefused } from "../../webhooks/postWebhook.ts";

/**
 * A connection that ends at a private address by a path neither the URL policy nor the guarded
 * DNS lookup saw: the connected peer is checked last, before the request (headers, signature,
 * body) is written to it.
 */
describe("a webhook request whose connected peer is private", () => {
  const servers: net.Server[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await new Promise((done) => server.close(done));
  });

  test("is destroyed before a byte of it is written", async () => {
    const received: Buffer[] = [];
    const closed: Promise<unknown>[] = [];
    const server = net.createServer((socket) => {
      socket.on("data", (chunk) => received.push(chunk));
      closed.push(once(socket, "close"));
    });
    servers.push(server);
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const { port } = server.address() as net.AddressInfo;

    // The request postWebhook makes, with the guard attached the same way.
    const request = http.request({ host: "127.0.0.1", port, method: "POST", agent: false });
    request.on("socket", refusePrivatePeer);
    const failed = once(request, "error").then(([error]) => error);
    request.end('{"secret":"body"}');

    expect(await failed).toBeInstanceOf(WebhookRefused);
    await expect.poll(() => closed.length).toBe(1);
    await closed[0];
    expect(Buffer.concat(received).toString()).toBe("");
  });
});
