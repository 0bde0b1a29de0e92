import { describe, expect, test } from "vitest";
import { DEV_MNEMONIC } from "../domain/constants.ts";
import {
  apiSpec,
  type ChildSettings,
  indexerSpec,
  LOCAL_RPC_FANOUT,
  SEMI_SPACE_MB,
  workerSpec,
} from "./children.ts";

const settings: ChildSettings = {
  baseEnv: {},
  databaseUrl: "postgres://remit@127.0.0.1:5432/remit",
  rpcUrl: "http://127.0.0.1:8545",
  indexerSchema: "idx_test",
  mnemonic: DEV_MNEMONIC,
  webhookSecretKey: "k".repeat(43),
};
const indexer = (localRpc?: boolean) =>
  indexerSpec({
    ...settings,
    port: 42069,
    host: "127.0.0.1",
    pollingInterval: 100,
    startBlock: 0,
    localRpc,
  });

describe("child specs", () => {
  test("a local chain's RPC is fanned out to Ponder; mainnet's is not", () => {
    expect(indexer(true).env.PONDER_RPC_FANOUT).toBe(String(LOCAL_RPC_FANOUT));
    expect(indexer(false).env.PONDER_RPC_FANOUT).toBeUndefined();
    expect(indexer(true).env.PONDER_RPC_URL_8453).toBe(settings.rpcUrl);
  });

  test("each process gets its young-generation size and the shared compile cache", () => {
    const cases = [
      [apiSpec(settings), SEMI_SPACE_MB.api],
      [workerSpec(settings), SEMI_SPACE_MB.worker],
      [indexer(true), SEMI_SPACE_MB.indexer],
    ] as const;
    for (const [spec, mb] of cases) {
      expect(spec.args).toContain(`--max-semi-space-size=${mb}`);
      expect(spec.env.NODE_COMPILE_CACHE).toMatch(/node-compile-cache$/);
    }
  });

  test("an operator's own NODE_COMPILE_CACHE wins", () => {
    const spec = apiSpec({ ...settings, baseEnv: { NODE_COMPILE_CACHE: "/var/cache/node" } });
    expect(spec.env.NODE_COMPILE_CACHE).toBe("/var/cache/node");
  });
});
