import { findMerchantLink } from "../../db/queries/dashboard.ts";
import { indexedTransfersTo } from "../../db/queries/indexer.ts";
import type { LinkRow } from "../../db/queries/links.ts";
import { loadPaymentState } from "../../db/queries/paymentEvents.ts";
import { listRefundsOf, type RefundRow } from "../../db/queries/refunds.ts";
import { findSweepsOf, type IndexedSweepRow } from "../../db/queries/sweeps.ts";
import { receivedInOwnUnit } from "../../domain/moneyRules.ts";
import { amountDue, type IndexedTransfer, type PaymentState } from "../../domain/paymentState.ts";
import type { Actor } from "../actor.ts";
import { authorizedLink, ownMerchantId } from "../authorize.ts";
import type { CoreDeps } from "../deps.ts";
import { type CurrencyFacts, currencyFacts } from "../payments/currencyFacts.ts";
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

/**
 * What the API adds to a link's facts: what it received and still asks for in its own unit
 * (its currency's, when priced in one), and, priced in a currency, its payments' conversions
 * and what to send now (a quote; null in USDC).
 */
export type LinkApiFacts = LinkFacts & {
  received: bigint;
  due: bigint;
  currency: CurrencyFacts | null;
};

/** The payment link `slug` as the API shows it, for its owner only (authorizedLink). */
export async function authorizedLinkFacts(
  deps: Pick<CoreDeps, "db" | "indexerSchema" | "rpcUrl">,
  actor: Actor,
  slug: string,
): Promise<LinkApiFacts> {
  const facts = await linkFacts(deps, await authorizedLink(deps.db, actor.identity, slug));
  const { link, state, transfers } = facts;
  const received = receivedInOwnUnit(link.currency, state);
  const due = amountDue(link.amount, received);
  const currency = await currencyFacts(
    deps,
    { depositAddress: link.deposit_address, currency: link.currency },
    state,
    transfers,
    due,
  );
  return { ...facts, received, due, currency };
}

/** One payment link as its merchant sees it. */
export type LinkDetail = {
  link: LinkRow;
  /** In the link's unit: USDC, or its currency (what its converted payments counted for). */
  received: bigint;
  /** The USDC that arrived (`received` itself for a link priced in USDC). */
  receivedUsdc: bigint;
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
    received: receivedInOwnUnit(link.currency, state),
    receivedUsdc: state.received,
    refunds,
    snippets: linkSnippets(deps.payUrl, link.slug),
    transfers,
  };
}
