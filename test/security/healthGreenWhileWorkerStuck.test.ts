import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import type { HealthReport } from "../../api/health.ts";
import { chainUrl } from "../helpers/chain.ts";
import { startCountingRpc } from "../helpers/countingRpc.ts";
import { startStack, type TestStack } from "../helpers/stack.ts";

/**
 * While trickling webhook receivers held every worker slot, /health
 * stayed green (the worker's heartbeat was fresh), and each hit of /health made two uncached
 * RPC calls, so a flood of /health requests was a flood on the operator's metered RPC. Now a
 * worker whose jobs are stuck or whose payment detection waits is reported, and the chain
 * probe is answered from a one-second cache.
 */
describe("attack: a stuck worker behind a green /health, and /health as an RPC amplifier", () => {
  let stack: TestStack;
  let rpc: Awaited<ReturnType<typeof startCountingRpc>>;

  beforeAll(async () => {
    rpc = await startCountingRpc(chainUrl());
    stack = await startStack({ rpcUrl: rpc.url });
  });
  afterAll(async () => {
    await stack?.stop();
    await rpc?.stop();
  });
  beforeEach(async () => {
    await sql`delete from graphile_worker._private_jobs`.execute(stack.db);
    // A live worker, as far as its heartbeat tells (no worker runs: the jobs below stay put).
    await sql`insert into app.heartbeats (component, instance, pid, worker_ids, beat_at)
      values ('worker', 'elsewhere:1', 1, '{pool-live}', now())
      on conflict (component, instance) do update set beat_at = now()`.execute(stack.db);
  });

  const health = async () => {
    const response = await stack.request("/health");
    return { status: response.status, body: (await response.json()) as HealthReport };
  };
  const addReconcile = (dueSecondsAgo: number) =>
    sql`select graphile_worker.add_job('reconcile_deposit', json_build_object('address', ${`0x${"ab".repeat(20)}`}::text), run_at => now() - make_interval(secs => ${dueSecondsAgo}))`.execute(
      stack.db,
    );

  test("a worker that beats but whose job has run for minutes is degraded", async () => {
    await addReconcile(0);
    await sql`update graphile_worker._private_jobs set locked_by = 'pool-live', locked_at = now() - interval '2 minutes'`.execute(
      stack.db,
    );
    const { status, body } = await health();
    expect(status).toBe(503);
    expect(body.components.worker).toMatchObject({
      ok: false,
      stuck_jobs: 1,
      error: expect.stringMatching(/jobs running for over 60 s/),
      last_beat_ms_ago: expect.any(Number),
    });
  });

  test("a worker that beats but leaves payment detection waiting is degraded", async () => {
    await addReconcile(10);
    const { status, body } = await health();
    expect(status).toBe(503);
    expect(body.components.worker).toMatchObject({ ok: false, stuck_jobs: 0 });
    expect(body.components.worker.oldest_waiting_reconcile_ms).toBeGreaterThanOrEqual(10_000);
    expect(body.components.worker.error).toMatch(/payment detection is waiting/);
  });

  test("a reconcile due a moment ago, or a job just started, is no alarm", async () => {
    await addReconcile(1);
    const { body } = await health();
    expect(body.components.worker).toMatchObject({ ok: true, stuck_jobs: 0 });
  });

  test("a flood of /health costs the RPC one call a second, not one per hit", async () => {
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const before = rpc.calls("eth_blockNumber");
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 50 }, () => health()));
    for (let i = 0; i < 20; i++) answers.push(await health());
    const seconds = Math.ceil((Date.now() - started) / 1000);
    expect(answers.every((answer) => answer.body.components.chain.ok)).toBe(true);
    // One probe per second of flood (plus one for a second boundary crossed mid-flood).
    expect(rpc.calls("eth_blockNumber") - before).toBeLessThanOrEqual(seconds + 1);
  });
});
