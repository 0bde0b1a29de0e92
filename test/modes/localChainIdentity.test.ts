import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { LOCAL_CHAIN_IDENTITY_BLOCK, startLocalChain } from "../../chain/localChain.ts";
import { rpcRequest } from "../../chain/rpc.ts";
import { freePort } from "../../internal/freePort.ts";

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "remit-chain-id-"));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const blockHash = async (url: string, number: number) =>
  (
    await rpcRequest<{ hash: string }>(url, "eth_getBlockByNumber", [
      `0x${number.toString(16)}`,
      false,
    ])
  ).hash;

// The indexer's schema is named after the hash of the block that identifies the chain: if it
// changes across restarts, every such restart reindexes into a new schema. anvil writes a new
// block 0 at every reload of its state (its dump then holds several, any of which may win the
// next load), so block 0 cannot be that block; this restarts the simulated chain as npm start
// does and checks the identity block keeps its hash.
test("the simulated chain keeps the hash of the block that identifies it across restarts", async () => {
  const hashes = new Set<string>();
  const genesisHashes = new Set<string>();
  for (let run = 0; run < 8; run++) {
    const chain = await startLocalChain({ dataDir, port: await freePort(), blockTime: 1 });
    try {
      hashes.add(await blockHash(chain.url, LOCAL_CHAIN_IDENTITY_BLOCK));
      genesisHashes.add(await blockHash(chain.url, 0));
    } finally {
      await chain.stop();
    }
  }
  expect(hashes.size).toBe(1);
  // Why not block 0 (anvil's behaviour, recorded so a fixed anvil is noticed): it moved.
  console.log(`block 0 took ${genesisHashes.size} hashes over 8 starts`);
});
