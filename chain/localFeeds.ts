import {
  type Address,
  createTestClient,
  createWalletClient,
  type Hex,
  http,
  parseEther,
  publicActions,
} from "viem";
import { base } from "viem/chains";
import { DEV_MNEMONIC } from "../domain/constants.ts";
import {
  type FeedName,
  PRICE_FEEDS,
  SEQUENCER_GRACE_SECONDS,
  SEQUENCER_UPTIME_FEED,
} from "../domain/currencies.ts";
import { parseFeedAnswer } from "../domain/rates.ts";
import { hdAccountOf } from "../internal/hdAccount.ts";
import { localPriceFeedAbi, localPriceFeedRuntimeCode } from "./localPriceFeedArtifact.ts";
import { feedRoundAt } from "./priceFeeds.ts";

/**
 * The account that writes the local feeds' rounds: derived from the dev mnemonic far above the
 * funded accounts (like USDC's admin), so moving a rate never takes a payer's nonce.
 */
const feedWriter = hdAccountOf(DEV_MNEMONIC, { addressIndex: 102 });

/** The rates a new local chain starts with (USD per unit), near their real levels. */
export const LOCAL_START_RATES: Record<FeedName, string> = {
  EUR: "1.08",
  GBP: "1.27",
  USDC: "1",
};

function clientOf(rpcUrl: string) {
  return createTestClient({ mode: "anvil", chain: base, transport: http(rpcUrl) })
    .extend(publicActions)
    .extend(() => ({ wallet: createWalletClient({ chain: base, transport: http(rpcUrl) }) }));
}
type Client = ReturnType<typeof clientOf>;

/** Whether `address` holds the local feed's code (not a real Chainlink proxy, as in fork mode). */
async function isLocalFeed(client: Client, address: Address): Promise<boolean> {
  const code = await client.getCode({ address });
  return code?.toLowerCase() === localPriceFeedRuntimeCode.toLowerCase();
}

/**
 * Places a Chainlink-compatible feed (chain/contracts/LocalPriceFeed.sol) at each canonical
 * feed address of Base on the local chain, with a first round, and the sequencer uptime feed
 * "up since a day ago". Idempotent: run at every start of the local chain, it installs only
 * what a chain made before feeds existed lacks, and never moves a rate already there.
 */
export async function installLocalFeeds(rpcUrl: string): Promise<void> {
  const client = clientOf(rpcUrl);
  const missing: Address[] = [];
  for (const feed of LOCAL_FEEDS)
    if (!(await isLocalFeed(client, feed.address))) missing.push(feed.address);
  if (!missing.length) return;
  await client.setBalance({ address: feedWriter.address, value: parseEther("100") });
  const hashes: Hex[] = [];
  for (const feed of LOCAL_FEEDS.filter((f) => missing.includes(f.address))) {
    await client.setCode({ address: feed.address, bytecode: localPriceFeedRuntimeCode });
    hashes.push(await write(client, feed.address, "initialize", [feed.decimals, feed.pair]));
  }
  for (const hash of hashes) await mined(client, hash);
  await startRounds(client, missing);
}

/**
 * Puts every local feed back to a new chain's round (its start rate, fresh; the sequencer up
 * since a day ago): for tests that moved rates, so the next test starts from the same rates.
 */
export async function resetLocalFeeds(rpcUrl: string): Promise<void> {
  const client = clientOf(rpcUrl);
  await client.setBalance({ address: feedWriter.address, value: parseEther("100") });
  await startRounds(
    client,
    LOCAL_FEEDS.map((feed) => feed.address),
  );
}

/**
 * Posts again, at the same price, each local price feed whose latest round is older than half
 * its heartbeat at the chain's head — as Chainlink's nodes post a round at least once per
 * heartbeat when the price does not move. Without it a local chain left running a day, or
 * resumed a day after it stopped, has only stale rounds, and every invoice priced in a currency
 * reads "rate unavailable" until someone runs `remit dev rate`. A rate someone set stays
 * (only its round is renewed). Answers the feeds it renewed.
 */
