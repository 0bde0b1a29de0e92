import path from "node:path";
import { describe, expect, test } from "vitest";
import { BASE_CONFIRMATIONS, EnvError, parseEnv, splitRpcUrls } from "./env.ts";

describe("parseEnv", () => {
  test("defaults to a local chain, embedded Postgres and localhost URLs", () => {
    const env = parseEnv({});
    expect(env).toMatchObject({
      PORT: 3000,
      BASE_URL: "http://localhost:3000",
      PAY_URL: "http://localhost:3000",
      DATA_DIR: path.resolve(".data"),
      ANVIL_PORT: 8545,
      ANVIL_BLOCK_TIME: 1,
      localChain: true,
      PONDER_POLLING_INTERVAL: 100,
    });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.BASE_RPC_URL).toBeUndefined();
  });

  test("derives the public URLs from PORT and BASE_URL, without trailing slashes", () => {
    expect(parseEnv({ PORT: "8080" })).toMatchObject({
      BASE_URL: "http://localhost:8080",
      PAY_URL: "http://localhost:8080",
    });
    expect(parseEnv({ BASE_URL: "https://api.example.com/" })).toMatchObject({
      BASE_URL: "https://api.example.com",
      PAY_URL: "https://api.example.com",
    });
    expect(
      parseEnv({ BASE_URL: "https://api.example.com", PAY_URL: "https://pay.example.com" }).PAY_URL,
    ).toBe("https://pay.example.com");
  });

  test("a configured RPC means no local chain and a gentler polling default", () => {
    const env = parseEnv({ BASE_RPC_URL: "https://base.example.com", START_BLOCK: "1" });
    expect(env.localChain).toBe(false);
    expect(env.chainMode).toBe("mainnet");
    expect(env.PONDER_POLLING_INTERVAL).toBe(250);
    expect(env.CONFIRMATIONS).toBe(BASE_CONFIRMATIONS);
  });

  test("explorer links: basescan.org in mainnet mode, none on a local or forked chain, or as set", () => {
    expect(parseEnv({ BASE_RPC_URL: "https://b.example", START_BLOCK: "1" }).EXPLORER_URL).toBe(
      "https://basescan.org",
    );
    expect(parseEnv({}).EXPLORER_URL).toBeNull();
    const fork = { BASE_FORK_URL: "https://b.example", USDC_WHALE: `0x${"1".repeat(40)}` };
    expect(parseEnv(fork).EXPLORER_URL).toBeNull();
    expect(parseEnv({ EXPLORER_URL: "http://127.0.0.1:5100/" }).EXPLORER_URL).toBe(
      "http://127.0.0.1:5100",
    );
  });

  test("merchant accounts: keys and closed sign-up in mainnet mode, open locally and on forks, or as set", () => {
    const mainnet = { BASE_RPC_URL: "https://b.example", START_BLOCK: "1" };
    expect(parseEnv(mainnet)).toMatchObject({ AUTH_MODE: "keys", MERCHANT_SIGNUP: "closed" });
    expect(parseEnv({})).toMatchObject({ AUTH_MODE: "open", MERCHANT_SIGNUP: "open" });
    const fork = { BASE_FORK_URL: "https://b.example", USDC_WHALE: `0x${"1".repeat(40)}` };
    expect(parseEnv(fork)).toMatchObject({ AUTH_MODE: "open", MERCHANT_SIGNUP: "open" });
    expect(parseEnv({ ...mainnet, AUTH_MODE: "open", MERCHANT_SIGNUP: "open" })).toMatchObject({
      AUTH_MODE: "open",
      MERCHANT_SIGNUP: "open",
    });
    expect(() => parseEnv({ AUTH_MODE: "none" })).toThrow(/AUTH_MODE/);
  });

  test("mainnet mode: several comma-separated RPCs, START_BLOCK required", () => {
    const env = parseEnv({
      BASE_RPC_URL: "https://a.example/v2/key, https://b.example",
      START_BLOCK: "23000000",
    });
    expect(env.baseRpcUrls).toEqual(["https://a.example/v2/key", "https://b.example"]);
    expect(env.START_BLOCK).toBe(23_000_000);
    expect(() => parseEnv({ BASE_RPC_URL: "https://a.example" })).toThrow(
      /START_BLOCK: is required with BASE_RPC_URL: the go-live block/,
    );
    expect(() => parseEnv({ BASE_RPC_URL: "https://a.example,ftp://b", START_BLOCK: "1" })).toThrow(
      /BASE_RPC_URL: must be an http\(s\) URL, or several separated by commas/,
    );
  });

  test("fork mode: a local chain forking BASE_FORK_URL, funded from USDC_WHALE", () => {
    const whale = "0x0000000000000000000000000000000000000bEE";
    const env = parseEnv({ BASE_FORK_URL: "http://127.0.0.1:9999", USDC_WHALE: whale });
    expect(env).toMatchObject({ chainMode: "fork", localChain: true, CONFIRMATIONS: 1 });
    expect(parseEnv({}).chainMode).toBe("simulated");
    expect(() => parseEnv({ BASE_FORK_URL: "http://127.0.0.1:9999" })).toThrow(
      /USDC_WHALE: is required with BASE_FORK_URL/,
    );
    expect(() =>
      parseEnv({
        BASE_FORK_URL: "http://127.0.0.1:9999",
        USDC_WHALE: whale,
        BASE_RPC_URL: "https://a.example",
        START_BLOCK: "1",
      }),
    ).toThrow(/BASE_FORK_URL: cannot be combined with BASE_RPC_URL/);
    expect(() => parseEnv({ BASE_FORK_BLOCK_NUMBER: "5" })).toThrow(
      /BASE_FORK_BLOCK_NUMBER: only applies with BASE_FORK_URL/,
    );
  });

  test("treats an empty variable as unset", () => {
    const env = parseEnv({ DATABASE_URL: "", PORT: "" });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.PORT).toBe(3000);
  });

  test("names every bad variable", () => {
    const attempt = () =>
      parseEnv({ PORT: "eighty", DATABASE_URL: "not a url", PONDER_POLLING_INTERVAL: "10" });
    expect(attempt).toThrow(EnvError);
    expect(attempt).toThrow(/PORT/);
    expect(attempt).toThrow(/DATABASE_URL/);
    expect(attempt).toThrow(/PONDER_POLLING_INTERVAL/);
  });
});

test("the worker's renders are background work and yield the cores; the API's do not", () => {
  expect(parseEnv({})).toMatchObject({ WORKER_RENDER_NICE: 10, PDF_RENDER_NICE: 0 });
  expect(parseEnv({ WORKER_RENDER_NICE: "0" }).WORKER_RENDER_NICE).toBe(0);
  expect(() => parseEnv({ WORKER_RENDER_NICE: "20" })).toThrow(EnvError);
});

test("PROCESSES picks which of the three processes run here", () => {
  expect(parseEnv({}).PROCESSES).toEqual(["indexer", "api", "worker"]);
  expect(parseEnv({ PROCESSES: "api, worker" }).PROCESSES).toEqual(["api", "worker"]);
  expect(() => parseEnv({ PROCESSES: "api,ponder" })).toThrow(
    /PROCESSES.*must list indexer, api and\/or worker/,
  );
});

test("splitRpcUrls trims and drops empty entries", () => {
  expect(splitRpcUrls(" https://a , https://b,")).toEqual(["https://a", "https://b"]);
  expect(splitRpcUrls("")).toEqual([]);
});
