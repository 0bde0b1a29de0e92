import path from "node:path";
import { describe, expect, test } from "vitest";
import { EnvError, parseEnv } from "./env.ts";

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
    const env = parseEnv({ BASE_RPC_URL: "https://base.example.com" });
    expect(env.localChain).toBe(false);
    expect(env.PONDER_POLLING_INTERVAL).toBe(250);
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
