import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createDb } from "../../db/database.ts";
import { type RunningPostgres, startEmbeddedPostgres } from "../../db/embeddedPostgres.ts";
import { freePort } from "../../internal/freePort.ts";
import { runCli } from "../cli/run.ts";
import { devAccount, useChainForFile } from "../helpers/chain.ts";
import type { TestDatabase } from "../helpers/database.ts";
import {
  adminQuery,
  createTestRoles,
  debianPostgresBinaries,
  roleUrl,
} from "../helpers/postgresServer.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { startWebhookReceiver } from "../helpers/webhookReceiver.ts";
import {
  freshAddress,
  invoiceApi,
  type Json,
  priced,
  type RefundBody,
  until,
} from "../refunds/helpers.ts";

/** The money and delivery tables whose every row must come back as it was. */
const BOOKS = [
  "app.invoices",
  "app.payments",
  "app.refunds",
  "app.sweeps",
  "app.payment_events",
  "app.webhook_deliveries",
  "app.webhook_attempts",
  "app.emails",
] as const;

/** Every row of the books, as text, by table and id. */
async function books(url: string): Promise<Record<string, Map<string, string>>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables: Record<string, Map<string, string>> = {};
    for (const table of BOOKS) {
      const { rows } = await client.query<{ id: string; row: string }>(
        `select id::text as id, t::text as row from ${table} t`,
      );
      tables[table] = new Map(rows.map((r) => [r.id, r.row]));
    }
    return tables;
  } finally {
    await client.end();
  }
}

/** Debian's tools of the server's major version (pg_dump must be at least the server's). */
const tool = async (name: string) =>
  path.join(path.dirname((await debianPostgresBinaries()).postgres), name);

/**
 * The drill of docs/operations.md, "Backups and restores": a stack with invoices paid, a refund,
 * webhooks delivered and emails sent; `remit db backup` as the owner; `remit db restore` into a
 * fresh server made with `remit db roles`' two roles; Remit started on it, the indexer rebuilding
 * from START_BLOCK (the dump carries no index). The books balance: every invoice, payment,
 * refund, sweep, delivery and email as before, and nothing delivered or emailed twice while the
 * rebuilt index replays every transfer; a payment after the restore is detected and delivered.
 */
