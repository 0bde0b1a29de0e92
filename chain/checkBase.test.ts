import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { USDC_ADDRESS } from "../domain/constants.ts";
import { freePort } from "../internal/freePort.ts";
import { type Anvil, startAnvil } from "./anvil.ts";
import { ChainCheckError, checkBaseChain, RpcUnreachableError } from "./checkBase.ts";
import { rpcRequest } from "./rpc.ts";

/** Runtime code that answers every call with the word 18: a contract, but not USDC. */
const ANSWERS_18 = "0x601260005260206000f3"; // PUSH1 0x12 PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN

describe("checkBaseChain", () => {
  const anvils: Anvil[] = [];
  const anvil = async (options: { loadState?: string; chainId?: number } = {}) => {
    const started = await startAnvil({ port: await freePort(), blockTime: 0, ...options });
    anvils.push(started);
    return started;
  };
  let withUsdc: Anvil;
  beforeAll(async () => {
    withUsdc = await anvil({ loadState: inject("usdcGenesisFile") });
  });
  afterAll(async () => {
    await Promise.all(anvils.map((a) => a.stop()));
  });
  const check = (url: string, reachWithinMs = 5_000) =>
    checkBaseChain(url, { setting: "BASE_RPC_URL", reachWithinMs });

  test("accepts chain 8453 with Circle's USDC at the canonical address", async () => {
    await expect(check(withUsdc.url)).resolves.toBeUndefined();
  });

  test("refuses another chain id, naming it", async () => {
    const optimism = await anvil({ chainId: 10 });
    await expect(check(optimism.url)).rejects.toThrow(
      `BASE_RPC_URL (${optimism.url}) is chain id 10, not Base (8453): refusing to start`,
    );
  });

  test("refuses a chain without a contract at USDC's address, or one that is not USDC", async () => {
    const empty = await anvil();
    await expect(check(empty.url)).rejects.toThrow(/has no contract at USDC's address/);
    await rpcRequest(empty.url, "anvil_setCode", [USDC_ADDRESS, ANSWERS_18]);
    const error = await check(empty.url).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChainCheckError);
    expect((error as Error).message).toMatch(/does not answer name\(\) as USDC does/);
  });

  test("an unreachable RPC is retried, then reported as unreachable", async () => {
    const nobody = `http://127.0.0.1:${await freePort()}`;
    const started = Date.now();
    const error = await check(nobody, 1_200).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcUnreachableError);
    expect((error as Error).message).toContain(`cannot reach BASE_RPC_URL (${nobody})`);
    // Retried (0.5 s, then 1 s) rather than given up at the first refusal.
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
  });
});
