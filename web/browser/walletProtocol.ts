/**
 * What the wallet button (web/browser/wallet.ts) speaks with a wallet: EIP-1193's one method,
 * EIP-6963's description, and the errors either side can answer with, said to the payer in
 * plain words.
 */

/** What an EIP-1193 provider offers: one method. */
export type Provider = { request(args: { method: string; params?: unknown[] }): Promise<unknown> };
/** EIP-6963's description of a wallet. */
export type WalletInfo = { name?: string; icon?: string; rdns?: string };
export type Wallet = { info: WalletInfo; provider: Provider };
export type Request = (method: string, params?: unknown[]) => Promise<unknown>;
export type Outcome = { tx_hash: string; method: "transfer" | "gasless" };

/** A refusal said to the payer as it is (every other error is the wallet's, quoted). */
export class Refusal extends Error {}

export const refusals: Record<string, string> = {
  authorization_expired:
    "The signed authorization expired before it reached us. Pay again to sign a new one.",
  wrong_amount: "The amount due changed while you were signing. Reload the page and pay again.",
  payment_in_progress:
    "A payment for this is already on its way. Wait a moment for it to be counted.",
  nothing_due: "Nothing is due any more: this has been paid.",
  authorization_used: "This signed payment was already used. Pay again to sign a new one.",
  relayer_budget_exhausted:
    'Gasless payments are paused for today. Tick "regular transfer" to send it yourself (your wallet pays a little ETH for gas).',
  gasless_unavailable:
    'Gasless payments are not available here. Tick "regular transfer" to send it yourself (your wallet pays a little ETH for gas).',
  rate_limited: "Too many attempts. Wait a minute and pay again.",
};

export function errorCode(error: unknown): unknown {
  return typeof error === "object" && error !== null && "code" in error ? error.code : undefined;
}
export function errorMessage(error: unknown): string {
  return typeof error === "object" && error !== null && "message" in error
    ? String(error.message)
    : "";
}
export function rejected(error: unknown): boolean {
  const code = errorCode(error);
  return code === 4001 || code === "ACTION_REJECTED";
}
export function unsupported(error: unknown): boolean {
  const code = errorCode(error);
  return code === 4200 || code === -32601 || code === -32602;
}
