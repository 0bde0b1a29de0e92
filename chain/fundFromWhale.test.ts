import { getAddress, type Hex } from "viem";
import { afterAll, afterEach, beforeAll, beforeEach, expect, inject, test } from "vitest";
import { usdcAbi } from "../abis/usdc.ts";
import { DEV_ACCOUNT_USDC, USDC_ADDRESS } from "../domain/constants.ts";
import { freePort } from "../internal/freePort.ts";
import { createChain } from "../test/helpers/chain.ts";
import { type Anvil, startAnvil } from "./anvil.ts";
import { devAccount } from "./deployUsdc.ts";
import { fundDevAccountsFromWhale } from "./fundFromWhale.ts";

// In lowercase, as an operator may well type it.
const whale = "0x00000000000000000000000000000000000fa11e";
let anvil: Anvil;
let snapshot: Hex;
beforeAll(async () => {
  anvil = await startAnvil({
    port: await freePort(),
    blockTime: 0,
    loadState: inject("usdcGenesisFile"),
  });
});
beforeEach(async () => {
  snapshot = await createChain(anvil.url).client.snapshot();
});
afterEach(async () => {
  await createChain(anvil.url).client.revert({ id: snapshot });
});
afterAll(async () => {
  await anvil?.stop();
});

test("tops the dev accounts up to 1,000,000 USDC from the whale with real transfers", async () => {
  const chain = createChain(anvil.url);
  // Accounts already funded take nothing.
  expect(await fundDevAccountsFromWhale(anvil.url, whale)).toBe(0n);

  // Account 3 gives 400,000 USDC to the whale (it has no key: it is only impersonated).
  await chain.payUsdc(devAccount(3), whale, 400_000_000_000n);
  const before = await chain.client.getBlockNumber();
  expect(await fundDevAccountsFromWhale(anvil.url, whale)).toBe(400_000_000_000n);
  expect(await chain.usdcBalance(devAccount(3).address)).toBe(DEV_ACCOUNT_USDC);
  expect(await chain.usdcBalance(whale)).toBe(0n);
  // A Transfer event from the whale, as an indexer would see it.
  const logs = await chain.client.getContractEvents({
    address: USDC_ADDRESS,
    abi: usdcAbi,
    eventName: "Transfer",
    fromBlock: before + 1n,
  });
  expect(logs.map((log) => [log.args.from, log.args.to, log.args.value])).toEqual([
    [getAddress(whale), devAccount(3).address, 400_000_000_000n],
  ]);
});

test("says so when the whale holds too little", async () => {
  const chain = createChain(anvil.url);
  await chain.payUsdc(devAccount(4), whale, 10n);
  await chain.payUsdc(devAccount(5), devAccount(6).address, 1_000_000n);
  await expect(fundDevAccountsFromWhale(anvil.url, whale)).rejects.toThrow(
    `USDC_WHALE ${getAddress(whale)} holds 10 USDC base units on the fork; the dev accounts need 1000010`,
  );
});
