import { execFileSync, spawn } from "node:child_process";
import { mkdtemp, open, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Address } from "viem";
import { afterAll, expect } from "vitest";
import { isAlive, waitFor } from "../../internal/process.ts";
import { projectRoot } from "../../internal/projectRoot.ts";
import { createChain, devAccount } from "../helpers/chain.ts";
import { childEnv } from "../helpers/env.ts";
import { childPids, logLines, privatePorts, type Service } from "../helpers/service.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";

/**
 * Issue 40: `npm start` on the simulated chain, stopped or killed in every way a user or a
 * machine stops it, starts again, reaches `ready`, keeps what was detected and detects what
 * comes (the three localChain*.test.ts files; three files so that their stacks, minutes each,
 * run on both of the test run's workers). Time limits are upper bounds for a machine three times
 * slower than a busy CI runner; every wait is for an event.
 */
export const READY_MS = 300_000;
/** A payment is detected in about a second; a slow machine gets much more. */
export const DETECTED_MS = 45_000;
/**
 * An event that takes a second or two on a quiet machine (a child restarted or stopped after
 * its supervisor died, /health's answer to a dead chain, a state dump).
 */
export const EVENT_MS = 60_000;

/** `closed`: its output has been read to the end (it exited, and its pipes closed). */
export type Stack = Service & {
  dataDir: string;
  apiUrl: string;
  anvilUrl: string;
  closed: Promise<void>;
};

const stacks: Stack[] = [];
const dataDirs: string[] = [];

/** `npm start` in a process group of its own, as a terminal runs it: Ctrl-C reaches the group. */
export function launch(dataDir: string, env: Record<string, string>, apiUrl: string): Stack {
  const child = spawn(process.execPath, [path.join(projectRoot, "platform/launch.mjs")], {
    cwd: projectRoot,
    env: childEnv({ ...env, DATA_DIR: dataDir, LOG_LEVEL: "info" }),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const stack = {
    child,
    closed,
    output: () => output,
    dataDir,
    apiUrl,
    anvilUrl: `http://127.0.0.1:${env.ANVIL_PORT}`,
  };
  stacks.push(stack);
  return stack;
}

type Until = "ready" | "healthy";

export async function newStack(): Promise<{
  start: (until?: Until) => Promise<Stack>;
  dataDir: string;
}> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "remit-restart-"));
  dataDirs.push(dataDir);
  const { env, apiUrl } = await privatePorts();
  return { dataDir, start: (until = "healthy") => ready(launch(dataDir, env, apiUrl), until) };
}

/**
 * Waits for the stack's `healthy` line (every component up, the indexer caught up: what was
 * detected before a stop reads the same), or its `ready` line (the API and the worker serve).
 */
export async function ready(stack: Stack, until: Until = "healthy"): Promise<Stack> {
  await waitFor(
    `${until} in the output`,
    async () => {
      if (stack.child.exitCode !== null) {
        // Its last lines may still be in the pipe when it has exited: read to their end.
        await stack.closed;
        throw new Error(`exited (${stack.child.exitCode}) before ${until}:\n${stack.output()}`);
      }
      return new RegExp(`"msg":"${until} in`).test(stack.output());
    },
    { timeoutMs: READY_MS, intervalMs: 100 },
  ).catch((error: Error) => {
    throw new Error(`${error.message}\n--- output ---\n${stack.output().slice(-20_000)}`);
  });
  return stack;
}

export const exited = (stack: Stack): Promise<number | null> =>
  stack.child.exitCode !== null || stack.child.signalCode !== null
    ? Promise.resolve(stack.child.exitCode)
    : new Promise((resolve) => stack.child.once("exit", (code) => resolve(code)));

/** Every process of the stack: the supervisor's children, postgres, anvil. */
export async function processesOf(stack: Stack): Promise<number[]> {
  const pids = ["indexer", "api", "worker"].flatMap((name) => childPids(stack.output(), name));
  const anvil = Number(
    await readFile(path.join(stack.dataDir, "chain/anvil.pid"), "utf8").catch(() => ""),
  );
  const postgres = Number(
    (
      await readFile(path.join(stack.dataDir, "postgres/postmaster.pid"), "utf8").catch(() => "")
    ).split("\n")[0],
  );
  return [stack.child.pid as number, ...pids, anvil, postgres].filter((pid) => pid > 0);
}

/** Processes whose command line names the data directory (anvil's state, postgres' -D). */
export function psNaming(dataDir: string): string[] {
  const out = execFileSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" });
  return out.split("\n").filter((line) => line.includes(dataDir));
}

/** The shell that stops `pid` when its supervisor dies (internal/process.ts, stopWithParent). */
export function watchdogOf(pid: number): number {
  const out = execFileSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" });
  const line = out.split("\n").find((row) => row.includes(`remit-watchdog ${pid} `));
  if (!line) throw new Error(`no watchdog of ${pid}:\n${out}`);
  return Number(line.trim().split(" ")[0]);
}

export async function expectNothingLeft(stack: Stack, pids: number[]): Promise<void> {
  await waitFor("every process of the stack to exit", async () => pids.every((p) => !isAlive(p)), {
    timeoutMs: EVENT_MS,
    intervalMs: 100,
  }).catch(() => {
    throw new Error(`still running: ${pids.filter(isAlive).join(", ")}`);
  });
  expect(psNaming(stack.dataDir)).toEqual([]);
}

