import { sql } from "kysely";
import { createPublicClient, type Hash, type Hex, http, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { base } from "viem/chains";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { createDb, type Db } from "../../db/database.ts";
import { findRelayedByPurpose, type RelayedRow } from "../../db/queries/relayerTransactions.ts";
import { createLogger } from "../../internal/logger.ts";
import { checkRelayed } from "../../worker/relayer/check.ts";
import type { Relayer } from "../../worker/relayer/relayer.ts";
import { submitRelayed } from "../../worker/relayer/submit.ts";
import { useChain } from "../helpers/chain.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";

/**
 * The relayer's one nonce sequence (worker/relayer/): submissions from one process or several
 * never share a nonce, and a transaction that is not mined is re-sent at a higher fee under
 * the same nonce, never under a new one. On the real chain (anvil) and a real database.
 */
describe("relayer transactions: one nonce sequence, submit then check", () => {
  const chain = useChain();
  let database: TestDatabase;
  const extraPools: Db[] = [];
  const key = generatePrivateKey();
  const account = privateKeyToAccount(key);

  beforeEach(async () => {
    database = await createTestDatabase();
    // A relayer of its own, so that no other test's transactions move its nonce.
    await chain.client.setBalance({ address: account.address, value: parseEther("1") });
  });
  afterEach(async () => {
    await chain.client.setAutomine(true);
    await Promise.all(extraPools.splice(0).map((db) => db.destroy()));
    await database?.drop();
  });

  const relayerOn = (db: Db): Relayer => ({
    db,
    account,
    chain: createPublicClient({ chain: base, transport: http(chain.url), cacheTime: 0 }),
    chainId: base.id,
    replaceAfterBlocks: 3,
    log: createLogger("test/relayer"),
  });
  /** A plain call, to the relayer itself: what it is does not matter to the nonce. */
  const request = (purpose: string) => ({ purpose, to: account.address, data: "0x" as Hex });
  const reload = async (row: RelayedRow) =>
    (await findRelayedByPurpose(database.db, row.purpose)) as RelayedRow;
  const dropFromPool = (hash: string) =>
    chain.client.request({ method: "anvil_dropTransaction" as never, params: [hash] as never });

  test("ten submissions at once in one process take ten consecutive nonces, all mined", async () => {
    const relayer = relayerOn(database.db);
    const rows = await Promise.all(
      Array.from({ length: 10 }, (_, i) => submitRelayed(relayer, request(`test:${i}`))),
    );
    const nonces = rows.map((row) => row.nonce).sort((a, b) => Number(a - b));
    expect(nonces).toEqual(Array.from({ length: 10 }, (_, i) => BigInt(i)));
    for (const row of rows) {
      const outcome = await checkRelayed(relayer, await reload(row));
      expect(outcome).toMatchObject({ state: "mined", success: true });
    }
    expect(
      await chain.client.getTransactionCount({ address: account.address, blockTag: "latest" }),
    ).toBe(10);
  });

  test("two processes (their own connection pools) submitting at once never share a nonce", async () => {
    const other = createDb(database.url, { max: 5 });
    extraPools.push(other);
    const [first, second] = [relayerOn(database.db), relayerOn(other)];
    const rows = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        submitRelayed(i % 2 ? first : second, request(`test:${i}`)),
      ),
    );
    expect(new Set(rows.map((row) => row.nonce)).size).toBe(20);
    for (const row of rows)
      expect(await checkRelayed(first, await reload(row))).toMatchObject({ state: "mined" });
  });

  test("asking again under the same purpose returns the first transaction, not a second", async () => {
    const relayer = relayerOn(database.db);
    const first = await submitRelayed(relayer, request("test:once"));
    const again = await submitRelayed(relayer, request("test:once"));
    expect(again.id).toBe(first.id);
    expect(
      await chain.client.getTransactionCount({ address: account.address, blockTag: "latest" }),
    ).toBe(1);
  });

  test("the sequence starts at the chain's count for the key (transactions sent by other means)", async () => {
    const relayer = relayerOn(database.db);
    await chain.client.waitForTransactionReceipt({
      hash: await chain.client.sendRawTransaction({
        serializedTransaction: await account.signTransaction({
          chainId: base.id,
          to: account.address,
          nonce: 0,
          gas: 21_000n,
          maxFeePerGas: parseEther("0.00000001"),
          maxPriorityFeePerGas: 1n,
        }),
      }),
    });
    expect((await submitRelayed(relayer, request("test:after"))).nonce).toBe(1n);
  });

  test("a transaction not mined after 3 blocks is re-sent at a higher fee under the same nonce", async () => {
    const relayer = relayerOn(database.db);
    await chain.client.setAutomine(false);
    const row = await submitRelayed(relayer, request("test:stuck"));
    // The node loses it (a mempool eviction, a node restart): blocks go by without it.
    await dropFromPool(row.hashes[0] as string);
    await chain.mine(3);
    expect(await checkRelayed(relayer, await reload(row))).toEqual({ state: "pending" });
    const replaced = await reload(row);
    expect(replaced.hashes).toHaveLength(2);
    expect(replaced.nonce).toBe(row.nonce);
    expect(BigInt(replaced.max_fee_per_gas)).toBeGreaterThan(BigInt(row.max_fee_per_gas));
    expect(BigInt(replaced.max_priority_fee_per_gas)).toBeGreaterThan(
      BigInt(row.max_priority_fee_per_gas),
    );
    await chain.mine(1);
    const outcome = await checkRelayed(relayer, await reload(row));
    expect(outcome).toMatchObject({ state: "mined", success: true, hash: replaced.hashes[1] });
    const tx = await chain.client.getTransaction({ hash: replaced.hashes[1] as Hash });
    expect(BigInt(tx.nonce)).toBe(row.nonce);
  });

  test("a transaction recorded but never handed to the node (a crash) is broadcast by the next check", async () => {
    const relayer = relayerOn(database.db);
    await chain.client.setAutomine(false);
    const row = await submitRelayed(relayer, request("test:crash"));
    await dropFromPool(row.hashes[0] as string);
    await sql`update app.relayer_transactions set sent_block = null where id = ${row.id}::uuid`.execute(
      database.db,
    );
    expect(await checkRelayed(relayer, await reload(row))).toEqual({ state: "pending" });
    expect((await reload(row)).sent_block).not.toBeNull();
    await chain.mine(1);
    expect(await checkRelayed(relayer, await reload(row))).toMatchObject({
      state: "mined",
      hash: row.hashes[0],
    });
  });

  test("a nonce used by another transaction is reported dropped, and nothing is re-sent under it", async () => {
    const relayer = relayerOn(database.db);
    await chain.client.setAutomine(false);
    const row = await submitRelayed(relayer, request("test:taken"));
    await dropFromPool(row.hashes[0] as string);
    // Someone else with the key takes the nonce.
    await chain.client.sendRawTransaction({
      serializedTransaction: await account.signTransaction({
        chainId: base.id,
        to: account.address,
        value: 1n,
        nonce: Number(row.nonce),
        gas: 21_000n,
        maxFeePerGas: parseEther("0.00000001"),
        maxPriorityFeePerGas: 1n,
      }),
    });
    await chain.mine(1);
    expect(await checkRelayed(relayer, await reload(row))).toEqual({ state: "dropped" });
    expect((await reload(row)).status).toBe("dropped");
    expect((await reload(row)).hashes).toHaveLength(1);
  });

  test("a transaction recorded as mined that the chain forgot is sent again, and the nonces above it are mined", async () => {
    const relayer = relayerOn(database.db);
    const before = await chain.client.snapshot();
    const first = await submitRelayed(relayer, request("test:forgotten"));
    expect(await checkRelayed(relayer, await reload(first))).toMatchObject({ state: "mined" });
    // The chain forgets the block that held it (a local chain resumed from an older state).
    await chain.client.revert({ id: before });
    await chain.client.setAutomine(false);
    const second = await submitRelayed(relayer, request("test:after-gap"));
    expect(second.nonce).toBe(first.nonce + 1n);
    await chain.mine(3);
    expect(await checkRelayed(relayer, await reload(second))).toEqual({ state: "pending" });
    await chain.mine(1);
    expect(await checkRelayed(relayer, await reload(second))).toMatchObject({ state: "mined" });
    expect(
      await chain.client.getTransactionCount({ address: account.address, blockTag: "latest" }),
    ).toBe(2);
    // The first went again as itself: its own signed bytes, its own hash.
    expect(
      await chain.client.getTransactionReceipt({ hash: first.hashes[0] as Hash }),
    ).toMatchObject({ status: "success" });
  });

  test("a nonce reported dropped that the chain forgot is filled with an empty transfer, not its call", async () => {
    const relayer = relayerOn(database.db);
    const before = await chain.client.snapshot();
    const first = await submitRelayed(relayer, request("test:dropped-then-forgotten"));
    await checkRelayed(relayer, await reload(first));
    await sql`update app.relayer_transactions set status = 'dropped' where id = ${first.id}::uuid`.execute(
      database.db,
    );
    await chain.client.revert({ id: before });
    await chain.client.setAutomine(false);
    const second = await submitRelayed(relayer, request("test:after-dropped"));
    await chain.mine(3);
    expect(await checkRelayed(relayer, await reload(second))).toEqual({ state: "pending" });
    await chain.mine(1);
    expect(await checkRelayed(relayer, await reload(second))).toMatchObject({ state: "mined" });
    expect(
      await chain.client.getTransactionReceipt({ hash: first.hashes[0] as Hash }).catch(() => null),
    ).toBeNull();
  });
});
