import type net from "node:net";

/** Keeps a proxied pair in `sockets` while open; an error on either side ends both. */
export function trackProxiedPair(
  sockets: Set<net.Socket>,
  client: net.Socket,
  upstream: net.Socket,
): void {
  for (const socket of [client, upstream]) {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {
      client.destroy();
      upstream.destroy();
    });
  }
}
