// Time from `npm start` (platform/launch.mjs) to its `ready` line, cold (a new DATA_DIR) and on a
// warm DATA_DIR, against the start-up of a bare `node` process measured in the same run, and
// where the time went: the `phases` of each ready line (platform/startPhases.ts). The bundles
// are made first (as the first start after a clone makes them; bench/freshClone.ts times that).
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "../internal/freePort.ts";
import { projectRoot } from "../internal/projectRoot.ts";
import { ensureBuilt } from "../platform/build.mjs";
import { npmStartNodeArgs } from "./startCommand.ts";
import { printSummary, summarize } from "./stats.ts";
import { fmtMs, record } from "./summary.ts";

const runs = Number(process.env.BENCH_STARTUP_RUNS ?? 5);
/** The start-up goals: a warm start ready within 3 s, a cold one (new DATA_DIR) within 6 s. */
export const WARM_GOAL_MS = 3_000;
export const COLD_GOAL_MS = 6_000;

export type Timed = { ms: number; phases: Record<string, number> };

/** The `phases` of a `ready` line (ms since the supervisor started), or none. */
function readyPhases(output: string): Record<string, number> {
  const line = output.split("\n").find((text) => text.includes("ready in"));
  try {
    return (JSON.parse(line ?? "") as { phases?: Record<string, number> }).phases ?? {};
  } catch {
    return {};
  }
}

export function timeProcess(
  args: string[],
  env: NodeJS.ProcessEnv,
  until?: RegExp,
  cwd = projectRoot,
): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, {
      cwd,
      env,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    let elapsed: number | undefined;
    child.stdout.on("data", (chunk) => {
      output += chunk;
      if (until && elapsed === undefined && until.test(output) && output.endsWith("\n")) {
        elapsed = performance.now() - started;
        child.kill("SIGINT");
      }
    });
    child.once("exit", (code) => {
      if (until && elapsed === undefined)
        reject(new Error(`exited (${code}) before ready:\n${output}`));
      else resolve({ ms: elapsed ?? performance.now() - started, phases: readyPhases(output) });
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
  const startArgs = npmStartNodeArgs();
  // Bundled once before timing: every start after the first finds them (freshClone times that).
  await ensureBuilt();
  try {
    console.log(`\n# npm start → ready (${runs} warm runs; the first, cold run warms DATA_DIR)`);
    const cold = await timeProcess(startArgs, env, /ready in/);
    const warm: Timed[] = [];
    const baseline: number[] = [];
    for (let i = 0; i < runs; i++) {
      baseline.push((await timeProcess(["-e", "0"], env)).ms);
      warm.push(await timeProcess(startArgs, env, /ready in/));
    }
    const verdict = (ms: number, goal: number) => (ms < goal ? "met" : "NOT met");
    console.log(
      `cold start (new DATA_DIR)            ${cold.ms.toFixed(0)} ms   goal < ${COLD_GOAL_MS} ms: ${verdict(cold.ms, COLD_GOAL_MS)}`,
    );
    const w = printSummary(
      "warm start → ready",
      warm.map((run) => run.ms),
    );
    const b = printSummary("baseline: bare node", baseline);
    console.log(
      `ratio warm p50 / baseline p50        ${(w.p50 / b.p50).toFixed(1)}×   goal: warm p50 < ${WARM_GOAL_MS} ms: ${verdict(w.p50, WARM_GOAL_MS)}`,
    );
    printPhases(cold, warm);
    const whyNot =
      "CPU on 2 cores: the indexer (Ponder's ~2,500 modules, viem's 1,100 of them) loads beside the API and the worker (phases above; cold adds initdb and Ponder's sync-store migrations); a bundled Ponder is what is left to try (docs/architecture.md, \"Start-up\")";
    record({
      measure: "start-up: npm start → ready (work tree)",
      result: `warm p50 ${(w.p50 / 1000).toFixed(2)} s (max ${(w.max / 1000).toFixed(2)} s), cold ${(cold.ms / 1000).toFixed(2)} s`,
      baseline: `bare node ${fmtMs(b.p50)}`,
      ratio: `${(w.p50 / b.p50).toFixed(0)}×`,
      goal: `warm p50 < 3 s (${verdict(w.p50, WARM_GOAL_MS)}), cold < 6 s (${verdict(cold.ms, COLD_GOAL_MS)})`,
      met: w.p50 < WARM_GOAL_MS && cold.ms < COLD_GOAL_MS,
      whyNot,
    });
    record({
      measure: "warm start → ready, p50 (work tree)",
      result: `${(w.p50 / 1000).toFixed(2)} s (max ${(w.max / 1000).toFixed(2)} s; work tree)`,
      baseline: `bare node ${fmtMs(b.p50)}`,
      ratio: `${(w.p50 / b.p50).toFixed(0)}×`,
      goal: "< 3 s",
      met: w.p50 < WARM_GOAL_MS,
      whyNot,
      headline: "warm start → ready, p50",
    });
    record({
      measure: "cold start (new DATA_DIR; work tree)",
      result: `${(cold.ms / 1000).toFixed(2)} s (work tree)`,
      baseline: `bare node ${fmtMs(b.p50)}`,
      ratio: `${(cold.ms / b.p50).toFixed(0)}×`,
      goal: "< 6 s",
      met: cold.ms < COLD_GOAL_MS,
      whyNot,
      headline: "cold start (new DATA_DIR)",
    });
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * Where the time went: each phase's finish (ms since the supervisor process started), cold and
 * the warm runs' median, in the order they finished.
 */
export function printPhases(cold: Timed, warm: Timed[]): void {
  const names = Object.keys(cold.phases).length
    ? Object.keys(cold.phases)
    : Object.keys(warm[0]?.phases ?? {});
  if (names.length === 0) return;
  const warmP50 = (name: string) =>
    summarize(warm.flatMap((run) => (run.phases[name] === undefined ? [] : [run.phases[name]])))
      .p50;
  console.log("phase finished at (ms since the supervisor started)   cold    warm p50");
  for (const name of names.sort((a, b) => (cold.phases[a] ?? 0) - (cold.phases[b] ?? 0)))
    console.log(
      `  ${name.padEnd(50)} ${String(cold.phases[name] ?? "-").padStart(6)}  ${String(warmP50(name)).padStart(8)}`,
    );
}

if (import.meta.url === `file://${process.argv[1]}`) await benchStartup();
