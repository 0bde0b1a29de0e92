import { type Address, createPublicClient, getAddress, type Hex } from "viem";
import { base } from "viem/chains";
import { classifyChainError } from "../../chain/errors.ts";
import { rpcTransport } from "../../chain/rpc.ts";
import { lockInvoiceForPayment } from "../../db/queries/invoicePaymentLock.ts";
import {
  findPayerAuthorization,
  insertPayerAuthorization,
  type PayerAuthorizationRow,
} from "../../db/queries/payerAuthorizations.ts";
import { lockRelayerGasBudget, relayerSpend } from "../../db/queries/relayerGas.ts";
import { formatUsdc } from "../../domain/money.ts";
import { RateLimiter } from "../../domain/rateLimiter.ts";
import type { PayerAuthorizationStatus } from "../../domain/relayedAuthorization.ts";
import { secondsUntilNextUtcDay, utcDayStart } from "../../domain/relayedAuthorization.ts";
import {
  overRelayerBudget,
  REFUND_GAS_RESERVE,
  relayerBudgetMessage,
} from "../../domain/relayerBudget.ts";
import type { TransferAuthorization } from "../../domain/usdcAuthorization.ts";
import type { CoreDeps } from "../deps.ts";
import { Refusal, RetryLaterError } from "../refusal.ts";
import {
  type AuthorizationChain,
  type Payable,
  verifyAuthorization,
} from "./verifyAuthorization.ts";

/**
 * Takes a payer's signed authorization for the relayer: verifies it
 * (verifyAuthorization.ts), reserves its gas against the relayer's daily budgets and
 * stores it, which queues the worker's `relay_authorization` job (the relayer's one submission
 * path). Both ways a payer pays gaslessly go through here: `POST
 * /api/payments/{slug}/authorizations` and the x402 resource (api/x402/), so they share one
 * verification, one per-payer budget and one queue.
 */
export type AuthorizationAcceptor = {
  /** Whether this service relays at all (a relayer, its settings and a daily budget above 0). */
  readonly available: boolean;
  /** Throws the Refusal (a RetryLaterError for rates and budgets). */
  accept(
    payable: Payable,
    message: TransferAuthorization,
    signature: Hex,
    now: Date,
  ): Promise<PayerAuthorizationRow>;
  /** Polls the row until `done` says so or `deadlineMs` (Date.now()) passes; the latest row. */
  follow(
    row: PayerAuthorizationRow,
    done: (status: PayerAuthorizationStatus) => boolean,
    deadlineMs: number,
  ): Promise<PayerAuthorizationRow>;
};

const WAIT_POLL_MS = 50;

/** A unique violation, by constraint name (Postgres' SQLSTATE 23505). */
const uniqueViolation = (error: unknown): string | null =>
  (error as { code?: string }).code === "23505"
    ? ((error as { constraint?: string }).constraint ?? "")
    : null;

// One per app (its deps): the per-payer budget is shared by both routes that take authorizations.
const acceptors = new WeakMap<CoreDeps, AuthorizationAcceptor>();

export function authorizationAcceptor(deps: CoreDeps): AuthorizationAcceptor {
  let acceptor = acceptors.get(deps);
  if (!acceptor) {
    acceptor = createAcceptor(deps);
    acceptors.set(deps, acceptor);
  }
  return acceptor;
}