export async function refreshStaleLocalFeeds(rpcUrl: string): Promise<FeedName[]> {
  const client = clientOf(rpcUrl);
  const head = await client.getBlock();
  const stale: { name: FeedName; answer: bigint }[] = [];
  for (const name of Object.keys(PRICE_FEEDS) as FeedName[]) {
    const feed = PRICE_FEEDS[name];
    if (!(await isLocalFeed(client, feed.address))) continue;
    const round = await feedRoundAt(client, feed.address, head.number);
    if (round && head.timestamp - round.updatedAt > BigInt(feed.heartbeatSeconds) / 2n)
      stale.push({ name, answer: round.answer });
  }
  if (!stale.length) return [];
  await client.setBalance({ address: feedWriter.address, value: parseEther("100") });
  const hashes: Hex[] = [];
  for (const { name, answer } of stale)
    hashes.push(await write(client, PRICE_FEEDS[name].address, "updateAnswer", [answer]));
  for (const hash of hashes) await mined(client, hash);
  return stale.map((feed) => feed.name);
}

/** Every feed the local chain holds: Base's price feeds and the sequencer uptime feed. */
const LOCAL_FEEDS = [...Object.values(PRICE_FEEDS), SEQUENCER_UPTIME_FEED];

/** A fresh round at each of `addresses`: its start rate, or the sequencer "up" since long ago. */
async function startRounds(client: Client, addresses: Address[]): Promise<void> {
  const head = await client.getBlock();
  const hashes: Hex[] = [];
  for (const address of addresses) {
    const name = (Object.keys(PRICE_FEEDS) as FeedName[]).find(
      (key) => PRICE_FEEDS[key].address === address,
    );
    hashes.push(
      name
        ? await write(client, address, "updateAnswer", [
            parseFeedAnswer(LOCAL_START_RATES[name], PRICE_FEEDS[name].decimals),
          ])
        : // The sequencer: up (0) since well before the grace period, so prices are usable now.
          await write(client, address, "updateRoundData", [
            0n,
            head.timestamp - BigInt(SEQUENCER_GRACE_SECONDS) * 24n,
            head.timestamp,
          ]),
    );
  }
  for (const hash of hashes) await mined(client, hash);
}

/**
 * Moves a local feed to `answer` (its integer, with the feed's decimals) from the next block
 * on, and answers the block that carries the new round. Refuses a chain whose feed is not the
 * local one: a real feed is never written.
 */
export async function setLocalFeedRound(
  rpcUrl: string,
  address: Address,
  round: { answer: bigint; startedAt?: bigint; updatedAt?: bigint },
): Promise<{ blockNumber: bigint; roundId: bigint }> {
  const client = clientOf(rpcUrl);
  if (!(await isLocalFeed(client, address)))
    throw new Error(
      `${address} holds no local price feed: this is not Remit's local simulated chain (or it was started before feeds existed and not since)`,
    );
  await client.setBalance({ address: feedWriter.address, value: parseEther("100") });
  const hash =
    round.startedAt === undefined && round.updatedAt === undefined
      ? await write(client, address, "updateAnswer", [round.answer])
      : await write(client, address, "updateRoundData", [
          round.answer,
          round.startedAt ?? 0n,
          round.updatedAt ?? 0n,
        ]);
  const receipt = await mined(client, hash);
  const roundId = await client.readContract({
    address,
    abi: localPriceFeedAbi,
    functionName: "latestRound",
    blockNumber: receipt.blockNumber,
  });
  return { blockNumber: receipt.blockNumber, roundId };
}

async function write(
  client: Client,
  address: Address,
  functionName: "initialize" | "updateAnswer" | "updateRoundData",
  args: readonly unknown[],
) {
  return client.wallet.writeContract({
    address,
    abi: localPriceFeedAbi,
    functionName,
    // The ABI's tuples are checked by the contract's own tests; args here are built above.
    args: args as never,
    account: feedWriter,
  });
}

async function mined(client: Client, hash: Hex) {
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 100 });
  if (receipt.status !== "success") throw new Error(`local feed: transaction ${hash} reverted`);
  return receipt;
}