describe("backup and restore", () => {
  const chain = useChainForFile();
  let stack: TestStack;
  let stackStopped = false;
  let restored: TestStack | undefined;
  let server: RunningPostgres | undefined;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let dir: string;

  beforeAll(async () => {
    await chain.snapshot();
    dir = await mkdtemp(path.join(tmpdir(), "remit-backup-"));
    receiver = await startWebhookReceiver();
    stack = await startStack({ worker: true, indexer: true });
  });
  afterAll(async () => {
    await restored?.stop();
    if (!stackStopped) await stack?.stop();
    await server?.stop();
    await receiver?.stop();
    await chain.revert();
    await rm(dir, { recursive: true, force: true });
  });

  test("a dump restored into a fresh server gives the same books, and nothing is delivered twice", async () => {
    const api = invoiceApi(stack);
    // A: paid exactly. B: overpaid, swept, its excess refunded.
    const a = await api.create({ ...priced("2.00"), webhook_url: receiver.url });
    const b = await api.create({
      ...priced("3.00"),
      wallet_type: "byo",
      wallet_address: freshAddress(),
      webhook_url: receiver.url,
    });
    await chain.payUsdc(devAccount(1), a.deposit_address, 2_000_000n);
    await chain.payUsdc(devAccount(1), b.deposit_address, 3_500_000n);
    await api.swept(b.invoice_id);
    const refund = (await (
      await api.refund(b.invoice_id, { to: freshAddress() })
    ).json()) as RefundBody;
    await api.refundIs(b.invoice_id, refund.refund_id, "confirmed");
    const hooks = () => receiver.received.map((r) => JSON.parse(r.body) as Json);
    await until("the three webhooks", async () => {
      const types = hooks().map((h) => `${h.type}:${h.invoice_id}`);
      return (
        types.includes(`invoice.paid:${a.invoice_id}`) &&
        types.includes(`invoice.refunded:${b.invoice_id}`) &&
        types.some((t) => t.endsWith(`:${b.invoice_id}`) && !t.startsWith("invoice.refunded"))
      );
    });
    // An email names its invoice by its page (numbers are per merchant: C may be INV-0001 too).
    const pages = [a.slug, b.slug].map((slug) => `/i/${slug}`);
    await until("the refund's emails", async () => {
      const emails = await stack.outbox();
      return emails.filter((e) => e.subject.startsWith("Refund of 0.50 USDC")).length >= 2;
    });
    const deliveredBefore = receiver.received.length;
    const emailsBefore = (await stack.outbox()).filter((e) =>
      pages.some((page) => (e.text ?? "").includes(page)),
    ).length;
    expect(emailsBefore).toBeGreaterThan(0);

    // The backup, as the owner, while the service runs (pg_dump reads one snapshot).
    const file = path.join(dir, "remit.dump");
    const backup = await runCli(["db", "backup", "--file", file], {
      env: { MIGRATION_DATABASE_URL: stack.database.url, PG_DUMP: await tool("pg_dump") },
    });
    expect(backup.code, backup.stderr).toBe(0);
    expect(JSON.parse(backup.stdout)).toMatchObject({
      file,
      schemas: ["app", "graphile_worker"],
      extensions: ["btree_gin", "pg_trgm"],
    });
    const before = await books(stack.database.url);
    await stack.stop();
    stackStopped = true;

    // A fresh server, its roles and database made as `remit db roles` says.
    server = await startEmbeddedPostgres({
      dataDir: path.join(dir, "restored"),
      port: await freePort(),
      ephemeral: true,
      binaries: await debianPostgresBinaries(),
    });
    const roles = await createTestRoles(server.url("postgres"));
    await adminQuery(server.url("postgres"), `create database remit owner ${roles.owner.name}`);
    const ownerUrl = roleUrl(server.url("remit"), roles.owner);
    const runtimeUrl = roleUrl(server.url("remit"), roles.runtime);
    const restore = await runCli(["db", "restore", "--file", file], {
      env: {
        MIGRATION_DATABASE_URL: ownerUrl,
        DATABASE_URL: runtimeUrl,
        PG_RESTORE: await tool("pg_restore"),
      },
    });
    expect(restore.code, restore.stderr).toBe(0);
    expect(JSON.parse(restore.stdout)).toMatchObject({ applied: [], runtime_role_granted: true });
    // Restoring twice into the same database is refused before anything is written.
    const again = await runCli(["db", "restore", "--file", file], {
      env: { MIGRATION_DATABASE_URL: ownerUrl, PG_RESTORE: await tool("pg_restore") },
    });
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(
      /already has Remit's schema app: restore into a new, empty database/,
    );

    // Remit on the restored database, with the same seed; its indexer starts from START_BLOCK.
    const database: TestDatabase = {
      name: "remit",
      url: ownerUrl,
      runtimeUrl,
      db: createDb(ownerUrl, { max: 2 }),
      drop: async () => {
        await database.db.destroy();
      },
    };
    restored = await startStack({
      worker: true,
      indexer: true,
      database,
      mnemonic: stack.mnemonic,
    });

    // A payment after the restore is detected and delivered: by then the worker has replayed
    // every transfer of the rebuilt index, the old ones included (it reconciles in block order).
    const later = invoiceApi(restored);
    const c = await later.create({ ...priced("1.00"), webhook_url: receiver.url });
    await chain.payUsdc(devAccount(1), c.deposit_address, 1_000_000n);
    await until("C's webhook", async () =>
      hooks().some((h) => h.type === "invoice.paid" && h.invoice_id === c.invoice_id),
    );
    // Let anything the replay might have queued run.
    await until("no job left", async () => {
      const { rows } = await sql<{
        n: number;
      }>`select count(*)::int as n from graphile_worker._private_jobs`.execute(database.db);
      return rows[0]?.n === 0;
    });

    // The index was rebuilt from START_BLOCK: the transfers before the backup are in it again.
    const { rows: indexed } = await sql<{
      n: number;
    }>`select count(*)::int as n from indexer.usdc_transfer where id in (select id from app.payments)`.execute(
      database.db,
    );
    expect(indexed[0]?.n).toBe(3);

    // Nothing delivered or emailed again for what was delivered before the backup.
    const after = receiver.received.slice(deliveredBefore).map((r) => JSON.parse(r.body) as Json);
    expect(after.every((h) => h.invoice_id === c.invoice_id)).toBe(true);
    const emailsAfter = (await restored.outbox()).filter((e) =>
      pages.some((page) => (e.text ?? "").includes(page)),
    );
    expect(emailsAfter).toEqual([]);

    // The books: every row as before; new rows only for C.
    const now = await books(ownerUrl);
    for (const table of BOOKS) {
      const was = before[table] ?? new Map();
      const is = now[table] ?? new Map();
      for (const [id, row] of was) expect(is.get(id), `${table} ${id}`).toBe(row);
      for (const [id, row] of is) {
        if (was.has(id)) continue;
        for (const old of [a, b]) expect(row, `${table} ${id}`).not.toContain(old.invoice_id);
      }
    }
    expect(before["app.payments"]?.size).toBe(2);
    expect(before["app.refunds"]?.size).toBe(1);
  });
});
