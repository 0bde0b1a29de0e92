import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { waitFor } from "../internal/process.ts";
import { projectRoot } from "../internal/projectRoot.ts";
import { stopTmux, tmux } from "./cli/run.ts";
import { childEnv } from "./helpers/env.ts";
import { privatePorts } from "./helpers/service.ts";

/** Every live process and its parent, from /proc (zombies count as gone: they hold nothing). */
function processTable(): Map<number, number> {
  const table = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // "pid (comm) state ppid …": comm may hold spaces and parentheses, so split after the last ")".
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (state !== "Z") table.set(Number(name), Number(ppid));
    } catch {
      // The process ended while we read.
    }
  }
  return table;
}

/** `pid` and everything below it. */
function processTree(pid: number): number[] {
  const table = processTable();
  const tree = [pid];
  for (let i = 0; i < tree.length; i++)
    for (const [child, parent] of table) if (parent === tree[i]) tree.push(child);
  return tree.filter((p) => table.has(p));
}

const canBind = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });

describe("stopping npm start: every way a user or a machine does it", () => {
  let dataDir: string;
  let ports: Awaited<ReturnType<typeof privatePorts>>;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "remit-signals-"));
    ports = await privatePorts();
    env = { DATA_DIR: dataDir, LOG_LEVEL: "info", ...ports.env };
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  /** Within 10 s of `stop`, no process of the service is left and every port binds again. */
  async function expectAllStopped(pids: number[]) {
    const gone = await waitFor(
      "every process of the service to exit",
      async () => pids.every((pid) => !processTable().has(pid)),
      { timeoutMs: 10_000, intervalMs: 100 },
    ).catch(() => false);
    const left = pids.filter((pid) => processTable().has(pid));
    expect(gone, `still running: ${left.join(", ")}`).toBe(true);
    for (const port of Object.values(ports.env).map(Number))
      expect(await canBind(port), `port ${port} still held`).toBe(true);
  }

  const waitReady = () =>
    waitFor(
      "the service to be healthy",
      async () => (await fetch(`${ports.apiUrl}/health`).catch(() => null))?.status === 200,
      { timeoutMs: 120_000, intervalMs: 200 },
    );

  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    test(`${signal} to npm start's own pid stops everything`, async () => {
      const npm = spawn("npm", ["start"], {
        cwd: projectRoot,
        env: childEnv(env),
        stdio: ["ignore", "ignore", "ignore"],
      });
      try {
        await waitReady();
        const pids = processTree(npm.pid as number);
        // npm, the supervisor, its three children, Postgres (and its backends), anvil.
        expect(pids.length).toBeGreaterThanOrEqual(7);
        npm.kill(signal);
        await expectAllStopped(pids);
      } finally {
        for (const pid of processTree(npm.pid as number)) process.kill(pid, "SIGKILL");
      }
    }, 180_000);
  }

  test("closing the terminal npm start runs in stops everything", async () => {
    const session = `remit-signals-${process.pid}`;
    // Only what a user's shell would have (PATH, HOME, Remit's settings): a tmux server started
    // from a test keeps that test's environment (Vite's BASE_URL=/ included) for new sessions.
    const exports = Object.entries({ PATH: process.env.PATH, HOME: process.env.HOME, ...env })
      .map(([key, value]) => `${key}='${value}'`)
      .join(" ");
    await tmux(session, [
      "new-session",
      "-d",
      "-s",
      session,
      "-c",
      projectRoot,
      `env -i ${exports} npm start`,
    ]);
    const shell = Number(
      (await tmux(session, ["display", "-p", "-t", session, "#{pane_pid}"])).stdout,
    );
    try {
      await waitReady().catch(async (error) => {
        const screen = await tmux(session, ["capture-pane", "-p", "-t", session, "-S", "-100"]);
        throw new Error(`${(error as Error).message}\n--- terminal ---\n${screen.stdout}`);
      });
      const pids = processTree(shell);
      expect(pids.length).toBeGreaterThanOrEqual(7);
      // tmux closes the pseudo-terminal: the kernel sends SIGHUP to its session, as a closed
      // terminal window or a dropped SSH connection does.
      await tmux(session, ["kill-session", "-t", session]);
      await expectAllStopped(pids);
    } finally {
      await stopTmux(session);
      for (const pid of processTree(shell)) process.kill(pid, "SIGKILL");
    }
  }, 180_000);
});
