import { merchantOverviewFacts } from "../../db/queries/dashboard.ts";
import { listPayments, type PaymentListRow } from "../../db/queries/paymentLists.ts";
import { monthStartOf, type Overview, overview } from "../../domain/moneyRules.ts";
import type { Actor } from "../actor.ts";
import { ownMerchantId } from "../authorize.ts";
import type { CoreDeps } from "../deps.ts";

/**
 * The actor's overview on `today`: this month's received, refunded and net, what is owed and
 * overdue (domain/moneyRules.ts), and the `recent` newest payments.
 */
export async function merchantOverview(
  deps: Pick<CoreDeps, "db">,
  actor: Actor,
  today: string,
  recent: number,
): Promise<{ overview: Overview; recent: PaymentListRow[] }> {
  const merchantId = ownMerchantId(actor.identity);
  const [facts, payments] = await Promise.all([
    merchantOverviewFacts(deps.db, merchantId, monthStartOf(today)),
    listPayments(deps.db, merchantId, {}, { limit: recent }),
  ]);
  return { overview: overview(facts, today), recent: payments.rows };
}
