import type { Executor } from "../../db/database.ts";
import { countedPaymentsAt } from "../../db/queries/paymentLists.ts";
import type { Currency } from "../../domain/currencies.ts";
import { orderedPayments } from "../../domain/paymentState.ts";
import type { Ratio } from "../../domain/rates.ts";
import { storedOwnerConversions } from "./convertOwnerPayments.ts";

/** What a payment to an owner priced in a currency counted for in it, and at what rate. */
export type PaymentConversion = { amount: bigint; rate: Ratio };

/**
 * The conversions of the listed payments to owners priced in a currency, by transfer id: each
 * one read back exactly as the detail reads it (storedOwnerConversions: a quote's amount and
 * rate for a payment that paid one, otherwise the rate stored in app.payment_conversions), so a
 * list, an export and `GET /api/invoices/{id}` give the same figures. A payment of an owner in
 * USDC, or one still waiting for a rate, has none.
 */
export async function conversionsOfPayments(
  db: Executor,
  payments: readonly { deposit_address: string; currency: Currency }[],
): Promise<Map<string, PaymentConversion>> {
  const addresses = [
    ...new Set(
      payments.filter((p) => p.currency !== "USDC").map((p) => p.deposit_address.toLowerCase()),
    ),
  ];
  const byId = new Map<string, PaymentConversion>();
  if (!addresses.length) return byId;
  // Every counted payment of each owner, not only the listed ones: a quote counts once, for the
  // first payment in chain order that paid it.
  const counted = await countedPaymentsAt(db, addresses);
  for (const address of addresses) {
    const ofAddress = counted.filter((t) => t.depositAddress === address);
    const { converted } = await storedOwnerConversions(
      db,
      address,
      orderedPayments(address, ofAddress),
    );
    for (const c of converted) byId.set(c.transfer.id, { amount: c.amount, rate: c.rate });
  }
  return byId;
}
