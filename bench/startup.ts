// Time from `npm start` (platform/launch.mjs) to its `ready` line, cold (a new DATA_DIR) and on a
// warm DATA_DIR, against the start-up of a bare `node` process measured in the same run, and
// where the time went: the `phases` of each ready line (platform/startPhases.ts). The bundles
// are made first (as the first start after a clone makes them; bench/freshClone.ts times that).
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "../internal/freePort.ts";
import { projectRoot } from "../internal/projectRoot.ts";
import { ensureBuilt } from "../platform/build.mjs";
import { npmStartNodeArgs } from "./startCommand.ts";
import { printSummary, summarize } from "./stats.ts";
import { fmtMs, type Headline, record } from "./summary.ts";

const runs = Number(process.env.BENCH_STARTUP_RUNS ?? 5);
/** The start-up goals: a warm start ready within 3 s, a cold one (new DATA_DIR) within 6 s. */
export const WARM_GOAL_MS = 3_000;
export const COLD_GOAL_MS = 6_000;
/** From the start to payments being detected (`healthy`: the indexer caught up): within 5 s. */
export const DETECTED_GOAL_MS = 5_000;

/** `ms`: to the first pattern (`ready`); `at`: to each pattern, in order (`healthy` last). */
export type Timed = { ms: number; at: number[]; phases: Record<string, number> };

/** The `phases` of the `healthy` line, else the `ready` line (ms since the supervisor started). */
function readyPhases(output: string): Record<string, number> {
  const lines = output.split("\n");
  const line =
    lines.find((text) => text.includes("healthy in")) ??
    lines.find((text) => text.includes("ready in"));
  try {
    return (JSON.parse(line ?? "") as { phases?: Record<string, number> }).phases ?? {};
  } catch {
    return {};
  }
}

/**
 * Runs `node args` until each of `until` has been printed, in order (then SIGINT), or to its
 * exit; the time to each. A process that exits first, or takes over `timeoutMs`, rejects.
 */
export function timeProcess(
  args: string[],
  env: NodeJS.ProcessEnv,
  until: RegExp | RegExp[] = [],
  cwd = projectRoot,
  timeoutMs = 300_000,
): Promise<Timed> {
  const patterns = Array.isArray(until) ? until : [until];
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, {
      cwd,
      env,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    const at: number[] = [];
    const timer = setTimeout(() => child.kill("SIGINT"), timeoutMs);
    child.stdout.on("data", (chunk) => {
      output += chunk;
      if (!output.endsWith("\n")) return;
      while (at.length < patterns.length && patterns[at.length]?.test(output))
        at.push(performance.now() - started);
      if (patterns.length > 0 && at.length === patterns.length) child.kill("SIGINT");
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      if (at.length < patterns.length)
        reject(
          new Error(
            `exited (${code}) before ${patterns[at.length]}${performance.now() - started >= timeoutMs ? ` (stopped after ${timeoutMs} ms)` : ""}:\n${output.slice(-4_000)}`,
          ),
        );
      else
        resolve({
          ms: at[0] ?? performance.now() - started,
          at,
          phases: readyPhases(output),
        });
    });
  });
}

/** `npm start`'s two lines: the API and the worker serve, then payments are detected. */
export const READY_THEN_HEALTHY = [/ready in/, /healthy in/];

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
    console.log(
      `\n# npm start → ready → healthy (${runs} warm runs; the first, cold run warms DATA_DIR)`,
    );
    // A start that fails is a failed row, not the end of the run: the rows after it still run.
    const cold = await timeProcess(startArgs, env, READY_THEN_HEALTHY).catch(asError);
    const warm: Timed[] = [];
    const failures: Error[] = [];
    const baseline: number[] = [];
    for (let i = 0; i < runs; i++) {
      baseline.push((await timeProcess(["-e", "0"], env)).ms);
      const run = await timeProcess(startArgs, env, READY_THEN_HEALTHY).catch(asError);
      if (run instanceof Error) failures.push(run);
      else warm.push(run);
    }
    const b = printSummary("baseline: bare node", baseline);
    recordStartRows({ cold, warm, failures, bareMs: b.p50, where: "work tree" });
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

export const asError = (error: unknown) =>
  error instanceof Error ? error : new Error(String(error));

/**
 * From the spawn to payments being detected: the first /health 200 (every component up, the
 * indexer within 10 blocks of the head), which the `healthy` line follows after 1.2 s more of
 * 200s (platform/start.ts); both phases are in that line, in the supervisor's own clock.
 */
function detectedMs(run: Timed): number {
  const line = run.at[1] ?? run.ms;
  const { healthy, first_healthy: first } = run.phases;
  return healthy !== undefined && first !== undefined ? line - (healthy - first) : line;
}

const verdict = (ms: number, goal: number) => (ms < goal ? "met" : "NOT met");

/**
 * The start-up rows of the closing table from timed starts (bench/startup.ts, freshClone.ts):
 * warm `ready` (the API and the worker serve), warm `healthy` (payments are detected), cold.
 * A start that failed makes its row a failed one, with the first line of why.
 */
