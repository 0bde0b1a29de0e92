// Memory of the whole stack (`npm start`: supervisor, API, worker, indexer, embedded Postgres
// and its backends, anvil), idle and under load, as proportional set size (PSS: shared pages
// split between the processes sharing them, so Postgres's shared buffers count once).
// Baseline: an idle bare `node` process in the same run.
import { execFile, spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { promisify } from "node:util";
import autocannon from "autocannon";
import { freePort } from "../internal/freePort.ts";
import { stopProcess, waitFor } from "../internal/process.ts";
import { projectRoot } from "../internal/projectRoot.ts";
import { processTree } from "./processCpu.ts";
import { npmStartNodeArgs } from "./startCommand.ts";
import { summarize } from "./stats.ts";
import { record } from "./summary.ts";

const _run = promisify(execFile);
const loadSeconds = Number(process.env.BENCH_MEMORY_SECONDS ?? 15);
/**
 * The memory goal for the whole stack, idle: a 1 GB server with room to spare (docs/operations.md,
 * "Memory").
 */
const IDLE_GOAL_BYTES = 400 * 1024 * 1024;
/**
 * Idle means after start-up's connections and garbage are gone: pg pools close a connection
 * idle for 10 s (idleTimeoutMillis), and V8 collects start-up's garbage once allocation slows.
 */
const SETTLE_MS = Number(process.env.BENCH_MEMORY_SETTLE_MS ?? 15_000);

/** PSS in bytes of a process, 0 if it is gone. */
async function pss(pid: number): Promise<number> {
  const text = await readFile(`/proc/${pid}/smaps_rollup`, "utf8").catch(() => "");
  const kb = Number(text.match(/^Pss:\s+(\d+) kB/m)?.[1] ?? 0);
  return kb * 1024;
}

const treePss = async (root: number) =>
  (await Promise.all((await processTree(root)).map(pss))).reduce((a, b) => a + b, 0);

/** Which part of the stack a process is, by its command line. */
async function component(pid: number): Promise<string> {
  const command = (await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "")).replaceAll(
    "\0",
    " ",
  );
  // From bundles (platform/launch.mjs, …/server/main.mjs) or TypeScript (…/server/main.ts).
  if (/platform\/(start\.ts|launch\.mjs)/.test(command)) return "supervisor";
  if (command.includes("server/main.")) return "api (PDF threads included)";
  if (command.includes("worker/main.")) return "worker";
  if (command.includes("ponder.js")) return "indexer";
  if (command.includes("esbuild")) return "esbuild (Ponder's build service)";
  if (command.includes("anvil")) return "anvil";
  if (command.startsWith("postgres") || command.includes("/bin/postgres"))
    return "postgres (+ backends)";
  return "other";
}

