import { type Address, getAddress, type Hex, type PublicClient } from "viem";
import { usdcAbi } from "../../abis/usdc.ts";
import { classifyChainError, summarizeChainError } from "../../chain/errors.ts";
import type { Executor } from "../../db/database.ts";
import { findInvoiceBySlug } from "../../db/queries/invoices.ts";
import { findLinkBySlug } from "../../db/queries/links.ts";
import {
  findPayerAuthorization,
  findPaymentInProgress,
  isAuthorizationNonceStored,
  type PayerAuthorizationRow,
} from "../../db/queries/payerAuthorizations.ts";
import { loadPaymentState } from "../../db/queries/paymentEvents.ts";
import { USDC_ADDRESS } from "../../domain/constants.ts";
import type { Currency, FiatCurrency } from "../../domain/currencies.ts";
import { formatUsdc } from "../../domain/money.ts";
import { amountDue, invoiceAmountDue, receivedInOwnUnit } from "../../domain/moneyRules.ts";
import {
  refuseAuthorizationTerms,
  signerOfAuthorization,
} from "../../domain/relayedAuthorization.ts";
import {
  type TransferAuthorization,
  transferWithAuthorizationArgs,
} from "../../domain/usdcAuthorization.ts";
import type { CoreDeps } from "../deps.ts";
import { Refusal } from "../refusal.ts";
import { quoteReaderFor } from "./currencyFacts.ts";
import { type QuoteAnswer, quoteAmountDue } from "./quoteAmountDue.ts";

/** What the verification reads from the chain (a viem public client). */
export type AuthorizationChain = Pick<
  PublicClient,
  "readContract" | "simulateContract" | "estimateContractGas" | "getCode"
>;

/** An invoice or link by its slug, with its merchant, its deposit address and what it still owes. */
export type Payable = {
  slug: string;
  merchantId: string;
  depositAddress: Address;
  due: bigint;
  /** What the x402 resource (api/x402/) names and answers besides. */
  kind: "invoice" | "link";
  merchantName: string | null;
  /** An invoice's number; a link's description. */
  label: string;
  /** An invoice's stored status; a link's. */
  status: string;
  /** What was counted as received at the deposit address, and the latest payment's hash. */
  received: bigint;
  latestTxHash: string | null;
};

/**
 * A mined relayed payment blocks another for this long while its transfer is not counted yet
 * (indexing and CONFIRMATIONS); past it, a payment that never counted (reorged away for good)
 * no longer holds the address.
 */
export const MINED_NOT_COUNTED_SECONDS = 600;

/**
 * What a slug owes now, by the one rule of domain/moneyRules.ts: nothing on a `paid` invoice (a
 * tolerated shortfall included) nor on a `void` one (a payment arriving there is held for
 * refund, never asked for).
 */
export async function findPayable(
  deps: Pick<CoreDeps, "db"> & { rpcUrl?: string | undefined },
  slug: string,
): Promise<Payable | null> {
  const { db } = deps;
  const link = await findLinkBySlug(db, slug);
  if (link) {
    const state = await loadPaymentState(db, link.deposit_address);
    const dueInOwnUnit = amountDue(link.amount, receivedInOwnUnit(link.currency, state));
    return {
      slug,
      merchantId: link.merchant_id,
      depositAddress: getAddress(link.deposit_address),
      due: await askedFor(deps, link, dueInOwnUnit),
      kind: "link",
      merchantName: link.merchant_name,
      label: link.description,
      status: link.status,
      received: state.received,
      latestTxHash: state.latestTxHash,
    };
  }
  const invoice = await findInvoiceBySlug(db, slug);
  if (!invoice) return null;
  const state = await loadPaymentState(db, invoice.deposit_address);
  const dueInOwnUnit = invoiceAmountDue(
    invoice.status,
    invoice.total_amount,
    receivedInOwnUnit(invoice.currency, state),
    invoice.credited_amount,
  );
  return {
    slug,
    merchantId: invoice.merchant_id,
    depositAddress: getAddress(invoice.deposit_address),
    due: await askedFor(deps, invoice, dueInOwnUnit),
    kind: "invoice",
    merchantName: invoice.merchant_name_snapshot,
    label: invoice.invoice_number,
    status: invoice.status,
    received: state.received,
    latestTxHash: state.latestTxHash,
  };
}

