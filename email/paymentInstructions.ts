import type { Currency } from "../domain/currencies.ts";
import { DEFAULT_QUOTE_WINDOW_MS } from "../domain/currencyPayments.ts";
import { escapeHtml } from "../internal/escapeHtml.ts";

const QUOTE_MINUTES = DEFAULT_QUOTE_WINDOW_MS / 60_000;

/**
 * How a vendor pays an invoice, as its emails (the invoice, the reminders) say it: the text
 * lines and the HTML paragraph. An invoice priced in USDC is paid its amount to its deposit
 * address. One priced in a currency names no USDC amount: what to send depends on the rate when
 * it is paid, so the email sends the payer to the invoice page, whose quote holds for a window;
 * an amount in the currency read as USDC would be the wrong payment.
 *
 * @example paymentInstructions("EUR", "0xAb…").text[0] // "Payable in USDC on Base (chain 8453) at the rate at payment: …"
 */
export function paymentInstructions(
  currency: Currency,
  depositAddress: string,
): { text: string[]; html: string } {
  const how =
    currency === "USDC"
      ? "Pay in USDC on Base (chain 8453) to the invoice's own deposit address:"
      : `Payable in USDC on Base (chain 8453) at the rate at payment: the invoice page shows the USDC amount to send for the ${currency} due, held for ${QUOTE_MINUTES} minutes once shown. Send exactly that amount to the invoice's own deposit address:`;
  return {
    text: [how, depositAddress],
    // `how` is Remit's own words and a currency code: nothing to escape.
    html: `<p>${how}<br>
<code style="font-size:14px">${escapeHtml(depositAddress)}</code></p>`,
  };
}
