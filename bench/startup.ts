// Time from `npm start` (platform/start.ts) to its `ready` line, on a warm DATA_DIR, against
// the start-up of a bare `node --import tsx` process measured in the same run.
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "../internal/freePort.ts";
import { projectRoot } from "../internal/projectRoot.ts";
import { printSummary } from "./stats.ts";
import { fmtMs, record } from "./summary.ts";

const runs = Number(process.env.BENCH_STARTUP_RUNS ?? 5);

function timeProcess(args: string[], env: NodeJS.ProcessEnv, until?: RegExp): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, {
      cwd: projectRoot,
      env,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    let elapsed: number | undefined;
    child.stdout.on("data", (chunk) => {
      output += chunk;
      if (until && elapsed === undefined && until.test(output)) {
        elapsed = performance.now() - started;
        child.kill("SIGINT");
      }
    });
    child.once("exit", (code) => {
      if (until && elapsed === undefined)
        reject(new Error(`exited (${code}) before ready:\n${output}`));
      else resolve(elapsed ?? performance.now() - started);
    });
  });
}

export async function benchStartup(): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "remit-bench-start-"));
  const { BASE_URL: _vite, ...inherited } = process.env;
  const env = {
    ...inherited,
    DATA_DIR: dataDir,
    PORT: String(await freePort()),
    ANVIL_PORT: String(await freePort()),
    EMBEDDED_PG_PORT: String(await freePort()),
    INDEXER_PORT: String(await freePort()),
    WORKER_METRICS_PORT: String(await freePort()),
  };
  const startArgs = ["--import", "tsx", path.join(projectRoot, "platform/start.ts")];
  try {
    console.log(`\n# npm start → ready (${runs} warm runs; the first, cold run warms DATA_DIR)`);
    const cold = await timeProcess(startArgs, env, /ready in/);
    const warm: number[] = [];
    const baseline: number[] = [];
    for (let i = 0; i < runs; i++) {
      baseline.push(await timeProcess(["--import", "tsx", "-e", "0"], env));
      warm.push(await timeProcess(startArgs, env, /ready in/));
    }
    console.log(`cold start (new DATA_DIR)            ${cold.toFixed(0)} ms`);
    const w = printSummary("warm start → ready", warm);
    const b = printSummary("baseline: bare node --import tsx", baseline);
    console.log(
      `ratio warm p50 / baseline p50        ${(w.p50 / b.p50).toFixed(1)}×   goal: warm < 10,000 ms`,
    );
    record({
      measure: "start-up: npm start → ready",
      result: `warm p50 ${(w.p50 / 1000).toFixed(2)} s (max ${(w.max / 1000).toFixed(2)} s), cold ${(cold / 1000).toFixed(2)} s`,
      baseline: `bare node --import tsx ${fmtMs(b.p50)}`,
      ratio: `${(w.p50 / b.p50).toFixed(0)}×`,
      goal: "warm < 10 s",
    });
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchStartup();
