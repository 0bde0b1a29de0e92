import { domainSeparator, getAddress, parseAbiItem, zeroAddress } from "viem";
import { describe, expect, test } from "vitest";
import { usdcAbi } from "../abis/usdc.ts";
import { BASE_CHAIN_ID, DEV_ACCOUNT_USDC, USDC_ADDRESS } from "../domain/constants.ts";
import { chainUrl, createChain } from "../test/helpers/chain.ts";
import { devAccounts } from "./deployUsdc.ts";

describe("the local chain's USDC", () => {
  const chain = createChain(chainUrl());
  const read = <T>(functionName: string) =>
    chain.client.readContract({
      address: USDC_ADDRESS,
      abi: [
        ...usdcAbi,
        parseAbiItem("function symbol() view returns (string)"),
        parseAbiItem("function DOMAIN_SEPARATOR() view returns (bytes32)"),
      ],
      functionName: functionName as "name",
    }) as Promise<T>;

  test("is Circle's FiatToken at the canonical Base address, answering as USDC does", async () => {
    expect(await chain.client.getChainId()).toBe(BASE_CHAIN_ID);
    expect(await read("name")).toBe("USD Coin");
    expect(await read("symbol")).toBe("USDC");
    expect(await read("decimals")).toBe(6);
    expect(await read("version")).toBe("2");
  });

  test("signs under mainnet's EIP-712 domain, so authorizations made here are valid on Base", async () => {
    const expected = domainSeparator({
      domain: {
        name: "USD Coin",
        version: "2",
        chainId: BASE_CHAIN_ID,
        verifyingContract: USDC_ADDRESS,
      },
    });
    expect(await read("DOMAIN_SEPARATOR")).toBe(expected);
  });

  test("funded each of anvil's ten accounts with 1,000,000 USDC through real mint transactions", async () => {
    const mints = await chain.client.getLogs({
      address: USDC_ADDRESS,
      event: usdcAbi[0],
      args: { from: zeroAddress },
      fromBlock: 0n,
    });
    expect(mints.map((log) => getAddress(log.args.to as string))).toEqual(
      devAccounts.map((a) => a.address),
    );
    expect(mints.every((log) => log.args.value === DEV_ACCOUNT_USDC)).toBe(true);
    for (const account of devAccounts) {
      // Every test that moves USDC reverts the chain afterwards (useChain), so these still hold.
      expect(await chain.usdcBalance(account.address)).toBe(DEV_ACCOUNT_USDC);
    }
  });
});
