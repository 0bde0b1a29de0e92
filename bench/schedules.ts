// Invoice schedules at volume: BENCH_SCHEDULES (10,000) schedules of BENCH_SCHEDULE_MERCHANTS
// merchants, all due at the same moment, issued by the real worker (each an ordinary invoice:
// number, PDF, deposit address, vendor email queued), timed from the scheduler's tick to the
// last invoice; and the API's status endpoint p99 meanwhile against the same polls alone.
// Alone: `node --import tsx bench/schedules.ts` (BENCH_SCHEDULES=200 for a quick look).
import { setTimeout as delay } from "node:timers/promises";
import { sql } from "kysely";
import { createDb } from "../db/database.ts";
import { claimWithNewKey } from "../db/queries/accounts.ts";
import { apiKeyRecord, newApiKey } from "../domain/apiKeys.ts";
import { TASK } from "../domain/jobs.ts";
import { freePort } from "../internal/freePort.ts";
import { spawnLogged, stopProcess, waitFor } from "../internal/process.ts";
import { apiSpec } from "../platform/children.ts";
import { benchEnvironment } from "./environment.ts";
import { startBenchWorker } from "./serviceProcesses.ts";
import { summarize } from "./stats.ts";
import { fmtMs, record } from "./summary.ts";

const total = Number(process.env.BENCH_SCHEDULES ?? 10_000);
const merchants = Math.min(total, Number(process.env.BENCH_SCHEDULE_MERCHANTS ?? 50));
const pollSeconds = Number(process.env.BENCH_POLL_SECONDS ?? 5);

/** Polls the status endpoint from `clients` loops until `until` settles; each poll's latency. */
async function pollStatus(url: string, slug: string, clients: number, until: Promise<unknown>) {
  const latencies: number[] = [];
  let done = false;
  void until.finally(() => {
    done = true;
  });
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (!done) {
        const t0 = performance.now();
        const response = await fetch(`${url}/api/payments/status/${slug}`);
        await response.arrayBuffer();
        latencies.push(performance.now() - t0);
        // A poll every 50 ms per client: a page's polling, not a load test.
        await delay(50);
      }
    }),
  );
  return latencies;
}

