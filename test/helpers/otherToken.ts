import { type Account, type Address, createWalletClient, type Hash, http } from "viem";
import { base } from "viem/chains";
import { usdcAbi } from "../../abis/usdc.ts";
import { devAccount, linkLibrary, loadArtifact } from "../../chain/deployUsdc.ts";
import type { Chain } from "./chain.ts";

/**
 * Deploys another ERC-20 (a second FiatToken, "Fake USD") at a new address and mints to dev
 * account 0: its Transfer events look exactly like USDC's, from another contract.
 */
export async function deployOtherToken(chain: Chain): Promise<Address> {
  const owner = devAccount(0);
  const wallet = createWalletClient({ chain: base, transport: http(chain.url), account: owner });
  const deploy = async (bytecode: `0x${string}`, abi: never) => {
    const hash = await wallet.deployContract({ abi, bytecode });
    const receipt = await chain.client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    if (!receipt.contractAddress) throw new Error("deployment failed");
    return receipt.contractAddress;
  };
  const checker = loadArtifact("util/SignatureChecker.sol/SignatureChecker.json");
  const token = loadArtifact("v2/FiatTokenV2_2.sol/FiatTokenV2_2.json");
  const checkerAddress = await deploy(checker.bytecode, checker.abi as never);
  const address = await deploy(linkLibrary(token, checkerAddress), token.abi as never);
  const call = async (functionName: string, args: readonly unknown[]) => {
    const hash = await wallet.writeContract({ address, abi: token.abi, functionName, args });
    await chain.client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  };
  const o = owner.address;
  await call("initialize", ["Fake USD", "FUSD", "USD", 6, o, o, o, o]);
  await call("configureMinter", [o, 10n ** 15n]);
  await call("mint", [o, 10n ** 15n]);
  return address;
}

/**
 * A raw ERC-20 `transfer` of `token` (USDC or another), sent with `gas` when given (so a call
 * estimation would refuse is sent anyway) and, unless `wait` is false, mined: its hash.
 */
export async function sendTokenTransfer(
  chain: Chain,
  options: {
    from: Account;
    token: Address;
    to: Address;
    value: bigint;
    gas?: bigint;
    wait?: boolean;
  },
): Promise<Hash> {
  const wallet = createWalletClient({ chain: base, transport: http(chain.url) });
  const hash = await wallet.writeContract({
    account: options.from,
    address: options.token,
    abi: usdcAbi,
    functionName: "transfer",
    args: [options.to, options.value],
    ...(options.gas ? { gas: options.gas } : {}),
  });
  if (options.wait !== false)
    await chain.client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  return hash;
}
