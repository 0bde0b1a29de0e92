import { sql } from "kysely";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { newSlug } from "../../domain/tokens.ts";
import { waitFor } from "../../internal/process.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";

/**
 * A database that is too slow or out of connections must not hang the API: requests fail fast
 * with 503 and Retry-After, write nothing, and succeed again once the database recovers.
 */
describe("API under database exhaustion and slow queries", () => {
  let stack: TestStack;
  let locker: pg.Client;

  beforeEach(async () => {
    stack = await startStack({
      env: {
        DATABASE_POOL_MAX: "2",
        DATABASE_CONNECT_TIMEOUT_MS: "500",
        // The second test's third request must reach the pool, and wait its 500 ms there,
        // while the first two still hold it: they let go at this timeout, counted from before
        // the test saw them waiting, so it leaves room for a loaded machine.
        DATABASE_STATEMENT_TIMEOUT_MS: "5000",
      },
    });
    locker = new pg.Client({ connectionString: stack.database.url });
    await locker.connect();
  });
  afterEach(async () => {
    await locker?.end().catch(() => {});
    await stack?.stop();
  });

  /** Holds an exclusive lock on the merchants table: every invoice creation waits on it. */
  const lockMerchants = async () => {
    await locker.query("begin");
    await locker.query("lock table app.merchants in access exclusive mode");
    return async () => void (await locker.query("rollback"));
  };

  const create = async (body = invoiceRequest()) => {
    const started = performance.now();
    const response = await stack.request("/api/invoices", { method: "POST", json: body });
    return {
      status: response.status,
      retryAfter: response.headers.get("retry-after"),
      body: (await response.json()) as { error?: { code: string; request_id?: string } },
      ms: performance.now() - started,
    };
  };

  const invoiceCount = async () =>
    Number(
      (
        await stack.db
          .selectFrom("app.invoices")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  test("a query stuck behind a lock ends in 503 with Retry-After at the statement timeout, and writes nothing", async () => {
    const release = await lockMerchants();
    const answer = await create();
    expect(answer.status).toBe(503);
    expect(answer.retryAfter).toBe("2");
    expect(answer.body.error?.code).toBe("database_unavailable");
    expect(answer.body.error?.request_id).toBeTruthy();
    // The statement timeout (5 s) ends it, not the client.
    expect(answer.ms).toBeLessThan(10_000);
    await release();
    expect(await invoiceCount()).toBe(0);
    expect((await create()).status).toBe(201);
    expect(await invoiceCount()).toBe(1);
  });

  test("with every pooled connection busy, further requests get 503 after the connect timeout instead of queueing forever", async () => {
    const release = await lockMerchants();
    // Two requests take both connections and wait on the lock (up to the statement timeout)…
    const holders = [create(), create()];
    await waitFor("both requests to wait on the lock", async () => {
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from pg_locks where not granted and database = (
          select oid from pg_database where datname = current_database())`.execute(stack.db);
      return (rows[0]?.n ?? 0) >= 2;
    });
    // …so a third cannot get a connection within 500 ms.
    // A well-formed slug that does not exist: answering it takes a database lookup.
    const starved = await stack.request(`/api/payments/status/${newSlug()}`);
    expect(starved.status).toBe(503);
    expect(starved.headers.get("retry-after")).toBe("2");
    const answers = await Promise.all(holders);
    expect(answers.map((a) => a.status)).toEqual([503, 503]);
    await release();
    expect(await invoiceCount()).toBe(0);
    expect((await create()).status).toBe(201);
  });
});
