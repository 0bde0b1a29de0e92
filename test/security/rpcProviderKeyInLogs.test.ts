import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import type { Anvil } from "../../chain/anvil.ts";
import { freePort } from "../../internal/freePort.ts";
import { stopProcess } from "../../internal/process.ts";
import { createChain, devAccount } from "../helpers/chain.ts";
import { type SendGridStandIn, startSendGridStandIn } from "../helpers/sendGridStandIn.ts";
import {
  exitCode,
  privatePorts,
  type Service,
  startService,
  waitForLine,
} from "../helpers/service.ts";
import { createInvoiceOn, waitForInvoiceStatus } from "../helpers/serviceInvoice.ts";
import { mainnetSettings, startUpstreamBase } from "../helpers/upstreamBase.ts";

/**
 * The attack: hosted RPCs carry their API key in the URL (`…/v2/<key>`), and it reached the logs
 * inside viem's error messages (`URL: …`) and Ponder's stack traces, where anyone who reads the
 * logs (a log service, a support ticket) could take it and spend the operator's RPC plan.
 *
 * A stand-in for a hosted provider (outside this machine in production) in front of anvil A: it
 * serves JSON-RPC at `/v2/<key>?apikey=<key>` and can be made to fail chosen methods, so the
 * indexer's and the worker's requests fail and are logged. The key appears in no line.
 */
const PATH_KEY = "k3yInThePath0123456789abcdefABCD";
const QUERY_KEY = "k3yInTheQuery9876543210zyxwvuZYX";

/** A JSON-RPC provider forwarding to `upstream`, answering 500 to the methods in `failing`. */
async function startProvider(upstream: string) {
  const failing = new Set<string>();
  const server: Server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", async () => {
      if (!request.url?.startsWith(`/v2/${PATH_KEY}?apikey=${QUERY_KEY}`)) {
        response.writeHead(401).end("bad key");
        return;
      }
      const calls = [JSON.parse(body)].flat() as { method: string }[];
      if (calls.some((call) => failing.has(call.method) || failing.has("*"))) {
        response.writeHead(500, { "content-type": "text/plain" }).end("provider unavailable");
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
        response.writeHead(502).end("upstream unreachable");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v2/${PATH_KEY}?apikey=${QUERY_KEY}`,
    origin: `http://127.0.0.1:${port}`,
    failing,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

let dir: string;
let upstream: Anvil | undefined;
let provider: Awaited<ReturnType<typeof startProvider>>;
let sendGrid: SendGridStandIn;
let service: Service | undefined;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "remit-rpc-key-"));
  upstream = await startUpstreamBase({
    genesisFile: inject("usdcGenesisFile"),
    dataDir: path.join(dir, "upstream"),
    port: await freePort(),
    blockTime: 1,
  });
  provider = await startProvider(upstream.url);
  sendGrid = await startSendGridStandIn(path.join(dir, "sendgrid"));
});
afterAll(async () => {
  if (service) await stopProcess(service.child, "SIGKILL");
  await provider?.stop();
  await sendGrid?.stop();
  await upstream?.stop();
  await rm(dir, { recursive: true, force: true });
});

test("an RPC URL's key appears in no log line, however its requests fail", async () => {
  const chain = createChain((upstream as Anvil).url);
  const { env: ports, apiUrl } = await privatePorts();
  service = startService({
    ...ports,
    DATA_DIR: path.join(dir, "service"),
    LOG_LEVEL: "debug",
    ...mainnetSettings(provider.url, await chain.client.getBlockNumber(), sendGrid.apiUrl),
  });
  const running = service;
  await waitForLine(running, /healthy in/);

  // The provider fails everything for a while: the indexer's polls fail and are logged.
  provider.failing.add("*");
  await waitForLine(running, /Received JSON-RPC error/, 60_000);
  provider.failing.clear();

  // A payment the indexer sees, whose sweep the provider then refuses: the worker's viem errors
  // (simulation, sending) are logged by graphile-worker with the job.
  for (const method of ["eth_call", "eth_estimateGas", "eth_sendRawTransaction"])
    provider.failing.add(method);
  const invoice = await createInvoiceOn(apiUrl, "http://127.0.0.1:9/hooks");
  await chain.payUsdc(devAccount(3), invoice.deposit_address, 150_000_000n);
  await waitForInvoiceStatus(apiUrl, invoice.invoice_id, "paid");
  await waitForLine(running, /"level":"error".*"task":"sweep_deposit"/, 60_000);

  const output = running.output();
  // The failures were logged, with the provider's host, never its key.
  expect(output).toContain(`${provider.origin}/…`);
  for (const key of [PATH_KEY, QUERY_KEY]) {
    const leaks = output.split("\n").filter((line) => line.includes(key));
    expect(leaks, leaks.slice(0, 3).join("\n")).toEqual([]);
  }
  running.child.kill("SIGINT");
  expect(await exitCode(running)).toBe(0);
}, 180_000);
