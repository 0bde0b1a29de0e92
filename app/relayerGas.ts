import type { Executor } from "../db/database.ts";
import { lockRelayerGasBudget, relayerSpend } from "../db/queries/relayerGas.ts";
import { secondsUntilNextUtcDay, utcDayStart } from "../domain/relayedAuthorization.ts";
import {
  overRelayerBudget,
  REFUND_GAS_RESERVE,
  relayerBudgetMessage,
} from "../domain/relayerBudget.ts";
import type { CoreDeps } from "./deps.ts";
import { Refusal, RetryLaterError } from "./refusal.ts";

/** What is being paid for, in the refusals' words. */
export type TransferKind = {
  what: "refunds" | "payouts";
  /** The 409's code when the relayer pays for nothing (RELAYER_DAILY_GAS_BUDGET=0). */
  unavailableCode: string;
  /** What the caller can do instead, ending the refusals' messages. */
  instead: string;
};

/**
 * Reserves one transfer's gas (REFUND_GAS_RESERVE) in the relayer's daily budgets, the
 * service's and the merchant's, under the budget's lock (taken last: never before a row or
 * deposit lock): 429 `relayer_budget_exhausted` with `Retry-After` (seconds to midnight UTC)
 * when either is spent; a 409 when the relayer pays for nothing. The row the caller inserts in
 * the same transaction is the reservation. Refunds and payouts out of the managed wallet.
 */
export async function reserveTransferGas(
  trx: Executor,
  budget: CoreDeps["relayerBudget"],
  merchantId: string,
  kind: TransferKind,
): Promise<void> {
  if (!budget) return;
  if (budget.daily === 0n)
    throw new Refusal(
      "conflict",
      kind.unavailableCode,
      `this service's relayer pays for no ${kind.what} (RELAYER_DAILY_GAS_BUDGET=0): ${kind.instead}`,
    );
  const now = new Date();
  await lockRelayerGasBudget(trx);
  const spent = await relayerSpend(trx, utcDayStart(now), REFUND_GAS_RESERVE, merchantId);
  const over = overRelayerBudget(spent, REFUND_GAS_RESERVE, budget);
  if (over)
    throw new RetryLaterError(
      "rate_limited",
      "relayer_budget_exhausted",
      relayerBudgetMessage(over, kind.what, `retry then, or ${kind.instead}`),
      secondsUntilNextUtcDay(now),
    );
}
