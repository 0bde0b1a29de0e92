import type { ChildProcess } from "node:child_process";
import { prettyLogLine, resolveLogFormat } from "../internal/logFormat.ts";
import type { Logger } from "../internal/logger.ts";
import { spawnLogged, stopProcess } from "../internal/process.ts";
import { secretRedactor } from "../internal/redactSecrets.ts";
import { childLogLine } from "./childLogLine.ts";

/**
 * Children always write JSON to the pipe they share with this process (children.ts sets their
 * LOG_FORMAT); it is this process that writes to the terminal, in its own format.
 */
const childFormat = resolveLogFormat(process.env.LOG_FORMAT, process.stdout.isTTY === true);

export type ChildSpec = {
  name: string;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** Grace period on stop before SIGKILL. */
  stopTimeoutMs?: number;
  /** The signal that asks it to stop; SIGTERM unless it stops more cleanly on another. */
  stopSignal?: NodeJS.Signals;
  /** Sees each line of the child's output (it is passed through to ours as well). */
  onLine?: (line: string) => void;
  /**
   * A line that says the child can no longer make progress although it runs (Ponder retrying
   * an unrecoverable reorg every second, for ten minutes): the child is stopped, and restarted
   * after the backoff as if it had crashed.
   */
  stuckLine?: RegExp;
  /** Runs after the child died and before it is started again (e.g. to release its locks). */
  beforeRestart?: (deadPid: number | undefined) => Promise<void>;
};

/** Delay before the nth consecutive restart: 0.5 s doubling to 30 s. */
export function restartDelay(consecutiveFailures: number): number {
  return Math.min(30_000, 500 * 2 ** Math.max(0, consecutiveFailures - 1));
}

/** Children's lines pass through ours: masked like our own (RPC keys inside Ponder's errors). */
const redact = secretRedactor(process.env);

/** A run that lasted this long counts as healthy: the next failure starts the backoff over. */
const STABLE_AFTER_MS = 60_000;

/**
 * Keeps one child process running: a child that exits is logged and restarted after a backoff,
 * while the other children keep serving. Its output is passed through line by line.
 */
export class SupervisedChild {
  private child: ChildProcess | null = null;
  private stopping = false;
  private failures = 0;
  private restartTimer: NodeJS.Timeout | null = null;
  /** Why the running child is being stopped to be restarted, when we stop it ourselves. */
  private recycling: string | null = null;
  restarts = 0;

  constructor(
    private readonly spec: ChildSpec,
    private readonly log: Logger,
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): void {
    // A start put off (the indexer's, platform/start.ts) may come after a stop, or while the
    // child runs or waits for its restart: nothing then (the restart runs its clean-up first).
    if (this.stopping || this.child || this.restartTimer) return;
    const startedAt = Date.now();
    const child = spawnLogged(this.spec.command, this.spec.args, {
      env: this.spec.env,
      onLine: (line) => {
        this.spec.onLine?.(line);
        if (this.spec.stuckLine?.test(line) && this.child === child && !this.recycling)
          void this.restart("it cannot make progress", { line: line.slice(0, 300) });
        const json = redact(childLogLine(line, this.spec.name, new Date()));
        process.stdout.write(`${childFormat === "pretty" ? prettyLogLine(json) : json}\n`);
      },
    });
    this.child = child;
    this.log.info("started", { pid: child.pid });
    const pid = child.pid;
    child.once("exit", (code, signal) => {
      if (this.child === child) this.child = null;
      if (this.stopping) return;
      this.failures = Date.now() - startedAt > STABLE_AFTER_MS ? 1 : this.failures + 1;
      const delayMs = restartDelay(this.failures);
      if (this.recycling) this.log.info("stopped, restarting", { restart_in_ms: delayMs });
      else
        this.log.error("exited unexpectedly, restarting", { code, signal, restart_in_ms: delayMs });
      this.recycling = null;
      this.restartTimer = setTimeout(async () => {
        this.restartTimer = null;
        await this.spec
          .beforeRestart?.(pid)
          .catch((error) => this.log.warn("clean-up before restart failed", { error }));
        if (this.stopping) return;
        this.restarts++;
        this.start();
      }, delayMs);
    });
  }

  /**
   * Stops the running child to have it started again, after the same backoff as a crash (a
   * child restarted over and over for the same reason waits longer each time).
   */
  async restart(reason: string, fields: Record<string, unknown> = {}): Promise<void> {
    const child = this.child;
    if (!child || this.stopping || this.recycling) return;
    this.recycling = reason;
    this.log.error(`restarting: ${reason}`, fields);
    await stopProcess(child, this.spec.stopSignal ?? "SIGTERM", this.spec.stopTimeoutMs ?? 15_000);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    if (this.child)
      await stopProcess(
        this.child,
        this.spec.stopSignal ?? "SIGTERM",
        this.spec.stopTimeoutMs ?? 15_000,
      );
    this.log.info("stopped");
  }
}