function createAcceptor(deps: CoreDeps): AuthorizationAcceptor {
  const settings = deps.gasless;
  const budget = deps.relayerBudget;
  const relayer = deps.relayerAddress ? (getAddress(deps.relayerAddress) as Address) : null;
  let chain: AuthorizationChain | undefined;
  // Made on first use: the app is also built without a chain (its OpenAPI document alone).
  const chainClient = () => {
    chain ??= createPublicClient({ chain: base, transport: rpcTransport(deps.rpcUrl) });
    return chain;
  };
  const perSlug = settings?.perSlugPerMinute
    ? new RateLimiter({ perMinute: settings.perSlugPerMinute })
    : null;
  const available = Boolean(relayer && settings && budget && budget.daily > 0n);

  return {
    available,
    async accept(payable, message, signature, now) {
      if (!relayer || !settings || !budget || budget.daily === 0n)
        throw new Refusal(
          "conflict",
          "gasless_unavailable",
          "this service does not relay payments; send the USDC with a plain transfer",
        );
      const { slug } = payable;
      // The per-invoice budget is the payer's own: taken only once the signature is proven
      // theirs, and kept per payer, so nobody's junk (nor valid signatures of throwaway keys)
      // can use it up before the real payer's authorization arrives. The per-IP budget
      // (api/abuseGuards.ts) is taken before anything is read.
      const takePerSlug = () => {
        if (!perSlug) return;
        const decision = perSlug.take(`${slug}:${message.from.toLowerCase()}`, now.getTime());
        if (decision.allowed) return;
        throw new RetryLaterError(
          "rate_limited",
          "rate_limited",
          `too many payment attempts for this invoice or link from ${message.from} (${settings.perSlugPerMinute} a minute); retry after ${decision.retryAfterSeconds} s`,
          decision.retryAfterSeconds,
        );
      };
      let gasReserved: bigint;
      try {
        ({ gasReserved } = await verifyAuthorization(
          { db: deps.db, chain: chainClient(), relayer, rpcUrl: deps.rpcUrl },
          payable,
          message,
          signature,
          BigInt(Math.floor(now.getTime() / 1000)),
          takePerSlug,
        ));
      } catch (error) {
        if (error instanceof Refusal) throw error;
        if (classifyChainError(error).kind === "unreachable")
          throw new Refusal(
            "unavailable",
            "chain_unavailable",
            "the Base RPC did not answer; retry shortly",
          );
        throw error;
      }

      let row: PayerAuthorizationRow;
      try {
        row = await deps.db.transaction().execute(async (trx) => {
          await lockRelayerGasBudget(trx);
          // Voided since it was verified: nothing is due, and nothing may be relayed to it.
          if (
            payable.kind === "invoice" &&
            (await lockInvoiceForPayment(trx, payable.depositAddress)) === "void"
          )
            throw new Refusal("conflict", "nothing_due", "nothing is due: this invoice is void");
          const since = utcDayStart(now);
          const spent = await relayerSpend(trx, since, REFUND_GAS_RESERVE, payable.merchantId);
          const over = overRelayerBudget(spent, gasReserved, budget);
          if (over)
            throw new RetryLaterError(
              "rate_limited",
              "relayer_budget_exhausted",
              relayerBudgetMessage(over, "gasless payments", "send the USDC with a plain transfer"),
              secondsUntilNextUtcDay(now),
            );
          return insertPayerAuthorization(trx, {
            deposit_address: payable.depositAddress.toLowerCase(),
            payer: message.from.toLowerCase(),
            value: message.value,
            valid_after: message.validAfter,
            valid_before: message.validBefore,
            nonce: message.nonce,
            signature,
            gas_reserved: gasReserved,
          });
        });
      } catch (error) {
        // Two requests raced past the checks above: the database lets one through.
        const constraint = uniqueViolation(error);
        if (constraint === "payer_authorizations_one_open")
          throw new Refusal(
            "conflict",
            "payment_in_progress",
            "a payment to this invoice or link is already on its way; wait for it to be counted",
          );
        if (constraint !== null)
          throw new Refusal(
            "conflict",
            "authorization_used",
            "this authorization was submitted before",
          );
        throw error;
      }
      deps.log.info("payer authorization accepted", {
        authorization_id: row.id,
        slug,
        deposit_address: row.deposit_address,
        amount: formatUsdc(row.value),
      });
      return row;
    },

    async follow(row, done, deadlineMs) {
      let latest = row;
      while (!done(latest.status) && Date.now() < deadlineMs) {
        await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
        latest = (await findPayerAuthorization(deps.db, latest.id)) ?? latest;
      }
      return latest;
    },
  };
}