/**
 * What x402 and the gasless route ask for, in USDC, for `due` in its owner's unit: itself for an
 * owner priced in USDC; for one priced in a currency, the quote standing for it (the page's and
 * the checkout's, the same on every read inside its window).
 */
const askedFor = (
  deps: Pick<CoreDeps, "db"> & { rpcUrl?: string | undefined },
  owner: { deposit_address: string; currency: Currency },
  due: bigint,
): Promise<bigint> | bigint =>
  owner.currency === "USDC" ? due : quotedDue(deps, owner.deposit_address, owner.currency, due);

/**
 * The USDC asked for `due` (in `currency`) now: the standing quote, or a new one at the latest
 * block's rate (app/payments/quoteAmountDue.ts); a payment of exactly it inside its window counts
 * as `due`. No rate that can be trusted, no payment asked for: refused, saying why.
 */
async function quotedDue(
  deps: Pick<CoreDeps, "db"> & { rpcUrl?: string | undefined },
  depositAddress: string,
  currency: FiatCurrency,
  due: bigint,
): Promise<bigint> {
  if (due === 0n) return 0n;
  if (!deps.rpcUrl) throw new Error("findPayable: an owner priced in a currency needs the chain");
  const answer = await quoteAmountDue(
    deps.db,
    quoteReaderFor(deps.rpcUrl),
    { depositAddress, currency },
    due,
  ).catch((): QuoteAnswer => ({ unavailable: "the chain's price feeds cannot be read now" }));
  if (answer.unavailable !== undefined)
    throw new Refusal(
      "unavailable",
      "rate_unavailable",
      `this invoice or link is priced in ${currency} and no fresh rate can be read now (${answer.unavailable}): nothing can be asked in USDC until one is`,
    );
  return answer.quote.amountDueUsdc;
}

export type { PayerAuthorizationRow };

/**
 * The relayed payment on its way to a payable's deposit address (stored, submitted, or mined
 * and not counted yet for MINED_NOT_COUNTED_SECONDS), if any: while there is one, nothing more
 * is asked for.
 */
export const paymentInProgress = (deps: Pick<CoreDeps, "db">, payable: Payable) =>
  findPaymentInProgress(deps.db, payable.depositAddress, MINED_NOT_COUNTED_SECONDS);

/**
 * The payer authorization `id` under the slug it paid, with that payable; null for an unknown
 * slug or id and for an authorization of another slug alike (an id is no key to another
 * invoice's payments).
 */
export async function authorizationUnder(
  deps: Pick<CoreDeps, "db"> & { rpcUrl?: string | undefined },
  slug: string,
  id: string,
): Promise<PayerAuthorizationRow | null> {
  const [payable, row] = await Promise.all([
    findPayable(deps, slug),
    findPayerAuthorization(deps.db, id),
  ]);
  if (!payable || !row || row.deposit_address !== payable.depositAddress.toLowerCase()) return null;
  return row;
}

const refuse = (
  kind: "conflict" | "unprocessable",
  code: string,
  message: string,
  field?: string,
) =>
  new Refusal(
    kind,
    code,
    message,
    field
      ? [{ path: field, code, message: message.replace(/^the authorization /, "") }]
      : undefined,
  );

/** A request's authorization as validated (api/payments/authorizationSchema.ts, the x402 payload). */
export type AuthorizationFields = Record<
  "from" | "to" | "value" | "valid_after" | "valid_before" | "nonce",
  string
>;

/** The signed message of a request, its integers as bigints and its hex in lowercase. */
export function authorizationMessage(body: AuthorizationFields): TransferAuthorization {
  return {
    from: getAddress(body.from),
    to: getAddress(body.to),
    value: BigInt(body.value),
    validAfter: BigInt(body.valid_after),
    validBefore: BigInt(body.valid_before),
    nonce: body.nonce.toLowerCase() as Hex,
  };
}

