// The start path before bundling (platform/start.ts through tsx, its children through tsx,
// Ponder building with Vite) against `npm start`'s (platform/launch.mjs: bundles, Ponder from
// them), alternated on one warm DATA_DIR so both meet the same load: for a shared machine,
// where two runs minutes apart do not compare. BENCH_AB_ROUNDS pairs (3).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "../internal/freePort.ts";
import { projectRoot } from "../internal/projectRoot.ts";
import { ensureBuilt } from "../platform/build.mjs";
import { npmStartNodeArgs } from "./startCommand.ts";
import { type Timed, timeProcess } from "./startup.ts";
import { summarize } from "./stats.ts";

const rounds = Number(process.env.BENCH_AB_ROUNDS ?? 3);
const dataDir = await mkdtemp(path.join(tmpdir(), "remit-bench-ab-"));
const { BASE_URL: _vite, REMIT_BUILD_DIR: _bundles, ...inherited } = process.env;
const env = {
  ...inherited,
  DATA_DIR: dataDir,
  PORT: String(await freePort()),
  ANVIL_PORT: String(await freePort()),
  EMBEDDED_PG_PORT: String(await freePort()),
  INDEXER_PORT: String(await freePort()),
  WORKER_METRICS_PORT: String(await freePort()),
};
const tsxArgs = [
  "--max-semi-space-size=1",
  "--import",
  "tsx",
  path.join(projectRoot, "platform/start.ts"),
];
await ensureBuilt();
try {
  await timeProcess(npmStartNodeArgs(), env, /ready in/); // warms DATA_DIR
  const runs: Record<"tsx" | "bundles", Timed[]> = { tsx: [], bundles: [] };
  for (let i = 0; i < rounds; i++) {
    runs.tsx.push(await timeProcess(tsxArgs, env, /ready in/));
    runs.bundles.push(await timeProcess(npmStartNodeArgs(), env, /ready in/));
  }
  const phases = [
    "modules_loaded",
    "children_spawned",
    "api_answering",
    "worker_ok",
    "indexer_ok",
    "ready",
  ];
  console.log(`phase p50 (ms since the supervisor started), ${rounds} alternated pairs`);
  console.log(`${"".padEnd(18)} ${"tsx + Vite".padStart(12)} ${"bundles".padStart(10)}`);
  for (const phase of phases) {
    const p50 = (list: Timed[]) =>
      summarize(list.flatMap((run) => (run.phases[phase] === undefined ? [] : [run.phases[phase]])))
        .p50;
    console.log(
      `${phase.padEnd(18)} ${String(p50(runs.tsx)).padStart(12)} ${String(p50(runs.bundles)).padStart(10)}`,
    );
  }
  const wall = (list: Timed[]) => summarize(list.map((run) => run.ms)).p50.toFixed(0);
  console.log(
    `${"spawn → ready".padEnd(18)} ${wall(runs.tsx).padStart(12)} ${wall(runs.bundles).padStart(10)}`,
  );
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
