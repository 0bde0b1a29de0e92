import type { Context } from "hono";
import { formatUsdcForDisplay } from "../domain/money.ts";
import type { RateDecision } from "../domain/rateLimiter.ts";
import {
  type LookupTransfer,
  type TransactionLookup,
  TX_HASH_PATTERN,
} from "../domain/transactionLookup.ts";

/** What the pages need to check a transaction: the API's lookup service (server/app.ts wires it). */
export type PageTransactionLookup = {
  take: (c: Context) => RateDecision | null;
  lookup: (hash: string, slug?: string) => Promise<TransactionLookup>;
};

/** The box's answer: nothing asked, a malformed hash, over budget, or the lookup's. */
export type PaidCheck =
  | { kind: "none" }
  | { kind: "invalid"; input: string }
  | { kind: "rate_limited"; input: string; retryAfterSeconds: number }
  | { kind: "answer"; input: string; answer: TransactionLookup };

/** The longest `?tx=` echoed back into the form (a hash is 66 characters). */
const MAX_ECHO = 100;

/**
 * The answer for a page's `?tx=`: looked up (charged to the client's per-IP budget) when it
 * is a well-formed hash, refused in words when it is not. No JavaScript needed: the box's form
 * is a GET to the page itself.
 */
export async function checkPaidTransaction(
  c: Context,
  service: PageTransactionLookup | undefined,
  slug: string,
): Promise<PaidCheck> {
  const raw = c.req.query("tx");
  if (raw === undefined || !service) return { kind: "none" };
  const input = raw.trim().slice(0, MAX_ECHO);
  if (!TX_HASH_PATTERN.test(input)) return { kind: "invalid", input };
  const decision = service.take(c);
  if (decision && !decision.allowed)
    return { kind: "rate_limited", input, retryAfterSeconds: decision.retryAfterSeconds };
  return { kind: "answer", input, answer: await service.lookup(input, slug) };
}

type Owner = "invoice" | "link";
const ownerWord = (owner: Owner) => (owner === "invoice" ? "invoice" : "payment request");

/** The verdict in plain words: a short title and what to do. */
export function explain(check: PaidCheck, owner: Owner, depositAddress: string) {
  if (check.kind === "invalid")
    return {
      tone: "error",
      title: "That is not a transaction hash",
      text: "A transaction hash starts with 0x followed by 64 letters and digits. Copy it from your wallet's or exchange's transaction details.",
    };
  if (check.kind === "rate_limited")
    return {
      tone: "error",
      title: "Too many checks",
      text: `Too many checks from your connection. Try again in ${check.retryAfterSeconds} seconds.`,
    };
  if (check.kind !== "answer") return null;
  const { answer } = check;
  switch (answer.state) {
    case "not_found":
      return {
        tone: "error",
        title: "Not found on Base (wrong network?)",
        text: `Base has no transaction with this hash. Payments must be sent on the Base network: if you paid on Ethereum, Arbitrum, Polygon or another network, the money is there and Remit cannot see it (ask your wallet or exchange how to recover it). If you only just sent it, wait a few seconds and check again.`,
      };
    case "pending":
      return {
        tone: "info",
        title: "Not confirmed yet",
        text: "Your transaction is waiting to be included in a Base block. This page updates once it is.",
      };
    case "failed":
      return {
        tone: "error",
        title: "The transaction failed",
        text: "It reverted on Base, so no USDC moved (your wallet may have set too little gas). Send the payment again.",
      };
    case "not_usdc":
      return {
        tone: "error",
        title: "Wrong token",
        text: `This transaction sent no USDC: it moved another token or ETH. Only USDC on Base pays this ${ownerWord(owner)}.`,
      };
    case "not_ours":
      return {
        tone: "error",
        title: "Sent to a different address",
        text: `This transaction sent USDC to an address that is not this ${ownerWord(owner)}'s. Pay to ${depositAddress}. Remit cannot move money sent elsewhere: if it went to a wrong address, contact its owner or your exchange.`,
      };
    case "unavailable":
      return {
        tone: "info",
        title: "Can't check right now",
        text: "Remit cannot reach the Base network at the moment. Try again in a minute.",
      };
    case "confirming":
    case "counted":
      return explainPayment(answer);
  }
}

function explainPayment(answer: TransactionLookup) {
  const mine = answer.transfers.filter((t) => t.to_this !== false);
  if (mine.length === 0) {
    const other = answer.transfers[0] as LookupTransfer;
    return {
      tone: "error",
      // Named after what it paid, as the text below it is (an invoice's page may be shown a
      // payment link's transaction).
      title: `This paid another ${other.to_kind === "invoice" ? "invoice" : "payment link"}`,
      text:
        other.to_kind === "invoice"
          ? `This transaction paid another invoice (${other.invoice_number}), not this one.`
          : "This transaction paid another payment link, not this one.",
    };
  }
  const amount = mine.map((t) => `${formatUsdcForDisplay(t.amount)} USDC`).join(" and ");
  if (answer.state === "counted")
    return {
      tone: "ok",
      title: "Counted",
      text: `Remit received ${amount} from this transaction and counted it: it is included in the amount received on this page.`,
    };
  const first = mine[0] as LookupTransfer;
  const confirmations = Math.min(first.confirmations, first.required_confirmations);
  return {
    tone: "info",
    title: `Waiting for confirmations: ${confirmations} of ${first.required_confirmations}`,
    text: `Remit sees ${amount} from this transaction. It counts once the Base network has confirmed it ${first.required_confirmations} ${first.required_confirmations === 1 ? "time" : "times"}; this page updates by itself.`,
  };
}

/**
 * "Paid but not showing?": a box on the invoice and checkout pages where a payer pastes a
 * transaction hash and reads what Remit sees of it, in plain words. A form GET to
 * the page itself (`?tx=`), so it works without JavaScript under the pages' strict CSP.
 */
export function PaidButNotShowing(props: {
  check: PaidCheck;
  owner: Owner;
  /** The page's own path, the form's target. */
  action: string;
  depositAddress: string;
}) {
  const { check } = props;
  const verdict = explain(check, props.owner, props.depositAddress);
  const input = check.kind === "none" ? "" : check.input;
  return (
    <details class="card paidcheck" id="paid-check" open={check.kind !== "none"}>
      <summary>Paid but not showing?</summary>
      <p class="small muted">
        Paste the transaction hash from your wallet or exchange, and see what Remit sees of it on
        Base.
      </p>
      <form method="get" action={`${props.action}#paid-check`} class="paidcheckform">
        <label for="paid-check-tx">Transaction hash</label>
        <div class="copyrow">
          <input
            id="paid-check-tx"
            name="tx"
            type="text"
            value={input}
            placeholder="0x…"
            autocomplete="off"
            spellcheck={false}
            maxlength={MAX_ECHO}
            required
          />
          <button type="submit">Check</button>
        </div>
      </form>
      {verdict ? (
        <div class="paidverdict" data-tone={verdict.tone} role="status">
          <strong>{verdict.title}</strong>
          <p>{verdict.text}</p>
        </div>
      ) : null}
    </details>
  );
}
