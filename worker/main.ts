import { run } from "graphile-worker";
import { startHeartbeat } from "../db/heartbeat.ts";
import { parseEnv } from "../platform/env.ts";
import { createLogger } from "../platform/logger.ts";
import { taskList } from "./tasks/index.ts";

const log = createLogger("worker");
const env = parseEnv();
if (!env.DATABASE_URL) throw new Error("worker/main.ts needs DATABASE_URL (set by `npm start`)");

const runner = await run({
  connectionString: env.DATABASE_URL,
  concurrency: 5,
  // We stop on signals ourselves, so the heartbeat is withdrawn after the last job finished.
  noHandleSignals: true,
  taskList,
});
const stopHeartbeat = startHeartbeat("worker", env.DATABASE_URL);
log.info("running", { tasks: Object.keys(taskList).join(",") || "(none yet)" });

let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  log.info("stopping", { signal });
  // graphile-worker finishes the jobs in flight; one that outlives the supervisor's grace
  // period is killed and retried later (jobs are idempotent).
  await runner.stop();
  await stopHeartbeat();
  process.exit(0);
};
process.on("SIGTERM", () => void stop("SIGTERM"));
process.on("SIGINT", () => void stop("SIGINT"));
await runner.promise;
