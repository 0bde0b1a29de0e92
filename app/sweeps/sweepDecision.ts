import type { Executor } from "../../db/database.ts";
import { queueSweep } from "../../db/queries/jobs.ts";
import { loadSweepFacts } from "../../db/queries/sweepPolicy.ts";
import { decideSweep, type SweepDecision, type SweepSettings } from "../../domain/sweepPolicy.ts";

/**
 * The sweep policy's verdict on a deposit address now (domain/sweepPolicy.ts), from the
 * database's facts and, when the caller read it, the address's balance on chain.
 */
export async function decideSweepOf(
  db: Executor,
  depositAddress: string,
  settings: SweepSettings,
  balance?: bigint,
): Promise<SweepDecision> {
  const facts = await loadSweepFacts(db, depositAddress);
  if (!facts) return { sweep: false, reason: "nothing_received" };
  // A signed sweep has moved nothing: it is what the sweep job submits (or signs anew) next.
  // Counted as moved, a sweep signed for money the chain then forgot (USDC refuses it) would
  // keep the next payment to the address from ever being swept.
  const swept = facts.swept - facts.signed;
  return decideSweep({ ...facts, swept, balance, now: new Date(), settings });
}

/**
 * How much the sweep job moves from a deposit address holding `balance`: the policy's amount,
 * or 0n when the policy holds the funds (partial, excess, dust, already swept). A partial
 * payment not quiet long enough yet gets its sweep queued again for when it will be (reconcile
 * queued it for then already; this covers a job that ran early, on a clock ahead of ours).
 */
export async function amountToSweep(
  db: Executor,
  depositAddress: string,
  settings: SweepSettings,
  balance: bigint,
): Promise<bigint> {
  const decision = await decideSweepOf(db, depositAddress, settings, balance);
  if (decision.sweep) return decision.amount;
  if (decision.retryAt) await queueSweep(db, depositAddress, decision.retryAt);
  return 0n;
}
