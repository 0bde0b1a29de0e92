import net from "node:net";
import { freePort } from "../../internal/freePort.ts";
import { trackProxiedPair } from "../../internal/proxiedSockets.ts";
import { throughPort } from "./pgBouncer.ts";

/** The protocol version of a StartupMessage (3.0); an SSL or GSS request carries another code. */
const PROTOCOL_3 = 196_608;

/** The SQL of a simple query ('Q') or of a statement being prepared ('P'), else null. */
function statementText(type: number, body: Buffer): string | null {
  if (type === 0x51) return body.toString("utf8", 0, body.indexOf(0));
  if (type === 0x50) {
    const query = body.indexOf(0) + 1; // after the statement's name
    return body.toString("utf8", query, body.indexOf(0, query));
  }
  return null;
}

/**
 * A loopback proxy to Postgres that can make a transaction fail at its COMMIT. Told to
 * (`dropCommitAfter`), the first connection that then sends a statement matching the pattern
 * has its next COMMIT withheld and is dropped, so the server rolls the transaction back and the
 * client sees its COMMIT fail, as when the network or the server goes away at that moment. Until
 * then, and after, everything passes through untouched.
 */
export async function startCommitDroppingProxy(databaseUrl: string) {
  const target = new URL(databaseUrl);
  const port = await freePort();
  const sockets = new Set<net.Socket>();
  let armedBy: RegExp | null = null;
  let dropped = 0;

  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    trackProxiedPair(sockets, client, upstream);
    upstream.pipe(client);
    // The client's bytes, read message by message: untyped until the StartupMessage.
    let pending = Buffer.alloc(0);
    let started = false;
    let armed = false;
    client.on("data", (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        const header = started ? 5 : 4;
        if (pending.length < header) return;
        const length = pending.readInt32BE(started ? 1 : 0) + (started ? 1 : 0);
        if (pending.length < length) return;
        const message = pending.subarray(0, length);
        pending = pending.subarray(length);
        if (!started) {
          started = message.length >= 8 && message.readInt32BE(4) === PROTOCOL_3;
        } else {
          const text = statementText(message[0] as number, message.subarray(5));
          if (text !== null && armedBy?.test(text)) armed = true;
          if (text !== null && armed && armedBy && /^\s*commit\b/i.test(text)) {
            armedBy = null;
            dropped++;
            client.destroy();
            upstream.destroy();
            return;
          }
        }
        upstream.write(message);
      }
    });
    client.on("end", () => upstream.end());
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return {
    /** `databaseUrl`, reached through the proxy. */
    url: throughPort(databaseUrl, port),
    /** The next COMMIT of a connection that sent a statement matching `pattern` fails. */
    dropCommitAfter: (pattern: RegExp) => {
      armedBy = pattern;
    },
    /** How many COMMITs were dropped so far. */
    dropped: () => dropped,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
