import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { setTimeout as delay } from "node:timers/promises";

/** Polls `probe` until it resolves truthy or `timeoutMs` passes. */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false>,
  { timeoutMs = 30_000, intervalMs = 50 } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      lastError = error;
    }
    await delay(intervalMs);
  }
  const reason = lastError instanceof Error ? `: ${lastError.message}` : "";
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${reason}`);
}

/** True while a process with this pid exists (signal 0 probes without killing). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Sends `signal` and waits for the process to exit, escalating to SIGKILL after `graceMs`. */
export async function stopProcess(
  child: ChildProcess,
  signal: NodeJS.Signals = "SIGTERM",
  graceMs = 10_000,
): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill(signal);
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
}

/** Spawns a long-running helper process whose output is prefixed and forwarded to ours. */
export function spawnLogged(
  command: string,
  args: string[],
  options: {
    env?: NodeJS.ProcessEnv;
    cwd?: string;
    uid?: number;
    gid?: number;
    /** Own process group: a terminal's Ctrl-C does not reach it; its owner stops it. */
    detached?: boolean;
    onLine?: (line: string) => void;
    /**
     * Sent to it if this process dies without stopping it (kill -9, an OOM kill): a server in
     * a process group of its own would otherwise outlive us, holding its port and its data
     * directory (stopWithParent).
     */
    stopWithParent?: NodeJS.Signals;
  } = {},
): ChildProcess {
  const child = spawn(command, args, {
    env: options.env ?? process.env,
    cwd: options.cwd,
    uid: options.uid,
    gid: options.gid,
    detached: options.detached,
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (options.stopWithParent) stopWithParent(child, options.stopWithParent);
  for (const stream of [child.stdout, child.stderr]) {
    let buffer = "";
    stream?.setEncoding("utf8");
    stream?.on("data", (chunk: string) => {
      buffer += chunk;
      let newline = buffer.indexOf("\n");
      while (newline >= 0) {
        options.onLine?.(buffer.slice(0, newline));
        buffer = buffer.slice(newline + 1);
        newline = buffer.indexOf("\n");
      }
    });
  }
  return child;
}

/**
 * A shell reading a pipe from us, which signals `child` when the pipe ends without a line:
 * the kernel closes our end whenever we die, a kill -9 included, so the child is stopped the
 * moment we are gone (its own signal handling, e.g. anvil's final state dump, runs as on a
 * stop of ours). Nothing polls. When the child exits first, a line tells the shell to leave
 * quietly (its pid may be another process's by the time we exit). Node's child processes
 * preload platform/exitWithParent.mjs instead; this is for the binaries (anvil, Postgres).
 */
function stopWithParent(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  const watchdog = spawn(
    "sh",
    [
      "-c",
      'read -r _ || kill -s "$2" "$1" 2>/dev/null',
      "remit-watchdog",
      String(child.pid),
      signal.replace(/^SIG/, ""),
    ],
    // Its own group: a Ctrl-C to ours must not end it before the child is stopped.
    { stdio: ["pipe", "ignore", "ignore"], detached: true },
  );
  watchdog.on("error", () => {});
  watchdog.stdin?.on("error", () => {});
  watchdog.unref();
  const pipe = watchdog.stdin as (NodeJS.WritableStream & { unref?: () => void }) | null;
  pipe?.unref?.();
  child.once("exit", () => {
    watchdog.stdin?.end("exited\n");
  });
}

/**
 * The live `npm start` (platform/start.ts) that owns `pid` as its child, or null: a server left
 * over from a crashed run has been re-parented, a server of a running one has not.
 */
export async function owningSupervisor(pid: number): Promise<number | null> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  // Field 4 is the parent pid; the command (field 2) may contain spaces, so count from ")".
  const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  if (!parent || parent <= 1 || parent === process.pid) return null;
  const command = await readFile(`/proc/${parent}/cmdline`, "utf8").catch(() => "");
  // `npm start` runs from bundles (platform/launch.mjs); tests may run platform/start.ts itself.
  return /platform\/(start\.ts|launch\.mjs)/.test(command) ? parent : null;
}

/**
 * When a process started, in Unix milliseconds, from /proc (Linux); null elsewhere or when it
 * is gone. `npm start` reports its start-up time from the moment the user's command started.
 */
export function processStartedAtMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Field 22 (starttime, in clock ticks since boot) counted after the ")" that ends the name.
    const ticks = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
    const bootSeconds = Number(/^btime (\d+)$/m.exec(readFileSync("/proc/stat", "utf8"))?.[1]);
    // USER_HZ is 100 on every Linux architecture Node runs on.
    const started = (bootSeconds + ticks / 100) * 1000;
    return Number.isFinite(started) ? started : null;
  } catch {
    return null;
  }
}
