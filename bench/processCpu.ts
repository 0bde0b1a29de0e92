// Processes of a benchmark run and the CPU they use, from /proc: what a latency figure waited
// for when the cores were shared (the load generator is one of the sharers).
import { execFile, execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Clock ticks per second of /proc/<pid>/stat's CPU times. */
const ticksPerSecond = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU seconds (user + system, all its threads) a process has used so far; 0 if it is gone. */
export function cpuSeconds(pid: number): number {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return 0;
  }
  // utime and stime are fields 14 and 15 of stat, 12 and 13 after "pid (comm) ".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}

/** `root` and every descendant. */
export async function processTree(root: number): Promise<number[]> {
  const { stdout } = await run("ps", ["-e", "-o", "pid=,ppid="]);
  const children = new Map<number, number[]>();
  for (const line of stdout.trim().split("\n")) {
    const [pid, ppid] = line.trim().split(/\s+/).map(Number);
    if (pid && ppid !== undefined) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  const pids = [root];
  for (let i = 0; i < pids.length; i++) pids.push(...(children.get(pids[i] ?? -1) ?? []));
  return pids;
}

/** The command name of a process (`postgres`, `anvil`, `node`), "" if it is gone. */
function commandName(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, "utf8").trim();
  } catch {
    return "";
  }
}

/** Busy and total CPU seconds of the whole machine so far (/proc/stat's first line). */
function machineSeconds(): { busy: number; total: number } {
  const [, ...values] = (readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "")
    .trim()
    .split(/\s+/);
  const ticks = values.map(Number);
  const total = ticks.reduce((a, b) => a + b, 0);
  // idle and iowait are the 4th and 5th.
  const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
  return { busy: (total - idle) / ticksPerSecond, total: total / ticksPerSecond };
}

export type CpuUse = {
  /** Seconds of the work. */
  wall: number;
  /** Share of the machine's cores busy meanwhile, 0–1. */
  busy: number;
  /** CPU seconds by part: the named pids, "Postgres", "anvil", "load generator (this process)". */
  parts: Map<string, number>;
};

/**
 * CPU used by this process's tree while `work` runs, by part: the pids in `named` under their
 * names, the rest by command. A process that starts and ends within the work is not seen.
 */
export async function cpuDuring<T>(
  named: Record<string, number | undefined>,
  work: () => Promise<T>,
): Promise<{ result: T; cpu: CpuUse }> {
  const names = new Map(
    Object.entries(named).flatMap(([name, pid]) => (pid === undefined ? [] : [[pid, name]])),
  );
  const self = "load generator (this process)";
  const part = (pid: number) => {
    const name = names.get(pid);
    if (name) return name;
    if (pid === process.pid) return self;
    const command = commandName(pid);
    return command === "postgres" ? "Postgres" : command === "anvil" ? "anvil" : "other";
  };
  const snapshot = async () =>
    new Map((await processTree(process.pid)).map((pid) => [pid, cpuSeconds(pid)]));
  const before = await snapshot();
  const machineBefore = machineSeconds();
  const started = performance.now();
  const result = await work();
  const wall = (performance.now() - started) / 1000;
  const machineAfter = machineSeconds();
  const after = await snapshot();
  const parts = new Map<string, number>();
  for (const [pid, seconds] of after) {
    const name = part(pid);
    parts.set(name, (parts.get(name) ?? 0) + seconds - (before.get(pid) ?? 0));
  }
  const total = machineAfter.total - machineBefore.total;
  const busy = total > 0 ? (machineAfter.busy - machineBefore.busy) / total : 0;
  return { result, cpu: { wall, busy, parts } };
}

/** "cores 93 % busy: API 61 %, Postgres 22 %, …", each part as a share of one core. */
export function formatCpuUse(cpu: CpuUse, cores: number): string {
  const parts = [...cpu.parts]
    .filter(([, seconds]) => seconds > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([name, seconds]) => `${name} ${((100 * seconds) / cpu.wall).toFixed(0)} %`);
  return `${cores} cores ${(100 * cpu.busy).toFixed(0)} % busy over ${cpu.wall.toFixed(1)} s (of one core: ${parts.join(", ")})`;
}
