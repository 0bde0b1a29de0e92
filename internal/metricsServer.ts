import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Registry } from "prom-client";
import { isOperationalRequestAllowed } from "./operationalAccess.ts";

export type MetricsServer = { port: number; close: () => Promise<void> };

/**
 * A minimal HTTP listener answering `GET /metrics` from `registry`, for a process that serves
 * nothing else (the worker). Like every operational endpoint it answers this machine itself, or
 * a request with `Authorization: Bearer <opsToken>`. Resolves once it listens; rejects if the
 * port is taken.
 */
export function startMetricsServer(options: {
  host: string;
  port: number;
  registry: Registry;
  opsToken?: string;
}): Promise<MetricsServer> {
  const server = createServer((request, response) => {
    if (request.method !== "GET" || request.url?.split("?")[0] !== "/metrics") {
      response.writeHead(404, { "Content-Type": "text/plain" }).end("not found: try /metrics\n");
      return;
    }
    const source = {
      peer: request.socket.remoteAddress,
      header: (name: string) => {
        const value = request.headers[name];
        return Array.isArray(value) ? value.join(",") : value;
      },
    };
    if (!isOperationalRequestAllowed(source, options.opsToken)) {
      response
        .writeHead(401, {
          "Content-Type": "text/plain",
          "WWW-Authenticate": 'Bearer realm="remit operations"',
        })
        .end(
          "operational endpoint: served to this machine, or with Authorization: Bearer <OPS_TOKEN>\n",
        );
      return;
    }
    options.registry.metrics().then(
      (text) => response.writeHead(200, { "Content-Type": options.registry.contentType }).end(text),
      (error: unknown) =>
        response.writeHead(500, { "Content-Type": "text/plain" }).end(`${String(error)}\n`),
    );
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