export function recordStartRows(runs: {
  cold: Timed | Error;
  warm: Timed[];
  failures: Error[];
  bareMs: number;
  where: string;
  coldMeasure?: string;
}): void {
  const { cold, warm, failures, bareMs, where } = runs;
  const firstLine = (error: Error) => error.message.split("\n")[0] ?? "";
  const failedNote = failures.length
    ? `; ${failures.length} of ${warm.length + failures.length} warm starts failed: ${firstLine(failures[0] as Error)}`
    : "";
  const why = startWhyNot(warm.length ? warm : cold instanceof Error ? [] : [cold]);
  const ready = warm.length ? summarize(warm.map((run) => run.ms)) : null;
  const healthy = warm.length ? summarize(warm.map(detectedMs)) : null;
  if (ready && healthy) {
    printSummary(
      "warm start → ready",
      warm.map((run) => run.ms),
    );
    printSummary("warm start → payments detected (first 200)", warm.map(detectedMs));
    printSummary(
      "warm start → `healthy` line",
      warm.map((run) => run.at[1] ?? run.ms),
    );
    console.log(
      `ratio warm ready p50 / bare node p50  ${(ready.p50 / bareMs).toFixed(1)}×   goal: < ${WARM_GOAL_MS} ms: ${verdict(ready.p50, WARM_GOAL_MS)}; healthy < ${DETECTED_GOAL_MS} ms: ${verdict(healthy.p50, DETECTED_GOAL_MS)}`,
    );
  }
  if (!(cold instanceof Error)) {
    console.log(
      `cold start (new DATA_DIR) → ready    ${cold.ms.toFixed(0)} ms   goal < ${COLD_GOAL_MS} ms: ${verdict(cold.ms, COLD_GOAL_MS)}; → healthy ${(cold.at[1] ?? cold.ms).toFixed(0)} ms`,
    );
    printPhases(cold, warm);
  }
  const warmRow = (
    measure: string,
    figure: ReturnType<typeof summarize> | null,
    goalMs: number,
    headline: Headline,
  ) =>
    record({
      measure: `${measure}, p50 (${where})`,
      result: figure
        ? `${(figure.p50 / 1000).toFixed(2)} s (max ${(figure.max / 1000).toFixed(2)} s${failedNote})`
        : `failed: ${firstLine(failures[0] ?? new Error("no run"))}`,
      baseline: `bare node ${fmtMs(bareMs)}`,
      ratio: figure ? `${(figure.p50 / bareMs).toFixed(0)}×` : "—",
      goal: `< ${goalMs / 1000} s`,
      met: figure !== null && failures.length === 0 && figure.p50 < goalMs,
      whyNot: failures.length
        ? `a start failed: ${firstLine(failures[0] as Error)}`
        : why(headline),
      headline,
    });
  warmRow(
    "warm start → ready (API and worker serve)",
    ready,
    WARM_GOAL_MS,
    "warm start → ready, p50",
  );
  warmRow(
    "warm start → payments detected (/health 200)",
    healthy,
    DETECTED_GOAL_MS,
    "warm start → payments detected, p50",
  );
  record({
    measure: runs.coldMeasure ?? `cold start (new DATA_DIR) → ready (${where})`,
    result:
      cold instanceof Error
        ? `failed: ${firstLine(cold)}`
        : `${(cold.ms / 1000).toFixed(2)} s (payments detected ${(detectedMs(cold) / 1000).toFixed(2)} s)`,
    baseline: `bare node ${fmtMs(bareMs)}`,
    ratio: cold instanceof Error ? "—" : `${(cold.ms / bareMs).toFixed(0)}×`,
    goal: "< 6 s",
    met: !(cold instanceof Error) && cold.ms < COLD_GOAL_MS,
    whyNot:
      cold instanceof Error
        ? `the start failed: ${firstLine(cold)}`
        : startWhyNot([cold])("cold start (new DATA_DIR)"),
    headline: "cold start (new DATA_DIR)",
  });
}

/**
 * What a start's time went on, from the p50 of the runs' phases (ms since the supervisor
 * started, platform/startPhases.ts): the supervisor up to spawning the API and the worker, those
 * two until both serve (`ready`), then the indexer, spawned at `ready`, until payments are
 * detected. The reason a start row prints when its goal is not met.
 */
export function startWhyNot(runs: Pick<Timed, "phases">[]): (goal: Headline) => string {
  const p50 = (name: string) => {
    const values = runs.flatMap((run) =>
      run.phases[name] === undefined ? [] : [run.phases[name]],
    );
    return values.length ? summarize(values).p50 : undefined;
  };
  const [loaded, spawned, answering, ready, live, detected] = [
    "modules_loaded",
    "children_spawned",
    "api_answering",
    "ready",
    "indexer_live",
    "indexer_ok",
  ].map(p50);
  if (spawned === undefined || ready === undefined) return () => "no phases were logged";
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const supervisor = `the supervisor spawned the API and the worker at ${s(spawned)} (its own modules ${loaded === undefined ? "?" : s(loaded)}, then Postgres, anvil and the migrations)`;
  const children = `they served at ${s(answering ?? ready)} (${s((answering ?? ready) - spawned)} of both loading beside each other on ${availableParallelism()} cores)`;
  const indexer =
    detected === undefined
      ? "the indexer never reported"
      : `the indexer, spawned at ready, detected payments ${s(detected - ready)} later: ${live === undefined ? "" : `${s(live - ready)} until its Ponder indexed live (loading its ~2,400 modules, then replaying the blocks it had not finalised), then ${s(detected - live)} to catch up with the head (Ponder waits for the chain's next block to sync the blocks since)`}`;
  return (goal) =>
    `measured (p50 of the phases): ${supervisor}; ${children}${goal === "warm start → ready, p50" ? "" : `; ${indexer}`}${goal === "cold start (new DATA_DIR)" ? "; cold adds initdb and Ponder's sync-store migrations" : ""}`;
}

/**
 * Where the time went: each phase's finish (ms since the supervisor process started), cold and
 * the warm runs' median, in the order they finished.
 */
function printPhases(cold: Timed, warm: Timed[]): void {
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
