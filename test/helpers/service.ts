import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { freePort } from "../../internal/freePort.ts";
import { waitFor } from "../../internal/process.ts";
import { projectRoot } from "../../internal/projectRoot.ts";
import { childEnv } from "./env.ts";

export type Service = { child: ChildProcess; output: () => string };

/**
 * `npm start`'s own process with `env` on top of ours: platform/launch.mjs, which runs
 * platform/start.ts and its children from bundles (platform/build.mjs), as `npm start` does.
 */
export function startService(env: NodeJS.ProcessEnv): Service {
  const child = spawn(process.execPath, [path.join(projectRoot, "platform/launch.mjs")], {
    cwd: projectRoot,
    env: childEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  return { child, output: () => output };
}

/** Waits for `pattern` in the service's output; on timeout the error carries the output. */
export async function waitForLine(
  service: Service,
  pattern: RegExp,
  timeoutMs = 90_000,
): Promise<void> {
  try {
    await waitFor(`${pattern} in the output`, async () => pattern.test(service.output()), {
      timeoutMs,
    });
  } catch (error) {
    throw new Error(`${(error as Error).message}\n--- output ---\n${service.output()}`);
  }
}

/** Resolves with the exit code once the process has exited. */
export function exitCode(service: Service): Promise<number | null> {
  if (service.child.exitCode !== null) return Promise.resolve(service.child.exitCode);
  return new Promise((resolve) => service.child.once("exit", resolve));
}

/** Private ports for everything `npm start` listens on, and the API's URL. */
export async function privatePorts(): Promise<{
  env: Record<
    | "PORT"
    | "ANVIL_PORT"
    | "EMBEDDED_PG_PORT"
    | "INDEXER_PORT"
    | "WORKER_METRICS_PORT"
    | "OPS_PORT",
    string
  >;
  apiUrl: string;
}> {
  const port = await freePort();
  return {
    apiUrl: `http://127.0.0.1:${port}`,
    env: {
      PORT: String(port),
      ANVIL_PORT: String(await freePort()),
      EMBEDDED_PG_PORT: String(await freePort()),
      INDEXER_PORT: String(await freePort()),
      WORKER_METRICS_PORT: String(await freePort()),
      OPS_PORT: String(await freePort()),
    },
  };
}

/** Our log lines (one JSON object each); Ponder's own lines are left out. */
export const logLines = (output: string): Record<string, unknown>[] =>
  output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });

/** Pids the supervisor logged for `component` (`indexer`, `api`, `worker`), in start order. */
export const childPids = (output: string, component: string): number[] =>
  logLines(output)
    .filter((line) => line.component === `remit/${component}` && line.msg === "started")
    .map((line) => Number(line.pid));
