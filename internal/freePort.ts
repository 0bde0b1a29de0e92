import net from "node:net";

/**
 * Ports this process already handed out: one not yet listened on looks free to the kernel, which
 * may offer it again to the next caller (a benchmark once gave its API's port to its own
 * embedded Postgres, started before the API: EADDRINUSE).
 */
const handedOut = new Set<number>();

function unusedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === "object") resolve(address.port);
        else reject(new Error("could not determine a free port"));
      });
    });
  });
}

/** A TCP port on loopback that nothing listens on right now, never one given out before. */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await unusedPort();
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    return port;
  }
}
