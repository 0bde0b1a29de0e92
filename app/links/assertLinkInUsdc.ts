import type { Executor } from "../../db/database.ts";
import { findLinkBySlug } from "../../db/queries/links.ts";
import { Refusal } from "../refusal.ts";

/**
 * x402 and the gasless route ask for USDC amounts of their own (findPayable reads a link's
 * amount as USDC): a payment link priced in a currency is paid at its checkout's quote
 * (docs/currencies.md) until they ask for it too. Nothing for an invoice or an unknown slug.
 */
export async function assertLinkInUsdc(db: Executor, slug: string): Promise<void> {
  const link = await findLinkBySlug(db, slug);
  if (link && link.currency !== "USDC")
    throw new Refusal(
      "conflict",
      "priced_in_currency",
      `payment link ${link.slug} is priced in ${link.currency}: pay it from its checkout, which asks for the USDC at the rate of the moment (x402 and gasless payments take links priced in USDC only)`,
    );
}