/** PSS of the tree, by component. */
async function pssByComponent(root: number): Promise<Map<string, number>> {
  const totals = new Map<string, number>();
  for (const pid of await processTree(root)) {
    const name = await component(pid);
    totals.set(name, (totals.get(name) ?? 0) + (await pss(pid)));
  }
  return totals;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

export async function benchMemory(): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "remit-bench-memory-"));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const { BASE_URL: _vite, ...inherited } = process.env;
  const service = spawn(process.execPath, npmStartNodeArgs(), {
    cwd: projectRoot,
    env: {
      ...inherited,
      DATA_DIR: dataDir,
      PORT: String(port),
      BASE_URL: url,
      ANVIL_PORT: String(await freePort()),
      EMBEDDED_PG_PORT: String(await freePort()),
      INDEXER_PORT: String(await freePort()),
      LOG_LEVEL: "warn",
      // One client on loopback plays every visitor: lift the per-IP limits for the bench.
      RATE_LIMIT_STATUS_PER_MIN: "0",
      RATE_LIMIT_INVOICES_PER_MIN: "0",
      EMAILS_TO_OTHERS_PER_HOUR: "0",
      EMAILS_TO_OTHERS_PER_DAY: "0",
      RATE_LIMIT_LINKS_PER_MIN: "0",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  service.stdout.on("data", (chunk) => (output += chunk));
  const baseline = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], {
    cwd: projectRoot,
    stdio: "ignore",
  });
  try {
    await waitFor(
      "npm start to be ready",
      async () => {
        if (service.exitCode !== null) throw new Error(`npm start exited:\n${output}`);
        return (await fetch(`${url}/health`)).ok;
      },
      { timeoutMs: 120_000, intervalMs: 200 },
    );
    const root = service.pid ?? -1;
    // Let start-up garbage and connections settle before sampling idle.
    await delay(SETTLE_MS);
    const idle: number[] = [];
    for (let i = 0; i < 10; i++) {
      idle.push(await treePss(root));
      await delay(300);
    }
    const parts = await pssByComponent(root);
    const bare = await pss(baseline.pid ?? -1);

    const slugs: string[] = [];
    for (let i = 0; i < 200; i++) {
      const response = await fetch(`${url}/api/links`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          merchant_email: `memory-${i % 10}@example.com`,
          amount: "5.00",
          description: `Order ${i}`,
          wallet_type: "managed",
        }),
      });
      slugs.push(((await response.json()) as { slug: string }).slug);
    }
    const underLoad: number[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        underLoad.push(await treePss(root));
        await delay(500);
      }
    })();
    let creating = true;
    let created = 0;
    const creator = (async () => {
      while (creating) {
        const response = await fetch(`${url}/api/invoices`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            merchant_email: "memory-invoices@example.com",
            merchant_name: "Acme Ltd",
            merchant_address: "1 Market Street",
            vendor_email: "ap@globex.example",
            vendor_name: "Globex",
            line_items: [{ description: "Work", quantity: 1, unit_price: "10.00" }],
            issue_date: "2026-11-01",
            due_date: "2099-12-31",
            wallet_type: "managed",
          }),
        });
        await response.arrayBuffer();
        if (response.status === 201) created++;
      }
    })();
    let i = 0;
    const status = await autocannon({
      url,
      connections: 32,
      duration: loadSeconds,
      requests: [
        {
          method: "GET",
          setupRequest: (request) => ({
            ...request,
            path: `/api/payments/status/${slugs[i++ % slugs.length]}`,
          }),
        },
      ],
    });
    creating = false;
    sampling = false;
    await Promise.all([creator, sampler]);

    const idleSummary = summarize(idle);
    const loadSummary = summarize(underLoad);
    console.log(
      `\n# Memory of the whole stack (PSS of npm start's process tree; ${loadSeconds} s of load)`,
    );
    console.log(`baseline: idle bare node              ${mb(bare)}`);
    console.log(
      `idle                                   p50 ${mb(idleSummary.p50)}   goal < ${mb(IDLE_GOAL_BYTES)}: ${idleSummary.p50 < IDLE_GOAL_BYTES ? "met" : "NOT met"}`,
    );
    for (const [name, bytes] of [...parts].sort((a, b) => b[1] - a[1]))
      console.log(`  ${name.padEnd(36)} ${mb(bytes).padStart(7)}`);
    console.log(
      `under load (${status.requests.average.toFixed(0)} status req/s + ${(created / loadSeconds).toFixed(1)} invoices/s)  p50 ${mb(loadSummary.p50)}  peak ${mb(loadSummary.max)}`,
    );
    const largest = [...parts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([name, bytes]) => `${name} ${mb(bytes)}`)
      .join(", ");
    record({
      measure: "whole stack idle memory",
      result: mb(idleSummary.p50),
      baseline: `bare node ${mb(bare)}`,
      ratio: `${(idleSummary.p50 / bare).toFixed(1)}×`,
      goal: "< 400 MB",
      met: idleSummary.p50 < IDLE_GOAL_BYTES,
      whyNot: `the largest parts: ${largest} (by component above; docs/operations.md, "Memory")`,
      headline: "whole stack idle memory",
    });
    record({
      measure: "memory of the whole stack, under load",
      result: `p50 ${mb(loadSummary.p50)}, peak ${mb(loadSummary.max)} (${status.requests.average.toFixed(0)} req/s + ${(created / loadSeconds).toFixed(1)} invoices/s)`,
      baseline: `idle ${mb(idleSummary.p50)}`,
      ratio: `${(loadSummary.max / idleSummary.p50).toFixed(2)}×`,
      goal: "< 2 GB",
      met: loadSummary.max < 2 * 1024 ** 3,
    });
  } finally {
    baseline.kill();
    await stopProcess(service, "SIGINT", 60_000);
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchMemory();
