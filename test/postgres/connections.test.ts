import { readdir, readFile, readlink } from "node:fs/promises";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { startWebhookReceiver } from "../helpers/webhookReceiver.ts";
import { invoiceApi, type Json, priced, until } from "../refunds/helpers.ts";

/** Local TCP port → socket inode, from the kernel's table of this machine's connections. */
async function socketInodes(): Promise<Map<number, string>> {
  const byPort = new Map<number, string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    const lines = (await readFile(table, "utf8").catch(() => "")).split("\n").slice(1);
    for (const line of lines) {
      const fields = line.trim().split(/\s+/);
      const local = fields[1]?.split(":")[1];
      if (local && fields[9]) byPort.set(Number.parseInt(local, 16), fields[9]);
    }
  }
  return byPort;
}

/** The socket inodes process `pid` holds open. */
async function processSockets(pid: number): Promise<Set<string>> {
  const fds = await readdir(`/proc/${pid}/fd`).catch(() => []);
  const links = await Promise.all(
    fds.map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => "")),
  );
  return new Set(links.flatMap((link) => /^socket:\[(\d+)\]$/.exec(link)?.[1] ?? []));
}

/**
 * How many server connections each process of an API, a worker and an indexer holds on its
 * database, at the peak of a payment's flow (invoice, payment, webhook, email): what
 * docs/operations.md's sizing of `max_connections` per replica rests on. Each Postgres backend
 * is traced to its process by its client port (pg_stat_activity) and that socket's owner
 * (/proc); the test asserts each stays within the bound the docs give from the settings.
 */
describe("connections per process", () => {
  const chain = useChainForFile();
  let stack: TestStack;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

  beforeAll(async () => {
    await chain.snapshot();
    receiver = await startWebhookReceiver();
    stack = await startStack({ worker: true, indexer: true });
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.stop();
    await chain.revert();
  });

  test("an API, a worker and the indexer stay within docs/operations.md's bounds", async () => {
    const admin = new pg.Client({ connectionString: inject("postgresAdminUrl") });
    await admin.connect();
    const pids = {
      api: stack.api.process.pid,
      worker: stack.worker?.process.pid,
      indexer: stack.indexer?.process.pid,
    };
    const peak = { api: 0, worker: 0, indexer: 0 };
    const sample = async () => {
      const { rows } = await admin.query<{ port: number }>(
        "select client_port as port from pg_stat_activity where datname = $1 and client_port is not null",
        [stack.database.name],
      );
      const inodes = await socketInodes();
      for (const [name, pid] of Object.entries(pids) as [keyof typeof peak, number][]) {
        const sockets = await processSockets(pid);
        const held = rows.filter((row) => sockets.has(inodes.get(row.port) ?? "")).length;
        peak[name] = Math.max(peak[name], held);
      }
    };
    let sampling = true;
    const sampler = (async () => {
      while (sampling) await sample();
    })();
    try {
      const api = invoiceApi(stack);
      const invoices = await Promise.all(
        [1, 2, 3].map(() => api.create({ ...priced("1.00"), webhook_url: receiver.url })),
      );
      await Promise.all(
        invoices.map((invoice, i) =>
          chain.payUsdc(devAccount(i + 1), invoice.deposit_address, 1_000_000n),
        ),
      );
      await until("every webhook", async () => {
        const paid = receiver.received.map((r) => (JSON.parse(r.body) as Json).invoice_id);
        return invoices.every((invoice) => paid.includes(invoice.invoice_id));
      });
    } finally {
      sampling = false;
      await sampler;
      await admin.end();
    }
    console.log(`peak server connections: ${JSON.stringify(peak)}`);
    // DATABASE_POOL_MAX (10), the status cache's LISTEN connection and the heartbeat's.
    expect(peak.api).toBeGreaterThan(0);
    expect(peak.api).toBeLessThanOrEqual(12);
    // The same, and per queue its concurrency + 2 (4+2, 2+2, 10+2, 4+2, 2+2 = 32).
    expect(peak.worker).toBeGreaterThan(0);
    expect(peak.worker).toBeLessThanOrEqual(44);
    // Ponder's pool (30) and the deposit addresses' LISTEN connection.
    expect(peak.indexer).toBeGreaterThan(0);
    expect(peak.indexer).toBeLessThanOrEqual(31);
  });
});
