import http from "node:http";
import { freePort } from "../../internal/freePort.ts";

/** One JSON-RPC call as it reached the proxy. */
export type RpcCall = { method: string; params: unknown[] };

type Request = RpcCall & { id?: unknown };

/**
 * A JSON-RPC pass-through to `upstream` that records every call it is sent (each call of a
 * batch too), so that a test counts what the service asks of its RPC: `calls("eth_blockNumber")`,
 * or `calls((call) => …)`. `refuse(rule)` makes it answer a single call itself with a JSON-RPC
 * error whenever `rule` returns a message (an RPC out of credit, say), the call still counted;
 * `refuse(undefined)` passes everything on again. `hold(rule)` keeps a request with a call the rule
 * matches unanswered (an RPC that is very slow for them) until the function it returns is
 * called; Ponder gives up on one after 10 s and asks again, held the same.
 */
export async function startCountingRpc(upstream: string) {
  const received: RpcCall[] = [];
  let refusal: ((call: RpcCall) => string | undefined) | undefined;
  let holding: { rule: (call: RpcCall) => boolean; released: Promise<void> } | undefined;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", async () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const parsed = JSON.parse(body) as Request | Request[];
      for (const call of [parsed].flat())
        received.push({ method: call.method, params: call.params ?? [] });
      const held = holding;
      if (held && [parsed].flat().some((call) => held.rule(call))) await held.released;
      const single = Array.isArray(parsed) ? undefined : parsed;
      const refused = single && refusal?.(single);
      if (single && refused !== undefined) {
        response.writeHead(200, { "content-type": "application/json" });
        const error = { code: -32005, message: refused };
        response.end(JSON.stringify({ jsonrpc: "2.0", id: single.id, error }));
        return;
      }
      try {
        const answer = await fetch(upstream, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
        });
        response.writeHead(answer.status, { "content-type": "application/json" });
        response.end(await answer.text());
      } catch {
        response.writeHead(502).end();
      }
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    /** How many calls of this method, or matching this predicate, have reached the proxy. */
    calls: (match: string | ((call: RpcCall) => boolean)) =>
      received.filter((call) => (typeof match === "string" ? call.method === match : match(call)))
        .length,
    refuse: (rule: ((call: RpcCall) => string | undefined) | undefined) => {
      refusal = rule;
    },
    hold: (rule: (call: RpcCall) => boolean): (() => void) => {
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      holding = { rule, released };
      return () => {
        holding = undefined;
        release();
      };
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
