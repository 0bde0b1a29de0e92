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
  // Migrations ran in `npm start` before the children started.
  noPreparedStatements: false,
  taskList,
});
const stopHeartbeat = startHeartbeat("worker", env.DATABASE_URL);
log.info("running", { tasks: Object.keys(taskList).join(",") || "(none yet)" });
await runner.promise;
await stopHeartbeat();
