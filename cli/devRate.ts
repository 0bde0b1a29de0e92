import { setLocalFeedRound } from "../chain/localFeeds.ts";
import { type FeedName, PRICE_FEEDS } from "../domain/currencies.ts";
import { feedAnswerDecimal, parseFeedAnswer } from "../domain/rates.ts";
import { CliError, EXIT } from "./io.ts";

/**
 * `remit dev rate EUR 1.10`: a new round of the local chain's EUR / USD feed, answering 1.10 USD
 * per EUR from the block that carries it. Every payment mined from then on converts at it.
 */
export async function devRate(feed: string, usd: string, rpcUrl: string) {
  const name = feed.toUpperCase();
  if (!(name in PRICE_FEEDS))
    throw new CliError(
      `<feed>: one of ${Object.keys(PRICE_FEEDS).join(", ")} (got ${feed})`,
      EXIT.usage,
    );
  const priceFeed = PRICE_FEEDS[name as FeedName];
  let answer: bigint;
  try {
    answer = parseFeedAnswer(usd, priceFeed.decimals);
  } catch (error) {
    throw new CliError(`<usd>: ${(error as Error).message}`, EXIT.usage);
  }
  if (answer <= 0n) throw new CliError("<usd>: a rate above zero", EXIT.usage);
  const moved = await setLocalFeedRound(rpcUrl, priceFeed.address, { answer }).catch(
    (error: Error) => {
      if (/not Remit's local simulated chain/.test(error.message))
        throw new CliError(error.message, EXIT.invalid);
      throw new CliError(
        `cannot move the rate on the local chain at ${rpcUrl}: ${error.message.split("\n")[0]?.replace(/\.$/, "")}. Is it running (npm start)? Point the CLI at it with --rpc-url or REMIT_RPC_URL.`,
        EXIT.unavailable,
      );
    },
  );
  return {
    feed: priceFeed.pair,
    address: priceFeed.address,
    answer: feedAnswerDecimal(answer, priceFeed.decimals),
    round_id: moved.roundId.toString(),
    block_number: moved.blockNumber.toString(),
  };
}
