// Start-up as a new user gets it: `git clone` of this repository's committed HEAD into an empty
// directory, `npm ci` from npm's cache, the first `npm start` (a new DATA_DIR, nothing bundled:
// platform/build.mjs bundles at this start), then warm starts on that DATA_DIR and one more cold
// start (a new DATA_DIR, bundles kept). Nothing of the work tree's caches is reused but npm's
// package cache and V8's compile cache ($TMPDIR/node-compile-cache, per file contents).
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "../internal/freePort.ts";
import { projectRoot } from "../internal/projectRoot.ts";
import { COLD_GOAL_MS, printPhases, type Timed, timeProcess, WARM_GOAL_MS } from "./startup.ts";
import { printSummary } from "./stats.ts";
import { fmtMs, record } from "./summary.ts";

const warmRuns = Number(process.env.BENCH_FRESH_WARM_RUNS ?? 5);

/** Runs a command to its end; rejects with its output when it fails. */
function exec(command: string, args: string[], cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0
        ? resolve(performance.now() - started)
        : reject(new Error(`${command} ${args.join(" ")} exited ${code}:\n${output.slice(-2000)}`)),
    );
  });
}

/** The clone's own `npm start` arguments for node (its package.json, not the work tree's). */
async function startArgs(clone: string): Promise<string[]> {
  const { scripts } = JSON.parse(await readFile(path.join(clone, "package.json"), "utf8")) as {
    scripts: { start: string };
  };
  const words = scripts.start.trim().split(/\s+/);
  return words
    .slice(words.indexOf("node") + 1)
    .map((word) => (/\.(ts|mjs)$/.test(word) ? path.join(clone, word) : word));
}

async function ports(dataDir: string): Promise<NodeJS.ProcessEnv> {
  const { BASE_URL: _vite, REMIT_BUILD_CACHE: _cache, ...inherited } = process.env;
  return {
    ...inherited,
    DATA_DIR: dataDir,
    PORT: String(await freePort()),
    ANVIL_PORT: String(await freePort()),
    EMBEDDED_PG_PORT: String(await freePort()),
    INDEXER_PORT: String(await freePort()),
    WORKER_METRICS_PORT: String(await freePort()),
  };
}

export async function benchFreshClone(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), "remit-bench-clone-"));
  const clone = path.join(dir, "remit");
  console.log("\n# Fresh clone: git clone, npm ci (from npm's cache), first start, warm starts");
  try {
    const cloneMs = await exec("git", ["clone", "--quiet", projectRoot, clone], dir);
    const installMs = await exec(
      "npm",
      ["ci", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"],
      clone,
    );
    console.log(
      `git clone ${fmtMs(cloneMs)}; npm ci --prefer-offline ${(installMs / 1000).toFixed(1)} s`,
    );
    const args = await startArgs(clone);
    const dataDir = path.join(dir, "data");
    const env = await ports(dataDir);
    const first = await timeProcess(args, env, /ready in/, clone);
    const warm: Timed[] = [];
    for (let i = 0; i < warmRuns; i++) warm.push(await timeProcess(args, env, /ready in/, clone));
    const cold = await timeProcess(
      args,
      await ports(path.join(dir, "data-cold")),
      /ready in/,
      clone,
    );
    const bare = await timeProcess(["-e", "0"], env, undefined, clone);
    console.log(
      `first start (new DATA_DIR, bundles built)  ${first.ms.toFixed(0)} ms   goal < ${COLD_GOAL_MS} ms`,
    );
    console.log(`cold start (new DATA_DIR, bundles kept)    ${cold.ms.toFixed(0)} ms`);
    const w = printSummary(
      "warm start → ready",
      warm.map((run) => run.ms),
    );
    printPhases(first, warm);
    const whyNot =
      "CPU on 2 cores: the indexer (Ponder's ~2,500 modules) loads beside the API and the worker; the first start also bundles (phase `bundled`), initialises Postgres and runs Ponder's sync-store migrations (docs/architecture.md, \"Start-up\")";
    record({
      measure: "fresh clone: git clone, npm ci",
      result: `${fmtMs(cloneMs)}, ${(installMs / 1000).toFixed(1)} s`,
      baseline: "",
      ratio: "",
      goal: "",
    });
    record({
      measure: "warm start → ready, p50 (fresh clone)",
      result: `${(w.p50 / 1000).toFixed(2)} s (max ${(w.max / 1000).toFixed(2)} s; fresh clone)`,
      baseline: `bare node ${fmtMs(bare.ms)}`,
      ratio: `${(w.p50 / bare.ms).toFixed(0)}×`,
      goal: "< 3 s",
      met: w.p50 < WARM_GOAL_MS,
      whyNot,
      headline: "warm start → ready, p50",
    });
    record({
      measure: "first start after clone (new DATA_DIR, bundling)",
      result: `${(first.ms / 1000).toFixed(2)} s (fresh clone; with bundles kept: ${(cold.ms / 1000).toFixed(2)} s)`,
      baseline: `bare node ${fmtMs(bare.ms)}`,
      ratio: `${(first.ms / bare.ms).toFixed(0)}×`,
      goal: "< 6 s",
      met: first.ms < COLD_GOAL_MS,
      whyNot,
      headline: "cold start (new DATA_DIR)",
    });
  } catch (error) {
    const message = (error as Error).message.split("\n")[0] ?? "";
    console.log(`fresh clone not measured: ${(error as Error).message}`);
    record({
      measure: "fresh clone: start-up",
      result: `not measured: ${message}`,
      baseline: "",
      ratio: "",
      goal: "< 3 s warm, < 6 s cold",
      met: false,
      whyNot: (error as Error).message,
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchFreshClone();
