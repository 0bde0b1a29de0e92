// The CLI's start-up (issue 42): `remit --version` and `remit invoices list`, from spawning
// `node cli/remit.mjs` to its exit, against a bare `node -e 0` measured interleaved in the same
// run, and the CPU time each used (separate runs; the figure a busy machine does not inflate).
// Warm: the CLI's bundle made and V8's compile cache filled by untimed runs first (every
// command after the first one after a change runs so). `invoices list` asks a stub API that
// answers a page of three invoices at once, on loopback, in this process: the figure is the
// CLI's (start, one request, a table), not the API's. Then once "after a change": the first
// command with an empty bundle cache, bundling included (cli/build.mjs).
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "../internal/freePort.ts";
import { projectRoot } from "../internal/projectRoot.ts";
import { printSummary, summarize } from "./stats.ts";
import { fmtMs, record } from "./summary.ts";

const runs = Number(process.env.BENCH_CLI_RUNS ?? 15);
/** The goal: a warm command starts, does its work and exits in under 300 ms (p50). */
export const CLI_WARM_GOAL_MS = 300;

const remit = path.join(projectRoot, "cli/remit.mjs");

/**
 * Loaded with `--import` in the runs that count CPU: the process's own user + system CPU time
 * at its exit, written to file descriptor 3. Separate runs: the wall times are of `node` as a
 * person runs it, nothing added.
 */
const CPU_AT_EXIT = `data:text/javascript,${encodeURIComponent(
  'import { writeSync } from "node:fs"; process.on("exit", () => { const u = process.cpuUsage(); try { writeSync(3, String((u.user + u.system) / 1000)); } catch {} });',
)}`;

/**
 * Runs node with `args` to its exit: its wall time, or with `cpu` the CPU time it used (the
 * figure a busy machine does not inflate). Rejects when it fails.
 */
function timeNode(args: string[], env: NodeJS.ProcessEnv, cpu = false): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, cpu ? ["--import", CPU_AT_EXIT, ...args] : args, {
      cwd: projectRoot,
      env,
      stdio: ["pipe", "pipe", "pipe", "pipe"],
    });
    let output = "";
    let cpuMs = "";
    child.stdout?.on("data", (chunk) => (output += chunk));
    child.stderr?.on("data", (chunk) => (output += chunk));
    child.stdio[3]?.on("data", (chunk) => (cpuMs += chunk));
    child.stdin?.end();
    child.once("error", reject);
    child.once("close", (code) => {
      const ms = performance.now() - started;
      if (code === 0) resolve(cpu ? Number(cpuMs) : ms);
      else reject(new Error(`node ${args.join(" ")} exited ${code}:\n${output.slice(-2000)}`));
    });
  });
}

const invoice = (n: number) => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  invoice_number: `INV-000${n}`,
  status: "open",
  total: "150.00",
  amount_paid: "0.00",
  vendor_name: "Globex",
  vendor_email: "ap@globex.example",
  due_date: "2030-12-31",
  created_at: "2030-01-01T00:00:00.000Z",
});

