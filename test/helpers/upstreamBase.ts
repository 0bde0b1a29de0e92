import { randomBytes } from "node:crypto";
import { copyFile, mkdir } from "node:fs/promises";
import path from "node:path";
import { createWalletClient, http, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { base } from "viem/chains";
import { usdcAbi } from "../../abis/usdc.ts";
import type { Anvil } from "../../chain/anvil.ts";
import { devAccounts } from "../../chain/deployUsdc.ts";
import { startLocalChain } from "../../chain/localChain.ts";
import { keepsState } from "../../chain/savedState.ts";
import { DEV_ACCOUNT_USDC, DEV_MNEMONIC, USDC_ADDRESS } from "../../domain/constants.ts";
import { hdAccountOf } from "../../internal/hdAccount.ts";
import { newMnemonic } from "../../keys/hdWallet.ts";
import { createChain } from "./chain.ts";
import { sendGridSettings } from "./sendGridStandIn.ts";

/**
 * The USDC holder of the simulated upstream, like an exchange's wallet on Base: fork mode
 * funds the dev accounts by impersonating it (USDC_WHALE). It has a key (the dev mnemonic's
 * index 200) only so that tests can also pay from it on the upstream itself.
 */
export const upstreamWhale = hdAccountOf(DEV_MNEMONIC, { addressIndex: 200 });

/**
 * The relayer of mainnet-mode tests: a key of its own, funded with ETH on the upstream, since
 * mainnet mode refuses anvil's published keys (keys/publicTestKeys.ts).
 */
const upstreamRelayerKey = generatePrivateKey();

export type UpstreamBaseOptions = {
  /** The USDC genesis state (`inject("usdcGenesisFile")` in tests). */
  genesisFile: string;
  /** Where its state lives: starting again with the same directory resumes the same chain. */
  dataDir: string;
  port: number;
  blockTime: number;
  /**
   * Move every dev account's USDC to `upstreamWhale` on first start, so that the dev accounts
   * hold none upstream (as on real Base) and a fork must fund them from the whale.
   */
  emptyDevAccounts?: boolean;
};

/**
 * Anvil "A" playing real Base for fork- and mainnet-mode tests: the simulated chain (Circle's
 * USDC at its canonical address, chain 8453), its state kept in `dataDir` and resumed by the
 * next start on the same directory, so it can be killed and restarted like a real RPC.
 */
export async function startUpstreamBase(options: UpstreamBaseOptions): Promise<Anvil> {
  const chainDir = path.join(options.dataDir, "chain");
  await mkdir(chainDir, { recursive: true });
  const fresh = !(await keepsState(chainDir));
  // The genesis built once per test run, instead of deploying USDC again.
  if (fresh) await copyFile(options.genesisFile, path.join(chainDir, "usdc-genesis.json"));
  const anvil = await startLocalChain({
    dataDir: options.dataDir,
    port: options.port,
    blockTime: options.blockTime,
  });
  if (fresh && options.emptyDevAccounts) await emptyDevAccounts(anvil.url);
  await createChain(anvil.url).client.setBalance({
    address: privateKeyToAccount(upstreamRelayerKey).address,
    value: parseEther("10"),
  });
  return anvil;
}

async function emptyDevAccounts(url: string): Promise<void> {
  const chain = createChain(url);
  const wallet = createWalletClient({ chain: base, transport: http(url) });
  // Sent together, mined together: one block time instead of ten.
  const hashes = await Promise.all(
    devAccounts.map((account) =>
      wallet.writeContract({
        account,
        address: USDC_ADDRESS,
        abi: usdcAbi,
        functionName: "transfer",
        args: [upstreamWhale.address, DEV_ACCOUNT_USDC],
      }),
    ),
  );
  for (const hash of hashes)
    await chain.client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
}

/**
 * The settings of `npm start` in mainnet mode against `rpcUrl` (A, or a list with A): the seed,
 * relayer and SendGrid configured explicitly, as production requires (SendGrid being the stand-in
 * at `sendGridApiUrl`, test/helpers/sendGridStandIn.ts), and webhooks to the local receiver
 * allowed. Confirmations are 2 to keep tests short; the default is documented.
 */
export function mainnetSettings(
  rpcUrl: string,
  startBlock: bigint,
  sendGridApiUrl: string,
): NodeJS.ProcessEnv {
  return {
    ...sendGridSettings(sendGridApiUrl),
    BASE_RPC_URL: rpcUrl,
    START_BLOCK: String(startBlock),
    DEPOSIT_MNEMONIC: newMnemonic(),
    WEBHOOK_SECRET_KEY: randomBytes(32).toString("hex"),
    RELAYER_PRIVATE_KEY: upstreamRelayerKey,
    CONFIRMATIONS: "2",
    ALLOW_PRIVATE_WEBHOOKS: "true",
    // These tests are about following the chain: the spec's key-less creation, as locally.
    // Mainnet mode's default, AUTH_MODE=keys, is tested in test/accounts/keysMode.test.ts.
    AUTH_MODE: "open",
  };
}
