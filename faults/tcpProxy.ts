import net from "node:net";
import { freePort } from "../internal/freePort.ts";
import { trackProxiedPair } from "../internal/proxiedSockets.ts";

/**
 * A loopback TCP proxy that can be cut: the service reaches its RPC through it, so an "RPC
 * outage" (the provider down for the service) can be staged while the chain itself goes on
 * and payers keep paying, which is what an outage of a Base RPC looks like.
 */
export async function startTcpProxy(target: { host: string; port: number }) {
  const port = await freePort();
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const next = net.createServer((client) => {
        const upstream = net.connect(target.port, target.host);
        trackProxiedPair(sockets, client, upstream);
        client.pipe(upstream).pipe(client);
      });
      next.once("error", reject);
      next.listen(port, "127.0.0.1", () => {
        server = next;
        resolve();
      });
    });

  const cut = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      if (!server) return resolve();
      server.close(() => resolve());
      server = null;
    });

  await listen();
  return {
    url: `http://127.0.0.1:${port}`,
    /** Refuses every connection (and drops the open ones) until `restore`. */
    cut,
    restore: listen,
    stop: cut,
  };
}
