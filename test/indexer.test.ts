import { sql } from "kysely";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { waitFor } from "../internal/process.ts";
import { devAccount, useChain } from "./helpers/chain.ts";
import { createTestDatabase, type TestDatabase } from "./helpers/database.ts";
import { startIndexer } from "./helpers/processes.ts";

type Row = {
  tx_hash: string;
  block_hash: string;
  block_number: string;
  from: string;
  to: string;
  value: string;
};

describe("indexer", () => {
  const chain = useChain();
  let database: TestDatabase;
  let indexer: Awaited<ReturnType<typeof startIndexer>>;

  beforeAll(async () => {
    database = await createTestDatabase();
    indexer = await startIndexer({ databaseUrl: database.url, rpcUrl: chain.url });
  });
  afterAll(async () => {
    await indexer?.stop();
    await database?.drop();
  });

  const transfersTouching = async (address: string) =>
    (
      await sql<Row>`
        select tx_hash, block_hash, block_number::text, "from", "to", value::text
        from ${sql.table(`${indexer.schema}.usdc_transfer`)}
        where "to" = ${address.toLowerCase()} or "from" = ${address.toLowerCase()}
        order by block_number`.execute(database.db)
    ).rows;

  const register = (address: string) =>
    database.db
      .insertInto("app.deposit_addresses")
      .values({ address: address.toLowerCase() })
      .execute();

  test("stores a USDC transfer to a deposit address registered after the indexer started", async () => {
    const deposit = privateKeyToAccount(generatePrivateKey()).address;
    const stranger = privateKeyToAccount(generatePrivateKey()).address;
    await register(deposit);
    const payer = devAccount(1);

    // Paid first, to an address that is not ours: by the time the deposit's row shows up,
    // the indexer has processed this block too.
    const ignored = await chain.payUsdc(payer, stranger, 5_000_000n);
    const paid = await chain.payUsdc(payer, deposit, 123_450_000n);

    const rows = await waitFor("the transfer to be indexed", async () => {
      const found = await transfersTouching(deposit);
      return found.length > 0 && found;
    });
    expect(rows).toEqual([
      {
        tx_hash: paid.transactionHash,
        block_hash: paid.blockHash,
        block_number: String(paid.blockNumber),
        from: payer.address.toLowerCase(),
        to: deposit.toLowerCase(),
        value: "123450000",
      },
    ]);
    expect(ignored.blockNumber).toBeLessThan(paid.blockNumber);
    expect(await transfersTouching(stranger)).toEqual([]);
  });

  test("stores EIP-3009 transferWithAuthorization payments and transfers out of a deposit", async () => {
    const depositAccount = privateKeyToAccount(generatePrivateKey());
    const deposit = depositAccount.address;
    await register(deposit);
    const payer = devAccount(2);
    const relayer = devAccount(3);

    const inbound = await chain.payWithAuthorization(
      payer,
      deposit,
      7_000_000n,
      relayer,
      `0x${"11".repeat(32)}`,
    );
    // The deposit key authorises a transfer out (a sweep); the relayer pays the gas.
    const sweepTo = devAccount(4).address;
    const outbound = await chain.payWithAuthorization(
      depositAccount,
      sweepTo,
      7_000_000n,
      relayer,
      `0x${"22".repeat(32)}`,
    );

    const rows = await waitFor("both transfers to be indexed", async () => {
      const found = await transfersTouching(deposit);
      return found.length === 2 && found;
    });
    expect(rows.map((row) => [row.tx_hash, row.from, row.to, row.value])).toEqual([
      [inbound.transactionHash, payer.address.toLowerCase(), deposit.toLowerCase(), "7000000"],
      [outbound.transactionHash, deposit.toLowerCase(), sweepTo.toLowerCase(), "7000000"],
    ]);
    expect(await chain.usdcBalance(deposit)).toBe(0n);
  });
});

describe("indexer storage under unrelated traffic", () => {
  const chain = useChain();
  let database: TestDatabase;
  let indexer: Awaited<ReturnType<typeof startIndexer>>;

  beforeAll(async () => {
    database = await createTestDatabase();
    indexer = await startIndexer({ databaseUrl: database.url, rpcUrl: chain.url });
  });
  afterAll(async () => {
    await indexer?.stop();
    await database?.drop();
  });

  /** Rows in every table Ponder writes: its sync cache and our transfer table. */
  const footprint = async () => {
    const { rows } = await sql<{ table: string; rows: string }>`
      select format('%I.%I', schemaname, relname) as table, n_live_tup::text as rows
      from pg_stat_user_tables where schemaname in ('ponder_sync', ${indexer.schema})`.execute(
      database.db,
    );
    const counts: Record<string, number> = {};
    for (const row of rows) {
      const { rows: exact } = await sql<{
        n: string;
      }>`select count(*)::text as n from ${sql.raw(row.table)}`.execute(database.db);
      counts[row.table] = Number(exact[0]?.n);
    }
    return counts;
  };

  test("a burst of USDC transfers between strangers stores nothing", async () => {
    const before = await footprint();
    const strangers = Array.from(
      { length: 10 },
      () => privateKeyToAccount(generatePrivateKey()).address,
    );
    for (let i = 0; i < 60; i++)
      await chain.payUsdc(
        devAccount(i % 10),
        strangers[i % 10] as `0x${string}`,
        1_000_000n + BigInt(i),
      );
    // Then one to a deposit address: once it is indexed, so is every block before it.
    const deposit = privateKeyToAccount(generatePrivateKey()).address;
    await database.db
      .insertInto("app.deposit_addresses")
      .values({ address: deposit.toLowerCase() })
      .execute();
    await chain.payUsdc(devAccount(1), deposit, 1_000_000n);
    await waitFor("the deposit's transfer", async () => {
      const { rows } =
        await sql`select 1 from ${sql.table(`${indexer.schema}.usdc_transfer`)} where "to" = ${deposit.toLowerCase()}`.execute(
          database.db,
        );
      return rows.length === 1;
    });
    const after = await footprint();
    const grown = Object.fromEntries(
      Object.entries(after)
        .map(([table, n]) => [table, n - (before[table] ?? 0)])
        .filter(([, n]) => n !== 0),
    );
    // Only our one transfer (and Ponder's bookkeeping of it) was written.
    expect(grown).toEqual({
      [`${indexer.schema}.usdc_transfer`]: 1,
      [`${indexer.schema}._reorg__usdc_transfer`]: 1,
    });
  });
});
