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
import {
  asError,
  READY_THEN_HEALTHY,
  recordStartRows,
  type Timed,
  timeProcess,
} from "./startup.ts";
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
    // A start that fails is a failed row (recordStartRows), not the end of the run.
    const first = await timeProcess(args, env, READY_THEN_HEALTHY, clone).catch(asError);
    const warm: Timed[] = [];
    const failures: Error[] = [];
    for (let i = 0; i < warmRuns; i++) {
      const run = await timeProcess(args, env, READY_THEN_HEALTHY, clone).catch(asError);
      if (run instanceof Error) failures.push(run);
      else warm.push(run);
    }
    const cold = await timeProcess(
      args,
      await ports(path.join(dir, "data-cold")),
      READY_THEN_HEALTHY,
      clone,
    ).catch(asError);
    const bare = await timeProcess(["-e", "0"], env, undefined, clone);
    if (!(cold instanceof Error))
      console.log(
        `cold start (new DATA_DIR, bundles kept) → ready ${cold.ms.toFixed(0)} ms, → healthy ${(cold.at[1] ?? cold.ms).toFixed(0)} ms`,
      );
    record({
      measure: "fresh clone: git clone, npm ci",
      result: `${fmtMs(cloneMs)}, ${(installMs / 1000).toFixed(1)} s`,
      baseline: "",
      ratio: "",
      goal: "",
    });
    recordStartRows({
      cold: first,
      warm,
      failures,
      bareMs: bare.ms,
      where: "fresh clone",
      coldMeasure: "first start after clone (new DATA_DIR, bundling) → ready",
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
