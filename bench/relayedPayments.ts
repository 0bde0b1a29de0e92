// The set-up the benchmarks of relayed payments share (the wallet checkout's gasless path and
// x402): the service at 1 s blocks with its relayer, sweeps off so that only the payments
// measured use the relayer, a payer holding USDC and no ETH, and the baseline every payment waits
// for — a plain USDC transfer from sending to its receipt.
import { createPublicClient, createWalletClient, http, type TransactionReceipt } from "viem";
import { base } from "viem/chains";
import { usdcAbi } from "../abis/usdc.ts";
import { devAccount } from "../chain/deployUsdc.ts";
import { rpcRequest } from "../chain/rpc.ts";
import { USDC_ADDRESS } from "../domain/constants.ts";
import { freePort } from "../internal/freePort.ts";
import { relayerAccount } from "../keys/relayer.ts";
import { benchEnvironment } from "./environment.ts";
import { startServiceProcesses } from "./serviceProcesses.ts";

type Service = Awaited<ReturnType<typeof startServiceProcesses>>;
const chainClient = (rpcUrl: string) =>
  createPublicClient({ chain: base, transport: http(rpcUrl) });

/**
 * Starts the service (API, worker, indexer) on a fresh chain with 1 s blocks, with `env` on top
 * of the shared settings, and runs `measure` against it; stops everything afterwards.
 */
export async function withRelayedPaymentService<T>(
  env: Record<string, string>,
  measure: (context: {
    apiUrl: string;
    rpcUrl: string;
    databaseUrl: string;
    relayer: `0x${string}`;
    client: ReturnType<typeof chainClient>;
    /** A payer holding USDC and no ETH at all: only the relayer can pay gas. */
    payer: ReturnType<typeof devAccount>;
    /** The baseline: a plain USDC transfer from sending to its receipt (ms, and the receipt). */
    plainTransfer: () => Promise<{ ms: number; receipt: TransactionReceipt }>;
  }) => Promise<T>,
): Promise<T> {
  const apiPort = await freePort();
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const indexerPort = await freePort();
  const relayer = relayerAccount({ privateKey: undefined, localChain: true });
  if (!relayer) throw new Error("no local relayer");
  const environment = await benchEnvironment({
    blockTime: 1,
    env: {
      PORT: String(apiPort),
      BASE_URL: apiUrl,
      PAY_URL: apiUrl,
      GASLESS_PER_SLUG_PER_MIN: "0",
      // Sweeps would share the relayer with the payments measured: off, with the relayer's
      // address given to the API as `npm start` would.
      SWEEP: "off",
      RELAYER_ADDRESS: relayer.address,
      ...env,
    },
  });
  let service: Service | undefined;
  try {
    service = await startServiceProcesses(environment.settings, { indexer: indexerPort, apiUrl });
    const rpcUrl = environment.rpcUrl;
    const client = chainClient(rpcUrl);
    const sender = createWalletClient({
      chain: base,
      transport: http(rpcUrl),
      account: devAccount(1),
    });
    const payer = devAccount(6);
    await rpcRequest(rpcUrl, "anvil_setBalance", [payer.address, "0x0"]);
    const plainTransfer = async () => {
      const sentAt = performance.now();
      const hash = await sender.writeContract({
        address: USDC_ADDRESS,
        abi: usdcAbi,
        functionName: "transfer",
        args: [devAccount(2).address, 1_000_000n],
      });
      const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 10 });
      return { ms: performance.now() - sentAt, receipt };
    };
    return await measure({
      apiUrl,
      rpcUrl,
      databaseUrl: environment.databaseUrl,
      relayer: relayer.address,
      client,
      payer,
      plainTransfer,
    });
  } finally {
    await service?.stop();
    await environment.stop();
  }
}
