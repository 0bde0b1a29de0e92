import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { type Anvil, startAnvil } from "../../chain/anvil.ts";
import { freePort } from "../../internal/freePort.ts";
import { isAlive, stopProcess, waitFor } from "../../internal/process.ts";
import { DEPOSIT_ACCOUNT, deriveAccount } from "../../keys/hdWallet.ts";
import { createChain, devAccount } from "../helpers/chain.ts";
import { type SendGridStandIn, startSendGridStandIn } from "../helpers/sendGridStandIn.ts";
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
import { mainnetSettings, startUpstreamBase } from "../helpers/upstreamBase.ts";
import { startWebhookReceiver } from "../helpers/webhookReceiver.ts";

describe("npm start in mainnet mode (BASE_RPC_URL), anvil A playing Base", () => {
  let dir: string;
  let upstream: Anvil;
  const services: Service[] = [];
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let sendGrid: SendGridStandIn;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "remit-mainnet-"));
    upstream = await startUpstreamBase({
      genesisFile: inject("usdcGenesisFile"),
      dataDir: path.join(dir, "upstream"),
      port: await freePort(),
      blockTime: 1,
    });
    receiver = await startWebhookReceiver();
    sendGrid = await startSendGridStandIn(path.join(dir, "sendgrid"));
  });
  afterAll(async () => {
    for (const service of services) await stopProcess(service.child, "SIGKILL");
    await receiver?.stop();
    await sendGrid?.stop();
    await upstream?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  /** Runs `npm start` with `env` on a DATA_DIR of its own and private ports. */
  const start = async (name: string, env: NodeJS.ProcessEnv) => {
    const { env: ports, apiUrl } = await privatePorts();
    const dataDir = path.join(dir, name);
    const service = startService({ ...ports, DATA_DIR: dataDir, ...env });
    services.push(service);
    return { service, apiUrl, dataDir, ports };
  };

  /** Starts `npm start`, expects it to refuse with `message`, and to leave nothing running. */
  const expectRefusal = async (name: string, env: NodeJS.ProcessEnv, message: RegExp) => {
    const { service, dataDir } = await start(name, env);
    expect(await exitCode(service)).toBe(1);
    expect(service.output()).toMatch(message);
    expect(service.output()).not.toMatch(
      /"component":"remit\/(indexer|api|worker)".*"msg":"started"/,
    );
    const postmaster = await readFile(path.join(dataDir, "postgres/postmaster.pid"), "utf8").catch(
      () => null,
    );
    if (postmaster) expect(isAlive(Number(postmaster.split("\n")[0]))).toBe(false);
  };

  test("refuses to start without START_BLOCK, on another chain, without USDC or without a seed", async () => {
    const head = await createChain(upstream.url).client.getBlockNumber();
    const settings = mainnetSettings(upstream.url, head, sendGrid.apiUrl);
    const { START_BLOCK: _start, ...withoutStartBlock } = settings;
    await expectRefusal(
      "no-start-block",
      withoutStartBlock,
      /START_BLOCK: is required with BASE_RPC_URL: the go-live block/,
    );
    const { DEPOSIT_MNEMONIC: _seed, ...withoutSeed } = settings;
    await expectRefusal("no-seed", withoutSeed, /DEPOSIT_MNEMONIC is required with BASE_RPC_URL/);

    const optimism = await startAnvil({ port: await freePort(), blockTime: 0, chainId: 10 });
    const empty = await startAnvil({ port: await freePort(), blockTime: 0 });
    try {
      await expectRefusal(
        "other-chain",
        mainnetSettings(optimism.url, 0n, sendGrid.apiUrl),
        new RegExp(
          `failed to start: BASE_RPC_URL \\(${optimism.url}\\) is chain id 10, not Base \\(8453\\): refusing to start`,
        ),
      );
      await expectRefusal(
        "no-usdc",
        mainnetSettings(empty.url, 0n, sendGrid.apiUrl),
        /BASE_RPC_URL \(.*\) has no contract at USDC's address 0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913: refusing to start/,
      );
    } finally {
      await Promise.all([optimism.stop(), empty.stop()]);
    }
  });

  test("follows A from START_BLOCK, past an unreachable fallback RPC, and detects a payment; an api,worker replica joins", async () => {
    const chain = createChain(upstream.url);
    const down = `http://127.0.0.1:${await freePort()}`;
    const settings = mainnetSettings(`${upstream.url},${down}`, 0n, sendGrid.apiUrl);
    // Before going live, 50 USDC reach the address the first invoice will get (index 0): the
    // indexer starts at the go-live block, so this old transfer must never count.
    const firstDeposit = deriveAccount(settings.DEPOSIT_MNEMONIC as string, DEPOSIT_ACCOUNT, 0);
    const early = await chain.payUsdc(devAccount(2), firstDeposit.address, 50_000_000n);
    const goLive = early.blockNumber + 1n;
    await waitFor("the go-live block", async () => (await chain.client.getBlockNumber()) >= goLive);

    const live = { ...settings, START_BLOCK: String(goLive) };
    const { service, apiUrl, dataDir, ports } = await start("following", live);
    await waitForLine(service, /healthy in/);
    expect(service.output()).toMatch(
      new RegExp(
        `"mode":"mainnet",.*"start_block":${goLive},"msg":"chain checked: Base with USDC"`,
      ),
    );
    expect(service.output()).toContain(`cannot reach BASE_RPC_URL (${down})`);
    // No anvil of our own: A is the chain.
    expect(await stat(path.join(dataDir, "chain")).catch(() => null)).toBeNull();
    expect(service.output()).not.toMatch(/"component":"anvil"/);

    const invoice = await createInvoiceOn(apiUrl, receiver.url);
    expect(invoice.deposit_address).toBe(firstDeposit.address);
    const paid = await chain.payUsdc(devAccount(2), invoice.deposit_address, 150_000_000n);
    const status = await waitForInvoiceStatus(apiUrl, invoice.invoice_id, "paid");
    // Exactly paid, not in excess: the 50 USDC sent before START_BLOCK were not indexed.
    expect(status).toMatchObject({ paid_amount: "150.00", tx_hash: paid.transactionHash });
    await expectPaidWebhook(receiver.received, invoice, paid.transactionHash);

    // A replica (docs/operations.md, "Production"): API and worker only, same settings, same database. It
    // finds the same indexer schema, and the single indexer serves both. As the database's
    // superuser it is refused (it could undo the append-only record); as a runtime role that
    // only logs in, with the owner's URL to migrate and grant, it runs (db/runtimeRole.ts).
    const ownerUrl = `postgres://postgres:postgres@127.0.0.1:${ports.EMBEDDED_PG_PORT}/remit`;
    await expectRefusal(
      "replica-as-superuser",
      { ...live, PROCESSES: "api,worker", DATABASE_URL: ownerUrl },
      /DATABASE_URL logs in as postgres, a superuser: .*ALLOW_DATABASE_OWNER=true/,
    );
    const admin = new pg.Client({ connectionString: ownerUrl });
    await admin.connect();
    await admin.query("create role remit_app login password 'app-secret'");
    await admin.end();
    const replica = await start("replica", {
      ...live,
      PROCESSES: "api,worker",
      MIGRATION_DATABASE_URL: ownerUrl,
      DATABASE_URL: `postgres://remit_app:app-secret@127.0.0.1:${ports.EMBEDDED_PG_PORT}/remit`,
    });
    await waitForLine(replica.service, /healthy in/);
    expect(replica.service.output()).toMatch(/"component":"remit\/api".*"msg":"started"/);
    expect(replica.service.output()).not.toMatch(
      /"component":"remit\/indexer".*"msg":"started"|embedded postgres/,
    );
    expect(await waitForInvoiceStatus(replica.apiUrl, invoice.invoice_id, "paid")).toEqual(status);
    const second = await createInvoiceOn(replica.apiUrl, receiver.url);
    const paidAgain = await chain.payUsdc(devAccount(2), second.deposit_address, 150_000_000n);
    await waitForInvoiceStatus(replica.apiUrl, second.invoice_id, "paid");
    await expectPaidWebhook(receiver.received, second, paidAgain.transactionHash);

    for (const running of [replica.service, service]) {
      running.child.kill("SIGINT");
      expect(await exitCode(running)).toBe(0);
    }
  }, 240_000);
});
