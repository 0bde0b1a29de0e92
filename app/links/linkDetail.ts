import { findMerchantLink } from "../../db/queries/dashboard.ts";
import { indexedTransfersTo } from "../../db/queries/indexer.ts";
import type { LinkRow } from "../../db/queries/links.ts";
import { loadPaymentState } from "../../db/queries/paymentEvents.ts";
import { listRefundsOf, type RefundRow } from "../../db/queries/refunds.ts";
import { findSweepsOf, type IndexedSweepRow } from "../../db/queries/sweeps.ts";
import type { IndexedTransfer, PaymentState } from "../../domain/paymentState.ts";
import type { Actor } from "../actor.ts";
import { authorizedLink, ownMerchantId } from "../authorize.ts";
import type { CoreDeps } from "../deps.ts";
import { linkSnippets } from "./createLink.ts";

export type { LinkRow, RefundRow };

/**
 * One payment link's facts, whoever shows them: what the reconcile job derived for its deposit
 * address, every indexed transfer to it, its sweeps and its refunds (oldest first). The one
 * assembly behind `GET /api/links/{slug}` and the dashboard's link page.
 */
export type LinkFacts = {
  link: LinkRow;
  state: PaymentState;
  transfers: IndexedTransfer[];
  sweeps: IndexedSweepRow[];
  refunds: RefundRow[];
};

async function linkFacts(
  deps: Pick<CoreDeps, "db" | "indexerSchema">,
  link: LinkRow,
): Promise<LinkFacts> {
  const [state, transfers, sweeps, refunds] = await Promise.all([
    loadPaymentState(deps.db, link.deposit_address),
    indexedTransfersTo(deps.db, deps.indexerSchema, link.deposit_address),
    findSweepsOf(deps.db, deps.indexerSchema, link.deposit_address),
    listRefundsOf(deps.db, { linkId: link.id }),
  ]);
  return { link, state, transfers, sweeps, refunds };
}

/** The payment link `slug` as the API shows it, for its owner only (authorizedLink). */
export async function authorizedLinkFacts(
  deps: Pick<CoreDeps, "db" | "indexerSchema">,
  actor: Actor,
  slug: string,
): Promise<LinkFacts> {
  return linkFacts(deps, await authorizedLink(deps.db, actor.identity, slug));
}

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
  const { state, transfers, refunds } = await linkFacts(deps, link);
  return {
    link,
    received: state.received,
    refunds,
    snippets: linkSnippets(deps.payUrl, link.slug),
    transfers,
  };
}
