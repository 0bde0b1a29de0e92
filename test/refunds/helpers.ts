import type { Address } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { waitFor } from "../../internal/process.ts";
import type { TestStack } from "../helpers/stack.ts";
import { invoiceRequest } from "../invoices/fixtures.ts";

export type Json = Record<string, unknown>;
export type RefundBody = Json & {
  refund_id: string;
  status: string;
  amount: string;
  tx_hash: string | null;
  claim_url?: string;
  error: string | null;
};
export type InvoiceBody = Json & {
  invoice_id: string;
  invoice_number: string;
  slug: string;
  deposit_address: Address;
  wallet_address: Address;
  refunds: RefundBody[];
  refunded_amount: string;
  sweeps: { status: string; amount: string; indexed: boolean }[];
};

/** A fresh address nobody else uses (a payer's wallet, a merchant's). */
export const freshAddress = (): Address => privateKeyToAccount(generatePrivateKey()).address;

/** One line item of `price` USDC. */
export const priced = (price: string) => ({
  line_items: [{ description: "Work", quantity: 1, unit_price: price }],
});

/** Polls for up to 120 s (a machine 3× slower and loaded, an indexer and a worker in the loop). */
export const until = <T>(what: string, probe: () => Promise<T | false | undefined | null>) =>
  waitFor(what, probe as () => Promise<T>, { timeoutMs: 120_000, intervalMs: 150 });

/** The invoice API of one stack, for refund tests. */
export function invoiceApi(stack: TestStack, headers: Record<string, string> = {}) {
  const create = async (overrides: Json) => {
    const response = await stack.request("/api/invoices", {
      method: "POST",
      json: invoiceRequest(overrides),
      headers,
    });
    if (response.status !== 201)
      throw new Error(`create: ${response.status} ${await response.text()}`);
    return (await response.json()) as Json & {
      invoice_id: string;
      invoice_number: string;
      slug: string;
      deposit_address: Address;
    };
  };
  const get = async (id: string) =>
    (await (await stack.request(`/api/invoices/${id}`, { headers })).json()) as InvoiceBody;
  const status = async (id: string) =>
    (await (await stack.request(`/api/invoices/${id}/status`)).json()) as Json;
  /** A refund request; with `idempotencyKey`, a new intent of its own (or a retry of one). */
  const refund = (id: string, body: Json, idempotencyKey?: string) =>
    stack.request(`/api/invoices/${id}/refunds`, {
      method: "POST",
      json: body,
      headers: idempotencyKey ? { ...headers, "idempotency-key": idempotencyKey } : headers,
    });
  /** The invoice once its refund `refundId` is in `state`. */
  const refundIs = (id: string, refundId: string, state: string) =>
    until(`refund ${refundId} ${state}`, async () => {
      const invoice = await get(id);
      const found = invoice.refunds.find((r) => r.refund_id === refundId);
      if (found?.status === "failed" && state !== "failed")
        throw new Error(`refund failed: ${found.error}`);
      return found?.status === state && invoice;
    });
  /** Once no sweep of the invoice is in flight and at least `count` are confirmed. */
  const swept = (id: string, count = 1) =>
    until("the sweeps confirmed", async () => {
      const invoice = await get(id);
      return (
        invoice.sweeps.filter((s) => s.status === "confirmed" && s.indexed).length >= count &&
        invoice.sweeps.every((s) => s.status === "confirmed" || s.status === "failed") &&
        invoice
      );
    });
  return { create, get, status, refund, refundIs, swept };
}
