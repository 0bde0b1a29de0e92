import { once } from "node:events";
import net from "node:net";
import { afterEach, describe, expect, test } from "vitest";
import { postWebhook, WebhookRefused } from "../../webhooks/postWebhook.ts";

/**
 * The bypass of the security review: `https://[::ffff:127.0.0.1]:PORT/` (written by the URL
 * parser as [::ffff:7f00:1]) is an IP literal, so no guarded DNS lookup judges it; a connection
 * error in the delivery log would then tell which internal ports are open.
 */
describe("a delivery to an IPv4-mapped loopback address", () => {
  const servers: net.Server[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await new Promise((done) => server.close(done));
  });

  test("is refused without connecting when private webhooks are not allowed", async () => {
    const peers: number[] = [];
    const server = net.createServer((socket) => {
      peers.push(socket.remotePort ?? 0);
      socket.destroy();
    });
    servers.push(server);
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const { port } = server.address() as net.AddressInfo;

    const delivery = postWebhook(
      `https://[::ffff:127.0.0.1]:${port}/`,
      "{}",
      {},
      {
        timeoutMs: 2_000,
        allowPrivate: false,
      },
    );
    await expect(delivery).rejects.toBeInstanceOf(WebhookRefused);
    // Connections are accepted in order: once a probe made after the refusal is accepted, any
    // connection the delivery made has been seen too.
    const probe = net.connect(port, "127.0.0.1");
    await once(probe, "connect");
    const probePort = probe.localPort;
    await expect.poll(() => peers.includes(probePort ?? -1)).toBe(true);
    probe.destroy();
    expect(peers).toEqual([probePort]);
  });
});
