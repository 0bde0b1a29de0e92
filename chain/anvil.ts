import type { ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { BASE_CHAIN_ID, DEV_MNEMONIC } from "../domain/constants.ts";
import { holdsListeningPort } from "../internal/ports.ts";
import { spawnLogged, stopProcess, waitFor } from "../internal/process.ts";
import { rpcRequest } from "./rpc.ts";

const require = createRequire(import.meta.url);

/** Path of the anvil binary shipped by the `@foundry-rs/anvil-<platform>-<arch>` npm package. */
function anvilBinaryPath(): string {
  const arch = process.arch === "x64" ? "amd64" : process.arch;
  return require.resolve(`@foundry-rs/anvil-${process.platform}-${arch}/bin/anvil`);
}

export type AnvilOptions = {
  port: number;
  /** Seconds between blocks; 0 mines a block per transaction (automine). */
  blockTime: number;
  loadState?: string;
  dumpState?: string;
  /** Default: Base's 8453 (a fork keeps its upstream's). Tests set another to be refused. */
  chainId?: number;
  /** Fork this RPC instead of starting empty; the chain id is then the upstream's. */
  forkUrl?: string;
  forkBlockNumber?: number;
  onLine?: (line: string) => void;
  /**
   * Called as soon as the process exists, with what stops it: a stop requested while anvil
   * starts (a Ctrl-C or SIGTERM before `ready`) must reach it too, or it outlives the service
   * in its own process group.
   */
  onSpawned?: (stop: () => Promise<void>) => void;
};

export type Anvil = { url: string; port: number; process: ChildProcess; stop: () => Promise<void> };

/** Starts anvil as chain 8453 on loopback and resolves once it answers JSON-RPC. */
export async function startAnvil(options: AnvilOptions): Promise<Anvil> {
  const args = [
    "--host",
    "127.0.0.1",
    "--port",
    String(options.port),
    // A fork keeps its upstream's chain id, so the start-up check sees what the upstream is.
    ...(options.forkUrl ? [] : ["--chain-id", String(options.chainId ?? BASE_CHAIN_ID)]),
    "--mnemonic",
    DEV_MNEMONIC,
    // Anvil's own JSON logs of every call would drown the service's logs.
    "--silent",
  ];
  if (options.blockTime > 0) args.push("--block-time", String(options.blockTime));
  if (options.loadState) args.push("--load-state", options.loadState);
  if (options.dumpState)
    args.push("--dump-state", options.dumpState, "--preserve-historical-states");
  if (options.forkUrl) args.push("--fork-url", options.forkUrl);
  if (options.forkUrl && options.forkBlockNumber !== undefined)
    args.push("--fork-block-number", String(options.forkBlockNumber));

  // Its own process group: a Ctrl-C reaches the node processes, which stop first; then anvil.
  // Stopped with its state dumped if we die without stopping it (a kill -9 of the supervisor).
  // Its last lines say why it exits during start-up (a state file it cannot load, say).
  const lastLines: string[] = [];
  const child = spawnLogged(anvilBinaryPath(), args, {
    detached: true,
    onLine: (line) => {
      lastLines.push(line);
      if (lastLines.length > 5) lastLines.shift();
      options.onLine?.(line);
    },
    stopWithParent: "SIGINT",
  });
  options.onSpawned?.(() => stopProcess(child, "SIGINT"));
  const url = `http://127.0.0.1:${options.port}`;
  // "close", not "exit": its output has been read to the end by then.
  const exited = new Promise<never>((_, reject) =>
    child.once("close", (code, signal) =>
      reject(
        new Error(
          `anvil exited during start-up (code ${code}, signal ${signal})${lastLines.length ? `: ${lastLines.join(" / ").slice(0, 1000)}` : ""}`,
        ),
      ),
    ),
  );
  exited.catch(() => {});
  await Promise.race([
    exited,
    waitFor(`anvil on ${url}`, () => rpcRequest(url, "eth_chainId", []), {
      timeoutMs: 20_000,
      intervalMs: 25,
    }),
  ]);
  // The answer may have come from another program's chain (another Remit's anvil) on a port
  // ours could not bind: a chain of its own is the one our anvil process listens with.
  const ours =
    child.exitCode === null &&
    child.signalCode === null &&
    child.pid !== undefined &&
    (await holdsListeningPort(child.pid, options.port)) !== false;
  if (!ours) {
    await stopProcess(child, "SIGINT");
    throw new Error(
      `the chain answering on port ${options.port} is not the anvil started for it: another Remit or another program listens there; stop it, or set ANVIL_PORT to a free port`,
    );
  }
  // SIGINT makes anvil write --dump-state before exiting.
  return { url, port: options.port, process: child, stop: () => stopProcess(child, "SIGINT") };
}
