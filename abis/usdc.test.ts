import { encodeFunctionData, getAbiItem, toFunctionSelector } from "viem";
import { describe, expect, test } from "vitest";
import { balanceOfCall, transferCall } from "../web/browser/usdcCalls.ts";
import { usdcAbi, usdcSelectors } from "./usdc.ts";

describe("the browser's USDC calls (web/browser/usdcCalls.ts) are the ABI's", () => {
  test("each selector is the ABI function's", () => {
    for (const name of Object.keys(usdcSelectors) as (keyof typeof usdcSelectors)[]) {
      const item = getAbiItem({ abi: usdcAbi, name });
      expect(toFunctionSelector(item)).toBe(usdcSelectors[name]);
    }
  });

  test("the call data is what viem encodes from the ABI", () => {
    const account = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    const amount = 12_500_000n;
    expect(balanceOfCall(account)).toBe(
      encodeFunctionData({ abi: usdcAbi, functionName: "balanceOf", args: [account] }),
    );
    expect(transferCall(account, amount)).toBe(
      encodeFunctionData({ abi: usdcAbi, functionName: "transfer", args: [account, amount] }),
    );
    const max = 2n ** 256n - 1n;
    expect(transferCall(account, max)).toBe(
      encodeFunctionData({ abi: usdcAbi, functionName: "transfer", args: [account, max] }),
    );
  });
});
