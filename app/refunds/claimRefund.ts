import type { Address } from "viem";
import { isAddress, zeroAddress } from "viem";
import type { Db } from "../../db/database.ts";
import { recordAudit } from "../../db/queries/audit.ts";
import { findDerivationIndex } from "../../db/queries/depositAddresses.ts";
import { findInvoice } from "../../db/queries/invoices.ts";
import {
  claimRefund,
  findClaimableRefund,
  findLinkById,
  type RefundRow,
} from "../../db/queries/refunds.ts";
import { hashSecretToken } from "../../domain/apiKeys.ts";
import { USDC_ADDRESS } from "../../domain/constants.ts";

export type { RefundRow };

/** What the claim page says the refund is: its amount, what it is for, from whom. */
export type RefundClaimView = { amount: bigint; what: string; merchantName: string };

/** The refund a claim link's token names, while it may still be claimed. */
export const claimableRefund = (db: Db, token: string): Promise<RefundRow | undefined> =>
  findClaimableRefund(db, hashSecretToken(token));

export async function refundClaimView(db: Db, refund: RefundRow): Promise<RefundClaimView> {
  if (refund.invoice_id) {
    const invoice = await findInvoice(db, refund.invoice_id);
    return {
      amount: refund.amount,
      what: invoice ? `invoice ${invoice.invoice_number}` : "an invoice",
      merchantName: invoice?.merchant_name_snapshot ?? "the merchant",
    };
  }
  const link = refund.link_id ? await findLinkById(db, refund.link_id) : undefined;
  return {
    amount: refund.amount,
    what: link ? link.description : "a payment",
    merchantName: link?.merchant_name ?? "the merchant",
  };
}

/** Why an address cannot receive the refund, or null when it can. */
export async function refusedRefundAddress(
  db: Db,
  refund: RefundRow,
  text: string,
): Promise<string | null> {
  if (!isAddress(text, { strict: false }))
    return "That is not an address: it must be 0x followed by 40 hexadecimal characters.";
  const lower = text.toLowerCase();
  if (lower === zeroAddress) return "The zero address cannot receive a refund.";
  if (lower === USDC_ADDRESS.toLowerCase()) return "That is USDC's contract, not a wallet.";
  if (lower === refund.from_address || (await findDerivationIndex(db, lower)) !== undefined)
    return "That is a payment address of this service, not your wallet.";
  return null;
}

/**
 * Uses a claim link's token once: the refund gets its destination `to` (its update trigger
 * queues the payment), audited as the claim's. Undefined when the link no longer works.
 */
export async function claimRefundTo(
  db: Db,
  token: string,
  to: Address,
  requestId: string | null,
): Promise<RefundRow | undefined> {
  const hash = hashSecretToken(token);
  return db.transaction().execute(async (trx) => {
    const row = await claimRefund(trx, hash, to);
    if (row)
      await recordAudit(trx, {
        merchantId: row.merchant_id,
        actor: "claim",
        keyId: null,
        action: "refund.claimed",
        target: row.id,
        requestId,
      });
    return row;
  });
}
