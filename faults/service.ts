import { type ChildProcess, execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { isAlive, stopProcess, waitFor } from "../internal/process.ts";
import { sendGridSettings, startSendGridStandIn } from "../test/helpers/sendGridStandIn.ts";
import { privatePorts, startService as startNpmStart } from "../test/helpers/service.ts";

const run = promisify(execFile);

export type Component = "api" | "worker" | "indexer";

export type Service = {
  apiUrl: string;
  databaseUrl: string;
  dataDir: string;
  supervisor: ChildProcess;
  /** The live pid of a supervised component, read from the process table. */
  pidOf: (component: Component | "postgres") => Promise<number>;
  /** Every pid of the service's process tree (for a leak check after stopping). */
  treePids: () => Promise<number[]>;
  output: () => string;
  stop: () => Promise<void>;
};

const MARKERS: Record<Component, string> = {
  // The source under `tsx`, or its bundle (platform/build.mjs: `…/server/main.mjs`) under npm start.
  api: "server/main.",
  worker: "worker/main.",
  indexer: "ponder.js",
};

/**
 * `npm start` exactly as an operator runs it (platform/start.ts, the real supervisor), on
 * private ports, an embedded Postgres in a fresh DATA_DIR and the given chain.
 */
export async function startService(env: NodeJS.ProcessEnv): Promise<Service> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "remit-faults-"));
  const { env: ports, apiUrl } = await privatePorts();
  // Mainnet mode requires SendGrid: a stand-in writing where the local capture would, so the
  // audit reads the emails from DATA_DIR/outbox in every mode.
  const sendGrid = await startSendGridStandIn(path.join(dataDir, "outbox"));
  const { child: supervisor, output } = startNpmStart({
    DATA_DIR: dataDir,
    BASE_URL: apiUrl,
    ...ports,
    ...(env.BASE_RPC_URL ? sendGridSettings(sendGrid.apiUrl) : {}),
    ...env,
  });

  const children = async (parent: number): Promise<{ pid: number; args: string }[]> => {
    const { stdout } = await run("ps", ["-o", "pid=,args=", "--ppid", String(parent)]).catch(
      () => ({ stdout: "" }),
    );
    return stdout
      .split("\n")
      .map((line) => line.trim().match(/^(\d+)\s+(.*)$/))
      .filter((match): match is RegExpMatchArray => match !== null)
      .map((match) => ({ pid: Number(match[1]), args: match[2] ?? "" }));
  };

  const pidOf = async (component: Component | "postgres"): Promise<number> => {
    if (component === "postgres") {
      const text = await readFile(path.join(dataDir, "postgres", "postmaster.pid"), "utf8");
      return Number(text.split("\n")[0]);
    }
    const pid = (await children(supervisor.pid ?? -1)).find((child) =>
      child.args.includes(MARKERS[component]),
    )?.pid;
    if (!pid) throw new Error(`no running ${component}`);
    return pid;
  };

  const treePids = async (): Promise<number[]> => {
    const pids: number[] = [];
    const queue = [supervisor.pid ?? -1];
    while (queue.length) {
      for (const child of await children(queue.shift() ?? -1)) {
        pids.push(child.pid);
        queue.push(child.pid);
      }
    }
    return pids;
  };

  const service: Service = {
    apiUrl,
    databaseUrl: `postgres://postgres:postgres@127.0.0.1:${ports.EMBEDDED_PG_PORT}/remit`,
    dataDir,
    supervisor,
    pidOf,
    treePids,
    output,
    stop: async () => {
      const postgres = await pidOf("postgres").catch(() => 0);
      await stopProcess(supervisor, "SIGINT", 60_000);
      await sendGrid.stop();
      if (postgres) await waitFor("postgres to stop", async () => !isAlive(postgres));
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  try {
    await waitFor(
      "the service to be healthy",
      async () => {
        if (supervisor.exitCode !== null) throw new Error("npm start exited");
        return /healthy in/.test(output());
      },
      { timeoutMs: 120_000, intervalMs: 100 },
    );
  } catch (error) {
    await service.stop().catch(() => {});
    throw new Error(`${(error as Error).message}\n--- output ---\n${output().slice(-20_000)}`);
  }
  return service;
}
