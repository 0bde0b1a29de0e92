import { describe, expect, test } from "vitest";
import { createLogger, createRootLogger } from "./logger.ts";
import { secretRedactor } from "./redactSecrets.ts";

const KEY = "aBcD3fGh1jKlMnOpQrStUvWxYz012345";
const env = {
  BASE_RPC_URL: `https://base-mainnet.g.alchemy.com/v2/${KEY},https://mainnet.base.org`,
  BASE_FORK_URL: "https://user:pa55w0rd-long-enough@fork.example/rpc?apikey=qwertyuiop123456",
};

describe("secretRedactor", () => {
  const redact = secretRedactor(env);

  test("keeps scheme and host of every configured RPC URL, masks path, query and credentials", () => {
    expect(redact(`calling https://base-mainnet.g.alchemy.com/v2/${KEY} now`)).toBe(
      "calling https://base-mainnet.g.alchemy.com/… now",
    );
    expect(redact(`${env.BASE_FORK_URL} failed`)).toBe("https://fork.example/… failed");
    // An RPC without a path has nothing to hide.
    expect(redact("https://mainnet.base.org is up")).toBe("https://mainnet.base.org is up");
  });

  test("finds the key however a library printed it", () => {
    const viem = `HTTP request failed.\n\nURL: https://base-mainnet.g.alchemy.com/v2/${KEY}\nRequest body: {}`;
    expect(redact(viem)).not.toContain(KEY);
    expect(redact(`path /v2/${KEY}`)).not.toContain(KEY);
    expect(redact(`key=${KEY}&x=1`)).not.toContain(KEY);
    expect(redact("apikey=qwertyuiop123456")).not.toContain("qwertyuiop123456");
    expect(redact(JSON.stringify({ error: `at /v2/${KEY}/` }))).not.toContain(KEY);
  });

  test("masks database passwords too", () => {
    expect(redact("postgres://remit:s3cret@db:5432/remit")).toBe(
      "postgres://remit:***@db:5432/remit",
    );
  });

  test("every line a logger writes goes through it", () => {
    const raw: string[] = [];
    const root = createRootLogger(
      "debug",
      { write: (line: string) => void raw.push(line) },
      redact,
    );
    const log = createLogger("worker", root);
    log.error(
      `sweep failed: HTTP request failed. URL: https://base-mainnet.g.alchemy.com/v2/${KEY}`,
      {
        error: new Error(`fetch failed for https://base-mainnet.g.alchemy.com/v2/${KEY}`),
        nested: { url: `https://base-mainnet.g.alchemy.com/v2/${KEY}` },
      },
    );
    expect(raw.join("")).not.toContain(KEY);
    expect(raw.join("")).toContain("https://base-mainnet.g.alchemy.com/…");
  });
});
