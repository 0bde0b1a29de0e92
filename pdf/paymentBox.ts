import type { Content } from "pdfmake/interfaces";
import { BASE_CHAIN_ID, USDC_ADDRESS } from "../domain/constants.ts";
import { type FiatCurrency, feedsOf, PRICE_FEEDS } from "../domain/currencies.ts";
import { DEFAULT_QUOTE_WINDOW_MS } from "../domain/currencyPayments.ts";
import { ACCENT, MUTED, RULE } from "./documentStyle.ts";

/** What an invoice's payment block is made of. */
export type PaymentFacts = { depositAddress: string; paymentUri: string; invoiceUrl: string };

/**
 * How to pay an invoice priced in USDC: exactly its total to its deposit address, the USDC
 * contract, and a QR code of the payment URI (that amount, that address).
 */
export function usdcPaymentBox(invoice: PaymentFacts, total: string): Content {
  return framed(
    [
      { text: "Pay with USDC on Base", style: "payTitle" },
      {
        text: [
          "Send exactly ",
          { text: total, bold: true },
          ` to this invoice's own deposit address on Base (chain ${BASE_CHAIN_ID}):`,
        ],
        margin: [0, 6, 0, 4],
      },
      ...whereToSend(invoice),
      {
        text: [
          { text: "Pay online: ", color: MUTED },
          { text: invoice.invoiceUrl, link: invoice.invoiceUrl, color: ACCENT },
        ],
        margin: [0, 8, 0, 0],
      },
    ],
    { qr: invoice.paymentUri, fit: 110, alignment: "center", margin: [0, 10, 0, 10] },
  );
}

/**
 * How to pay an invoice priced in a currency: in USDC at the rate at payment, so the document
 * names no USDC amount (the rate moves after it is issued); the invoice page quotes one.
 *
 * The QR code is the invoice page's URL, not an EIP-681 URI without an amount: that URI would
 * open a wallet with an empty amount beside a total in euros, inviting 100 EUR to be sent as
 * 100 USDC, while the page shows the quote and its own QR code and wallet link ask for the
 * quote's exact USDC (a wallet's scanner opens an https URL in its browser too).
 */
export function currencyPaymentBox(invoice: PaymentFacts, currency: FiatCurrency): Content {
  const feeds = feedsOf(currency).map((feed) => PRICE_FEEDS[feed].pair);
  const minutes = DEFAULT_QUOTE_WINDOW_MS / 60_000;
  return framed(
    [
      { text: "Pay in USDC on Base", style: "payTitle" },
      {
        text: [
          `This invoice is in ${currency} and payable in USDC at the rate at the time of payment, from Chainlink's `,
          `${feeds.join(" and ")} price ${feeds.length > 1 ? "feeds" : "feed"} on Base. `,
          { text: "The USDC amount to send", bold: true },
          ` is on the invoice page, quoted at the rate of the moment and held for ${minutes} minutes:`,
        ],
        margin: [0, 6, 0, 4],
      },
      { text: invoice.invoiceUrl, link: invoice.invoiceUrl, color: ACCENT, bold: true },
      {
        text: `Send it to this invoice's own deposit address on Base (chain ${BASE_CHAIN_ID}):`,
        margin: [0, 8, 0, 4],
      },
      ...whereToSend(invoice),
    ],
    {
      stack: [
        { qr: invoice.invoiceUrl, fit: 110, alignment: "center" },
        {
          text: "Scan for the USDC amount",
          fontSize: 8,
          color: MUTED,
          alignment: "center",
          margin: [0, 4, 0, 0],
        },
      ],
      margin: [0, 10, 0, 10],
    },
  );
}

/** The deposit address, the USDC contract and the warning against any other token or network. */
function whereToSend(invoice: PaymentFacts): Content[] {
  return [
    { text: invoice.depositAddress, font: "Courier", fontSize: 9.5, bold: true },
    {
      text: [
        { text: "USDC contract ", color: MUTED },
        { text: USDC_ADDRESS, font: "Courier", fontSize: 8, color: MUTED },
      ],
      margin: [0, 6, 0, 0],
    },
    {
      text: "USDC on Base only. Other tokens, or USDC on any other network, sent to this address will not be credited.",
      style: "warning",
      margin: [0, 8, 0, 0],
    },
  ];
}

/** The shaded box: the instructions on the left, the QR code on the right. */
function framed(instructions: Content[], code: Content): Content {
  return {
    margin: [0, 28, 0, 0],
    table: {
      widths: ["*", 120],
      body: [[{ stack: instructions, margin: [10, 10, 10, 10] }, code]],
    },
    layout: {
      hLineColor: () => RULE,
      vLineColor: () => RULE,
      fillColor: () => "#f5f7fa",
    },
  };
}