/** A stub of GET /api/invoices: one page of three invoices, at once. */
async function stubApi(): Promise<{ url: string; close: () => Promise<void> }> {
  const port = await freePort();
  const page = JSON.stringify({ data: [3, 2, 1].map(invoice), next_cursor: null });
  const server = createServer((request, response) => {
    if (request.url?.startsWith("/api/invoices")) {
      response.writeHead(200, { "content-type": "application/json" }).end(page);
    } else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export async function benchCliStartup(): Promise<void> {
  const api = await stubApi();
  const { BASE_URL: _vite, ...inherited } = process.env;
  const env: NodeJS.ProcessEnv = {
    ...inherited,
    REMIT_API_URL: api.url,
    REMIT_API_KEY: "rk_test_bench",
    NO_COLOR: "1",
  };
  const commands = {
    "remit --version": [remit, "--version"],
    "remit invoices list": [remit, "invoices", "list"],
  };
  const emptyCache = await mkdtemp(path.join(tmpdir(), "remit-bench-cli-cache-"));
  try {
    console.log(
      `\n# CLI start-up: spawn → exit (${runs} warm runs each, interleaved with a bare node; load average ${loadavg()[0]?.toFixed(1)})`,
    );
    // Untimed: bundles made if stale, compile cache filled.
    for (const args of Object.values(commands))
      for (let i = 0; i < 2; i++) await timeNode(args, env);
    const baseline: number[] = [];
    const warm: Record<string, number[]> = Object.fromEntries(
      Object.keys(commands).map((name) => [name, []]),
    );
    const cpu: Record<string, number[]> = Object.fromEntries(
      ["bare", ...Object.keys(commands)].map((name) => [name, []]),
    );
    for (let i = 0; i < runs; i++) {
      baseline.push(await timeNode(["-e", "0"], env));
      for (const [name, args] of Object.entries(commands))
        warm[name]?.push(await timeNode(args, env));
    }
    for (let i = 0; i < runs; i++) {
      cpu.bare?.push(await timeNode(["-e", "0"], env, true));
      for (const [name, args] of Object.entries(commands))
        cpu[name]?.push(await timeNode(args, env, true));
    }
    const b = printSummary("baseline: bare node -e 0", baseline);
    const summaries = Object.entries(warm).map(
      ([name, samples]) => [name, printSummary(name, samples)] as const,
    );
    const cpuP50 = (name: string) => summarize(cpu[name] ?? []).p50;
    console.log(
      `CPU time, p50 (user + system)      bare node ${fmtMs(cpuP50("bare"))}, ${Object.keys(
        commands,
      )
        .map((name) => `${name} ${fmtMs(cpuP50(name))}`)
        .join(", ")}`,
    );
    // After a change: no bundle in the cache, so this command bundles first.
    const cold = await timeNode(commands["remit --version"], {
      ...env,
      REMIT_BUILD_CACHE: emptyCache,
    });
    console.log(`remit --version, after a change (bundles first)   ${fmtMs(cold)}`);
    const load = loadavg()[0] ?? 0;
    const whyNot = (name: string) =>
      `a bare node took ${fmtMs(b.p50)} in this run (load average ${load.toFixed(1)} on ${availableParallelism()} cores): the command used ${fmtMs(cpuP50(name))} of CPU against a bare node's ${fmtMs(cpuP50("bare"))}, the rest of its time was waiting for a core; on a quiet machine it takes about its CPU time. Profile with \`node --cpu-prof cli/remit.mjs …\``;
    for (const [name, s] of summaries) {
      const met = s.p50 < CLI_WARM_GOAL_MS;
      console.log(
        `${name}: warm p50 ${fmtMs(s.p50)}, goal < ${CLI_WARM_GOAL_MS} ms: ${met ? "met" : "not met"}`,
      );
      record({
        measure: `CLI start-up: ${name}, warm p50`,
        result: `${fmtMs(s.p50)} (max ${fmtMs(s.max)}; CPU ${fmtMs(cpuP50(name))})`,
        baseline: `bare node ${fmtMs(b.p50)} (CPU ${fmtMs(cpuP50("bare"))})`,
        ratio: `${(s.p50 / b.p50).toFixed(1)}×`,
        goal: `< ${CLI_WARM_GOAL_MS} ms`,
        met,
        whyNot: whyNot(name),
        ...(name === "remit invoices list"
          ? { headline: "CLI start-up (remit invoices list), warm p50" as const }
          : {}),
      });
    }
    record({
      measure: "CLI: remit --version after a change (bundles)",
      result: fmtMs(cold),
      baseline: `bare node ${fmtMs(b.p50)}`,
      ratio: `${(cold / b.p50).toFixed(0)}×`,
      goal: "",
    });
  } finally {
    await api.close();
    await rm(emptyCache, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { formatSummary, recorded } = await import("./summary.ts");
  await benchCliStartup();
  console.log(`\n${formatSummary(recorded())}`);
}
