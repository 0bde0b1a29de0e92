import { findMerchantLink } from "../../db/queries/dashboard.ts";
import { indexedTransfersTo } from "../../db/queries/indexer.ts";
import type { LinkRow } from "../../db/queries/links.ts";
import { loadPaymentState } from "../../db/queries/paymentEvents.ts";
import { listRefundsOf, type RefundRow } from "../../db/queries/refunds.ts";
import type { IndexedTransfer } from "../../domain/paymentState.ts";
import type { Actor } from "../actor.ts";
import { ownMerchantId } from "../authorize.ts";
import type { CoreDeps } from "../deps.ts";
import { linkSnippets } from "./createLink.ts";

export type { LinkRow, RefundRow };

/** One payment link as its merchant sees it. */
export type LinkDetail = {
  link: LinkRow;
  received: bigint;
  /** Every refund requested, oldest first. */
  refunds: RefundRow[];
  snippets: ReturnType<typeof linkSnippets>;
  transfers: IndexedTransfer[];
};

/** The payment link `slug` of the actor's own merchant; undefined for another's or none. */
export async function merchantLinkDetail(
  deps: Pick<CoreDeps, "db" | "indexerSchema" | "payUrl">,
  actor: Actor,
  slug: string,
): Promise<LinkDetail | undefined> {
  const link = await findMerchantLink(deps.db, ownMerchantId(actor.identity), slug);
  if (!link) return undefined;
  const [state, transfers, refunds] = await Promise.all([
    loadPaymentState(deps.db, link.deposit_address),
    indexedTransfersTo(deps.db, deps.indexerSchema, link.deposit_address),
    listRefundsOf(deps.db, { linkId: link.id }),
  ]);
  return {
    link,
    received: state.received,
    refunds,
    snippets: linkSnippets(deps.payUrl, link.slug),
    transfers,
  };
}