export async function benchSchedules(): Promise<void> {
  const port = await freePort();
  const opsPort = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = await benchEnvironment({
    blockTime: 0,
    env: {
      PORT: String(port),
      OPS_PORT: String(opsPort),
      BASE_URL: url,
      PAY_URL: url,
      RATE_LIMIT_KEY_PER_MIN: "0",
    },
  });
  const db = createDb(env.databaseUrl);
  const api = spawnLogged(apiSpec(env.settings).command, apiSpec(env.settings).args, {
    env: apiSpec(env.settings).env,
    onLine: (line) => console.error(line),
  });
  let worker: ReturnType<typeof spawnLogged> | undefined;
  try {
    await waitFor("the API", async () => (await fetch(`${url}/health`)).status > 0, {
      timeoutMs: 30_000,
    });
    // The merchants (claimed, each with a key), and their schedules, all due today.
    const today = new Date().toISOString().slice(0, 10);
    const owners: { id: string; email: string; keyId: string; key: string }[] = [];
    for (let m = 0; m < merchants; m++) {
      const email = `bench-schedules-${m}@example.com`;
      const key = newApiKey("write");
      const { merchantId, keyId } = await db.transaction().execute((trx) =>
        claimWithNewKey(trx, {
          email,
          actor: "operator",
          key: { ...apiKeyRecord(key), name: "bench" },
          requestId: null,
        }),
      );
      owners.push({ id: merchantId, email, keyId, key });
    }
    const rows = Array.from({ length: total }, (_, i) => {
      const owner = owners[i % owners.length];
      if (!owner) throw new Error("no merchant");
      return {
        merchant_id: owner.id,
        key_id: owner.keyId,
        template: JSON.stringify({
          merchant_email: owner.email,
          merchant_name: "Acme Ltd",
          merchant_address: "1 Market Street, San Francisco",
          vendor_email: `ap-${i}@globex.example`,
          vendor_name: "Globex Corporation",
          line_items: [{ description: "Monthly retainer", quantity: 1, unit_price: "1500.00" }],
          wallet_type: "managed",
        }),
        frequency: "monthly" as const,
        every_n_days: null,
        start_date: today,
        end_date: null,
        max_count: null,
        days_until_due: 30,
        next_issue_date: today,
      };
    });
    for (let i = 0; i < rows.length; i += 1_000)
      await db
        .insertInto("app.invoice_schedules")
        .values(rows.slice(i, i + 1_000))
        .execute();

    // A payment link to poll, as a checkout page does.
    const first = owners[0];
    if (!first) throw new Error("no merchant");
    const link = (await (
      await fetch(`${url}/api/links`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${first.key}` },
        body: JSON.stringify({
          merchant_email: first.email,
          amount: "5.00",
          description: "Poll",
          wallet_type: "managed",
        }),
      })
    ).json()) as { slug: string };
    const alone = summarize(await pollStatus(url, link.slug, 4, delay(pollSeconds * 1000)));

    // The worker, then its tick (what cron does at the minute): timed to the last invoice.
    worker = await startBenchWorker(env.settings, db);
    const issuedCount = async () =>
      Number(
        (
          await sql<{
            n: string;
          }>`select count(*)::text as n from app.invoices where schedule_id is not null`.execute(db)
        ).rows[0]?.n ?? 0,
      );
    const started = performance.now();
    await sql`select graphile_worker.add_job(${TASK.issueDueSchedules}, '{}'::json, job_key := ${TASK.issueDueSchedules})`.execute(
      db,
    );
    const allIssued = waitFor("every schedule issued", async () => (await issuedCount()) >= total, {
      timeoutMs: 4 * 60 * 60 * 1000,
      intervalMs: 250,
    });
    const during = summarize(await pollStatus(url, link.slug, 4, allIssued));
    const seconds = (performance.now() - started) / 1000;

    const check = (
      await sql<{ invoices: string; pdfs: string; emails: string; doubles: string }>`
        select count(*)::text as invoices,
          (select count(*) from app.invoices i where i.schedule_id is not null and (exists (select 1 from app.invoice_pdfs p where p.invoice_id = i.id) or exists (select 1 from graphile_worker.jobs j where j.key = 'pdf:invoice:' || i.id)))::text as pdfs,
          (select count(*) from app.emails e join app.invoices i on i.id = e.invoice_id where i.schedule_id is not null and e.kind = 'vendor_invoice')::text as emails,
          (select count(*) from (select schedule_id from app.invoices where schedule_id is not null group by schedule_id having count(*) > 1) d)::text as doubles
        from app.invoices where schedule_id is not null`.execute(db)
    ).rows[0];
    const rate = total / seconds;
    console.log(
      `\n# Invoice schedules: ${total} due at once (${merchants} merchants), issued by one worker`,
    );
    console.log(
      `issued ${check?.invoices} invoices in ${seconds.toFixed(1)} s (${rate.toFixed(1)}/s): ${check?.pdfs} PDFs (stored or their render queued), ${check?.emails} vendor emails queued, ${check?.doubles} schedules issued twice`,
    );
    console.log(
      `status poll p99 alone ${alone.p99.toFixed(1)} ms; during the run ${during.p99.toFixed(1)} ms`,
    );
    const complete =
      Number(check?.invoices) === total &&
      Number(check?.pdfs) === total &&
      Number(check?.emails) === total &&
      check?.doubles === "0";
    record({
      measure: `${total} schedules due at once: all issued (PDF, email queued)`,
      result: `${seconds.toFixed(1)} s, ${rate.toFixed(1)} invoices/s${complete ? "" : " (INCOMPLETE)"}`,
      baseline: "",
      ratio: "",
      goal: "every one, exactly once",
      met: complete,
      whyNot: "an invoice, its PDF or its email is missing, or a period was issued twice",
    });
    record({
      measure: "status poll p99: alone | while schedules issue",
      result: `${fmtMs(alone.p99)} | ${fmtMs(during.p99)}`,
      baseline: `alone ${fmtMs(alone.p99)}`,
      ratio: `${(during.p99 / alone.p99).toFixed(2)}×`,
      goal: "< 10 ms",
      met: during.p99 < 10,
      whyNot:
        "the worker's render threads and Postgres share the cores with the API: WORKER_SCHEDULES_CONCURRENCY and WORKER_RENDER_NICE trade issuing speed for the API's latency",
    });
  } finally {
    if (worker) await stopProcess(worker);
    await stopProcess(api);
    await db.destroy();
    await env.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchSchedules();
