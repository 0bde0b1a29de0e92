import { run } from "graphile-worker";
import { createDb } from "../db/database.ts";
import { startHeartbeat } from "../db/heartbeat.ts";
import { createMailer } from "../email/mailer.ts";
import { parseEnv } from "../platform/env.ts";
import { createLogger } from "../platform/logger.ts";
import { createTaskList } from "./tasks/index.ts";

const log = createLogger("worker");
const env = parseEnv();
if (!env.DATABASE_URL) throw new Error("worker/main.ts needs DATABASE_URL (set by `npm start`)");

const db = createDb(env.DATABASE_URL);
const taskList = createTaskList({
  db,
  // Without a key the capture endpoint accepts any bearer token.
  mailer: createMailer({
    apiKey: env.SENDGRID_API_KEY ?? "SG.local-capture",
    baseUrl: env.SENDGRID_API_URL,
  }),
  emailFrom: env.EMAIL_FROM,
  baseUrl: env.BASE_URL,
  payUrl: env.PAY_URL,
});
const runner = await run({
  connectionString: env.DATABASE_URL,
  concurrency: 5,
  // We stop on signals ourselves, so the heartbeat is withdrawn after the last job finished.
  noHandleSignals: true,
  taskList,
});
const stopHeartbeat = startHeartbeat("worker", env.DATABASE_URL);
log.info("running", {
  tasks: Object.keys(taskList).join(","),
  email: env.outboxDir ? `outbox ${env.outboxDir}` : "SendGrid",
});

let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  log.info("stopping", { signal });
  // graphile-worker finishes the jobs in flight; one that outlives the supervisor's grace
  // period is killed and retried later (jobs are idempotent).
  await runner.stop();
  await stopHeartbeat();
  await db.destroy();
  process.exit(0);
};
process.on("SIGTERM", () => void stop("SIGTERM"));
process.on("SIGINT", () => void stop("SIGINT"));
await runner.promise;
