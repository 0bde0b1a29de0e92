import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import type { Anvil } from "../../chain/anvil.ts";
import { DEV_ACCOUNT_USDC } from "../../domain/constants.ts";
import { freePort } from "../../internal/freePort.ts";
import { stopProcess, waitFor } from "../../internal/process.ts";
import { createChain, devAccount } from "../helpers/chain.ts";
import {
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
import { startUpstreamBase, upstreamWhale } from "../helpers/upstreamBase.ts";
import { startWebhookReceiver } from "../helpers/webhookReceiver.ts";

type Json = Record<string, unknown>;

/** Resolves once graphile-worker's queue is empty: every job run, none due later. */
async function waitForIdleQueue(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on("error", () => {});
  await client.connect();
  try {
    await waitFor("the job queue to drain", async () => {
      const { rows } = await client.query<{ n: number }>(
        "select count(*)::int as n from graphile_worker.jobs",
      );
      return rows[0]?.n === 0;
    });
  } finally {
    await client.end().catch(() => {});
  }
}

let dir: string;
let upstream: Anvil;
let service: Service | undefined;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "remit-fork-"));
  // Anvil A plays Base: Circle's USDC, the dev accounts' USDC held by a whale.
  upstream = await startUpstreamBase({
    genesisFile: inject("usdcGenesisFile"),
    dataDir: path.join(dir, "upstream"),
    port: await freePort(),
    blockTime: 0,
    emptyDevAccounts: true,
  });
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  if (service) await stopProcess(service.child, "SIGKILL");
  await receiver?.stop();
  await upstream?.stop();
  await rm(dir, { recursive: true, force: true });
});

test("npm start in fork mode: funded from the whale, an invoice paid with its webhook, the fork resumed", async () => {
  const { env: ports, apiUrl } = await privatePorts();
  const env = {
    ...ports,
    DATA_DIR: path.join(dir, "service"),
    BASE_FORK_URL: upstream.url,
    USDC_WHALE: upstreamWhale.address,
  };
  const forkBlock = Number(await createChain(upstream.url).client.getBlockNumber());
  service = startService(env);
  await waitForLine(service, /healthy in/);
  expect(service.output()).toContain(
    `forked at block ${forkBlock}; funded the dev accounts with 10000000 USDC from USDC_WHALE ${upstreamWhale.address}`,
  );
  // The indexer starts at the fork point, not at block 0 of the upstream's history.
  expect(service.output()).toMatch(new RegExp(`"mode":"fork",.*"start_block":${forkBlock},`));

  const fork = createChain(`http://127.0.0.1:${env.ANVIL_PORT}`);
  const upstreamChain = createChain(upstream.url);
  const payer = devAccount(1);
  expect(await upstreamChain.usdcBalance(payer.address)).toBe(0n);
  expect(await fork.usdcBalance(payer.address)).toBe(DEV_ACCOUNT_USDC);

  const invoice = await createInvoiceOn(apiUrl, receiver.url);
  const paid = await fork.payUsdc(payer, invoice.deposit_address, 150_000_000n);
  const status = await waitForInvoiceStatus(apiUrl, invoice.invoice_id, "paid");
  expect(status).toMatchObject({ paid_amount: "150.00", tx_hash: paid.transactionHash });
  await expectPaidWebhook(receiver.received, invoice, paid.transactionHash);
  // The payment happened on the fork only; the upstream never saw it.
  expect(await upstreamChain.usdcBalance(invoice.deposit_address)).toBe(0n);

  service.child.kill("SIGINT");
  expect(await exitCode(service)).toBe(0);
  if (process.env.DEBUG_STACK) console.log(service.output());

  // Started again, the same fork resumes: the payment is still there, nobody is funded twice.
  service = startService(env);
  await waitForLine(service, /healthy in/);
  expect(service.output()).toContain(`resuming the fork made at block ${forkBlock}`);
  expect(service.output()).not.toContain("funded the dev accounts");
  expect(await waitForInvoiceStatus(apiUrl, invoice.invoice_id, "paid")).toMatchObject({
    tx_hash: paid.transactionHash,
  });
  // Nothing sent twice: counted once the restarted indexer has replayed its last blocks (a
  // later payment's webhook is in) and the worker has run whatever that queued.
  const witness = await createInvoiceOn(apiUrl, receiver.url);
  const witnessPaid = await fork.payUsdc(payer, witness.deposit_address, 150_000_000n);
  await expectPaidWebhook(receiver.received, witness, witnessPaid.transactionHash);
  await waitForIdleQueue(`postgres://postgres:postgres@127.0.0.1:${ports.EMBEDDED_PG_PORT}/remit`);
  const hooksOf = (id: string) =>
    receiver.received.filter((hook) => (JSON.parse(hook.body) as Json).invoice_id === id);
  expect(hooksOf(invoice.invoice_id)).toHaveLength(1);
  expect(hooksOf(witness.invoice_id)).toHaveLength(1);
  service.child.kill("SIGINT");
  expect(await exitCode(service)).toBe(0);
  if (process.env.DEBUG_STACK) console.log(service.output());
}, 240_000);