/**
 * Everything that must hold before the relayer may spend gas on a payer's authorization, the
 * cheap checks first: it pays exactly what is due to this deposit address, now, for a short
 * while; its signature is the payer's; it was never stored before; no other payment is on its
 * way to the address; USDC has not used its nonce; the payer holds the amount; and the call,
 * simulated from the relayer's address, succeeds. Answers the gas to reserve for it; throws
 * the 409 or 422 that explains a refusal.
 *
 * `signerProven` runs (and may throw, say a rate limit) once the authorization is known to be
 * `from`'s: right after its signature recovers to `from`, or, for a smart-contract wallet
 * (whose ERC-1271 signature only USDC can judge), once the simulation succeeds. A budget taken
 * there is spent only by the payer's own signatures, never by anyone's junk.
 */
export async function verifyAuthorization(
  deps: { db: Executor; chain: AuthorizationChain; relayer: Address; rpcUrl?: string | undefined },
  payable: Payable,
  message: TransferAuthorization,
  signature: Hex,
  nowSeconds: bigint,
  signerProven: () => void = () => {},
): Promise<{ gasReserved: bigint }> {
  if (payable.due === 0n)
    throw refuse("conflict", "nothing_due", "nothing is due: this invoice or link is paid");
  const terms = refuseAuthorizationTerms(message, {
    depositAddress: payable.depositAddress,
    due: payable.due,
    nowSeconds,
  });
  if (terms) throw refuse("unprocessable", terms.code, terms.message, terms.field);

  // A smart-contract wallet signs by ERC-1271, which only USDC (in the simulation below) can
  // check; any other payer's signature must recover to them here.
  const recovered = (await signerOfAuthorization(message, signature)) === message.from;
  if (!recovered) {
    const code = await deps.chain.getCode({ address: message.from });
    if (!code || code === "0x")
      throw refuse(
        "unprocessable",
        "invalid_signature",
        `the signature is not ${message.from}'s over these terms`,
        "signature",
      );
  }
  if (recovered) signerProven();

  if (await isAuthorizationNonceStored(deps.db, message.from, message.nonce))
    throw refuse(
      "conflict",
      "authorization_used",
      "this authorization was submitted before",
      "nonce",
    );
  if (await findPaymentInProgress(deps.db, payable.depositAddress, MINED_NOT_COUNTED_SECONDS))
    throw refuse(
      "conflict",
      "payment_in_progress",
      "a payment to this invoice or link is already on its way; wait for it to be counted",
    );
  // The due read again, after the check above: a relayed payment the indexer counted between
  // reading `payable` and that check is in no open authorization any more, but is in the
  // amount received now. Without this read the same invoice could be paid twice.
  const now = await findPayable({ db: deps.db, rpcUrl: deps.rpcUrl }, payable.slug);
  if (!now || now.due === 0n)
    throw refuse("conflict", "nothing_due", "nothing is due: this invoice or link is paid");
  if (now.due !== payable.due)
    throw refuse(
      "unprocessable",
      "wrong_amount",
      `the authorization is for ${formatUsdc(message.value)} USDC; exactly ${formatUsdc(now.due)} USDC is due`,
      "value",
    );

  const used = await deps.chain.readContract({
    address: USDC_ADDRESS,
    abi: usdcAbi,
    functionName: "authorizationState",
    args: [message.from, message.nonce],
  });
  if (used)
    throw refuse("conflict", "authorization_used", "USDC has already used this nonce", "nonce");
  const balance = await deps.chain.readContract({
    address: USDC_ADDRESS,
    abi: usdcAbi,
    functionName: "balanceOf",
    args: [message.from],
  });
  if (balance < message.value)
    throw refuse(
      "unprocessable",
      "insufficient_balance",
      `${message.from} holds ${formatUsdc(balance)} USDC on Base; this payment needs ${formatUsdc(message.value)}`,
      "from",
    );

  const call = {
    account: deps.relayer,
    address: USDC_ADDRESS,
    abi: usdcAbi,
    functionName: "transferWithAuthorization",
    args: transferWithAuthorizationArgs(message, signature),
  } as const;
  try {
    await deps.chain.simulateContract(call);
    if (!recovered) signerProven();
    return { gasReserved: await deps.chain.estimateContractGas(call) };
  } catch (error) {
    if (error instanceof Refusal) throw error;
    const failure = classifyChainError(error);
    if (failure.kind !== "reverted") throw error;
    throw refuse(
      "unprocessable",
      "simulation_failed",
      `USDC would refuse this transfer: ${failure.reason ?? failure.errorName ?? summarizeChainError(error)}`,
    );
  }
}
