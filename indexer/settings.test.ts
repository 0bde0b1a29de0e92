import { describe, expect, test } from "vitest";
import { IndexerSettingsError, parseIndexerSettings } from "./settings.ts";

describe("parseIndexerSettings", () => {
  test("the defaults: no RPC, polled every 100 ms from block 0", () => {
    expect(parseIndexerSettings({})).toEqual({
      rpc: undefined,
      ws: undefined,
      pollingInterval: 100,
      startBlock: 0,
      databaseUrl: undefined,
    });
  });

  test("several RPCs become a list; one anvil is fanned out", () => {
    expect(parseIndexerSettings({ PONDER_RPC_URL_8453: "http://a, http://b," }).rpc).toEqual([
      "http://a",
      "http://b",
    ]);
    expect(
      parseIndexerSettings({ PONDER_RPC_URL_8453: "http://a", PONDER_RPC_FANOUT: "3" }).rpc,
    ).toEqual(["http://a", "http://a", "http://a"]);
    expect(parseIndexerSettings({ PONDER_RPC_URL_8453: "http://a" }).rpc).toBe("http://a");
  });

  test("the private database URL wins; an empty WebSocket URL is none", () => {
    const settings = parseIndexerSettings({
      DATABASE_URL: "postgres://public",
      DATABASE_PRIVATE_URL: "postgres://private",
      PONDER_WS_URL_8453: "",
    });
    expect(settings.databaseUrl).toBe("postgres://private");
    expect(settings.ws).toBeUndefined();
  });

  test("a malformed setting fails with its name", () => {
    expect(() => parseIndexerSettings({ PONDER_START_BLOCK: "soon" })).toThrow(
      IndexerSettingsError,
    );
    expect(() => parseIndexerSettings({ PONDER_POLLING_INTERVAL: "x" })).toThrow(
      /PONDER_POLLING_INTERVAL/,
    );
  });
});
