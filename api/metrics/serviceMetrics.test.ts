import { Registry } from "prom-client";
import { afterEach, describe, expect, test } from "vitest";
import { freePort } from "../../internal/freePort.ts";
import { createLogger, createRootLogger } from "../../internal/logger.ts";
import { chainUrl } from "../../test/helpers/chain.ts";
import { createTestDatabase, type TestDatabase } from "../../test/helpers/database.ts";
import { parseMetrics, sampleValue } from "../../test/helpers/prometheus.ts";
import { registerServiceMetrics } from "./serviceMetrics.ts";

describe("registerServiceMetrics", () => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.drop();
    database = undefined;
  });

  const setUp = async (rpcUrl: string) => {
    database = await createTestDatabase();
    const warnings: string[] = [];
    const root = createRootLogger("info", { write: (line: string) => void warnings.push(line) });
    const registry = new Registry();
    registerServiceMetrics(
      registry,
      { db: database.db, rpcUrl, indexerSchema: "idx_absent", log: createLogger("api", root) },
      { readingTtlMs: 0 },
    );
    const scrape = async () => parseMetrics(await registry.metrics());
    return { db: database.db, scrape, warnings };
  };

  test("counts emails by kind and status from the table, and reads the chain head", async () => {
    const { db, scrape } = await setUp(chainUrl());
    await db
      .insertInto("app.emails")
      .values([
        { kind: "payment_event", recipient: "a@example.com", status: "sent", attempts: 3 },
        { kind: "payment_event", recipient: "b@example.com", status: "queued", attempts: 2 },
        { kind: "payment_event", recipient: "c@example.com", status: "failed", attempts: 25 },
      ])
      .execute();
    const samples = await scrape();
    const value = (name: string, labels: Record<string, string> = {}) =>
      sampleValue(samples, name, labels);
    expect(value("remit_emails", { kind: "payment_event", status: "queued" })).toBe(1);
    expect(value("remit_emails", { kind: "vendor_invoice", status: "sent" })).toBe(0);
    // 30 attempts, one of which succeeded.
    expect(value("remit_email_attempts_total", { kind: "payment_event", outcome: "sent" })).toBe(1);
    expect(value("remit_email_attempts_total", { kind: "payment_event", outcome: "failed" })).toBe(
      29,
    );
    expect(value("remit_jobs_queued", { task: "send_email", state: "waiting" })).toBe(3);
    expect(value("remit_chain_head_block")).toBeGreaterThanOrEqual(0);
    // No indexer has run on this database: its block and the lag are unknown, not 0.
    expect(value("remit_indexer_indexed_block")).toBeNaN();
    expect(value("remit_indexer_lag_blocks")).toBeNaN();
  });

  test("with the database and the chain gone, a scrape still answers, keeping the last totals", async () => {
    const { db, scrape, warnings } = await setUp(`http://127.0.0.1:${await freePort()}`);
    await db
      .insertInto("app.emails")
      .values({ kind: "vendor_invoice", recipient: "a@example.com", status: "sent", attempts: 1 })
      .execute();
    expect(
      sampleValue(await scrape(), "remit_emails", { kind: "vendor_invoice", status: "sent" }),
    ).toBe(1);
    await db.destroy();
    const samples = await scrape();
    expect(sampleValue(samples, "remit_emails", { kind: "vendor_invoice", status: "sent" })).toBe(
      1,
    );
    expect(sampleValue(samples, "remit_chain_head_block")).toBeNaN();
    expect(warnings.join("")).toContain("could not read outcomes from the database");
  });
});