/** Stops it as a terminal's Ctrl-C does: SIGINT to its whole process group. */
export async function ctrlC(stack: Stack): Promise<void> {
  process.kill(-(stack.child.pid as number), "SIGINT");
  expect(await exited(stack)).toBe(0);
}

/** Stops it as systemd or `docker stop` does: SIGTERM to the main process alone. */
export async function sigterm(stack: Stack): Promise<void> {
  stack.child.kill("SIGTERM");
  expect(await exited(stack)).toBe(0);
}

export async function createInvoice(stack: Stack): Promise<{ id: string; address: Address }> {
  const response = await fetch(`${stack.apiUrl}/api/invoices`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(invoiceRequest()),
  });
  expect(response.status).toBe(201);
  const body = (await response.json()) as { invoice_id: string; deposit_address: Address };
  return { id: body.invoice_id, address: body.deposit_address };
}

export const statusOf = async (stack: Stack, id: string): Promise<string> =>
  ((await (await fetch(`${stack.apiUrl}/api/invoices/${id}/status`)).json()) as { status: string })
    .status;

/** Pays a new invoice in full on the stack's chain and waits for it to be detected. */
export async function payNewInvoice(stack: Stack): Promise<{ id: string; block: bigint }> {
  const invoice = await createInvoice(stack);
  const chain = createChain(stack.anvilUrl);
  const receipt = await chain.payUsdc(devAccount(1), invoice.address, 150_125_000n);
  await waitFor(
    "the payment to be detected",
    async () => (await statusOf(stack, invoice.id)) === "paid",
    { timeoutMs: DETECTED_MS, intervalMs: 100 },
  ).catch(async (error: Error) => {
    const status = await statusOf(stack, invoice.id);
    throw new Error(
      `${error.message} (status ${status})\n--- output ---\n${stack.output().slice(-30_000)}`,
    );
  });
  return { id: invoice.id, block: receipt.blockNumber };
}

export async function expectPaid(stack: Stack, ids: string[]): Promise<void> {
  const statuses = await Promise.all(ids.map((id) => statusOf(stack, id)));
  const unpaid = ids.filter((_, index) => statuses[index] !== "paid");
  if (unpaid.length)
    throw new Error(
      `not paid: ${unpaid.map((id) => `${id} (${statuses[ids.indexOf(id)]})`).join(", ")}\n--- output ---\n${stack.output().slice(-30_000)}`,
    );
}

/**
 * A start on a chain that forgot what was indexed: the index rebuilt, the payment the chain
 * holds still paid, the one it forgot taken back (reconcile derives the invoice from the
 * chain), a new payment detected, nothing left failing; then stopped.
 */
export async function expectRebuilt(stack: Stack, kept: string, forgotten: string): Promise<void> {
  expect(logLines(stack.output())).toContainEqual(
    expect.objectContaining({
      msg: "the local chain does not hold what was indexed; rebuilding the index from the chain",
    }),
  );
  await expectPaid(stack, [kept]);
  await waitFor(
    "the forgotten payment to be taken back",
    async () => (await statusOf(stack, forgotten)) !== "paid",
    { timeoutMs: DETECTED_MS, intervalMs: 100 },
  );
  await payNewInvoice(stack);
  await healthy(stack);
  await sigterm(stack);
}

/** /health answers 200 (every component, the relayer's sweeps included, is fine). */
export async function healthy(stack: Stack): Promise<void> {
  let last = "";
  await waitFor(
    "health to answer 200",
    async () => {
      const response = await fetch(`${stack.apiUrl}/health`);
      last = await response.text();
      return response.status === 200;
    },
    { timeoutMs: EVENT_MS, intervalMs: 250 },
  ).catch((error: Error) => {
    throw new Error(`${error.message}\n${last}\n--- output ---\n${stack.output().slice(-20_000)}`);
  });
}

/**
 * The chain's state saved whole (`chain/state.saved.json`, chain/savedState.ts) holds `block`:
 * its first field is the head block's, read from the file's first bytes (it is renamed into
 * place whole, never read half written).
 */
export async function stateSaved(stack: Stack, block: bigint): Promise<void> {
  const file = path.join(stack.dataDir, "chain/state.saved.json");
  await waitFor(
    `the chain's saved state to hold block ${block}`,
    async () => {
      const handle = await open(file).catch(() => null);
      if (!handle) return false;
      try {
        const { buffer, bytesRead } = await handle.read(Buffer.alloc(256), 0, 256, 0);
        const head = /"number":"(0x[0-9a-f]+)"/.exec(buffer.subarray(0, bytesRead).toString());
        return head?.[1] !== undefined && BigInt(head[1]) >= block;
      } finally {
        await handle.close();
      }
    },
    { timeoutMs: EVENT_MS, intervalMs: 50 },
  );
}

/** Registers, for the calling test file, the stop of every stack it started and its data. */
export function stopStacksAfterAll(): void {
  afterAll(stopStacks);
}

async function stopStacks(): Promise<void> {
  // Stopped as a user stops it, never with SIGKILL to the main process alone, which would
  // leave anvil (a process group of its own) running.
  for (const stack of stacks)
    if (stack.child.exitCode === null && stack.child.signalCode === null) {
      stack.child.kill("SIGTERM");
      await exited(stack);
    }
  for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
}
