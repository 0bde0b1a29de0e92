import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import type { Anvil } from "../../chain/anvil.ts";
import { freePort } from "../../internal/freePort.ts";
import { stopProcess, waitFor } from "../../internal/process.ts";
import { createChain, devAccount } from "../helpers/chain.ts";
import { type SendGridStandIn, startSendGridStandIn } from "../helpers/sendGridStandIn.ts";
import {
  childPids,
  exitCode,
  privatePorts,
  type Service,
  startService,
  waitForLine,
} from "../helpers/service.ts";
import {
  createInvoiceOn,
  expectPaidWebhook,
  waitForInvoiceStatus,
} from "../helpers/serviceInvoice.ts";
import { mainnetSettings, startUpstreamBase } from "../helpers/upstreamBase.ts";
import { EVENT_MS } from "../helpers/waits.ts";
import { startWebhookReceiver } from "../helpers/webhookReceiver.ts";

let dir: string;
let upstream: Anvil | undefined;
let service: Service | undefined;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let sendGrid: SendGridStandIn;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "remit-rpc-restart-"));
  receiver = await startWebhookReceiver();
  sendGrid = await startSendGridStandIn(path.join(dir, "sendgrid"));
});
afterAll(async () => {
  if (service) await stopProcess(service.child, "SIGKILL");
  await receiver?.stop();
  await sendGrid?.stop();
  await upstream?.stop();
  await rm(dir, { recursive: true, force: true });
});

test("mainnet mode: the RPC is killed and restarted; the indexer recovers and detects a later payment", async () => {
  // A keeps its state in this directory: restarted on the same port, it is the same chain.
  const rpc = {
    genesisFile: inject("usdcGenesisFile"),
    dataDir: path.join(dir, "upstream"),
    port: await freePort(),
    blockTime: 1,
  };
  upstream = await startUpstreamBase(rpc);
  const chain = createChain(upstream.url);
  const { env: ports, apiUrl } = await privatePorts();
  service = startService({
    ...ports,
    DATA_DIR: path.join(dir, "service"),
    ...mainnetSettings(upstream.url, await chain.client.getBlockNumber(), sendGrid.apiUrl),
  });
  const running = service;
  await waitForLine(running, /healthy in/);
  const invoice = await createInvoiceOn(apiUrl, receiver.url);

  // Stopped as a node is for a restart (it keeps its chain, like Base does meanwhile).
  await upstream.stop();
  upstream = undefined;
  const health = async () =>
    (await fetch(`${apiUrl}/health`)).json() as Promise<{
      components: { chain: { ok: boolean }; indexer: { ok: boolean } };
    }>;
  await waitFor("health to report the chain down", async () => {
    const report = await health();
    return !report.components.chain.ok;
  });
  // The indexer meets the outage and keeps retrying (with growing delays) instead of exiting:
  // several retries over at least 5 s of outage.
  const outageFrom = Date.now();
  const retries = () => running.output().match(/Received JSON-RPC error/g)?.length ?? 0;
  await waitFor(
    "the indexer to retry through 5 s of outage",
    async () => retries() >= 3 && Date.now() - outageFrom >= 5_000,
    { timeoutMs: EVENT_MS, intervalMs: 200 },
  );

  upstream = await startUpstreamBase(rpc);
  const paid = await chain.payUsdc(devAccount(3), invoice.deposit_address, 150_000_000n);
  const status = await waitForInvoiceStatus(apiUrl, invoice.invoice_id, "paid");
  expect(status).toMatchObject({ paid_amount: "150.00", tx_hash: paid.transactionHash });
  await expectPaidWebhook(receiver.received, invoice, paid.transactionHash);
  await waitFor("health to recover", async () => (await fetch(`${apiUrl}/health`)).ok, {
    timeoutMs: EVENT_MS,
  });
  // It recovered by itself: no process of the service crashed or was restarted.
  for (const component of ["indexer", "api", "worker"])
    expect(childPids(running.output(), component), component).toHaveLength(1);
  expect(running.output()).not.toMatch(/exited unexpectedly/);

  running.child.kill("SIGINT");
  expect(await exitCode(running)).toBe(0);
}, 180_000);
