import { expect, test } from "vitest";
import { describeRpcUrl } from "./rpc.ts";

test("describeRpcUrl keeps API keys in paths, queries and credentials out of logs", () => {
  expect(describeRpcUrl("https://base-mainnet.g.alchemy.com/v2/s3cret")).toBe(
    "https://base-mainnet.g.alchemy.com/…",
  );
  expect(describeRpcUrl("https://rpc.example/?key=s3cret")).toBe("https://rpc.example/…");
  expect(describeRpcUrl("https://user:pw@rpc.example")).toBe("https://rpc.example/…");
  expect(describeRpcUrl("http://127.0.0.1:8545")).toBe("http://127.0.0.1:8545");
  expect(describeRpcUrl("not a url")).toBe("(an invalid URL)");
});
