import { describe, expect, test } from "vitest";
import { USDC_ADDRESS } from "./constants.ts";
import { payoutWalletProblem } from "./payoutWallet.ts";

const relayerAddress = "0xa0Ee7A142d267C1f36714E4a8F75612F20a79720";

describe("payout wallets that can never receive a sweep", () => {
  test.each([
    ["the zero address", `0x${"0".repeat(40)}`, "zero_address"],
    ["the USDC contract", USDC_ADDRESS, "usdc_contract"],
    ["the USDC contract, lowercase", USDC_ADDRESS.toLowerCase(), "usdc_contract"],
    ["the relayer", relayerAddress, "relayer_address"],
  ])("%s is refused", (_, address, code) => {
    expect(payoutWalletProblem(address, { relayerAddress })?.code).toBe(code);
  });

  test("an ordinary wallet is accepted, with or without a relayer configured", () => {
    const wallet = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    expect(payoutWalletProblem(wallet, { relayerAddress })).toBeNull();
    expect(payoutWalletProblem(wallet, {})).toBeNull();
  });
});
