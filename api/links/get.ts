import { z } from "@hono/zod-openapi";
import { getAddress } from "viem";
import {
  CurrencyAmountFields,
  DepositPaymentsSchema,
  SweepSchema,
} from "../../app/invoices/schema.ts";
import { linkSnippets } from "../../app/links/createLink.ts";
import { authorizedLinkFacts } from "../../app/links/linkDetail.ts";
import { paymentUriFor, presentCurrencyAmounts } from "../../app/payments/presentCurrency.ts";
import { presentRefund } from "../../app/refunds/present.ts";
import { RefundSchema } from "../../app/refunds/refundSchema.ts";
import { X402_URL_DESCRIPTION } from "../../app/schemaFields.ts";
import { presentDepositPayments } from "../../domain/depositPaymentView.ts";
import { x402Url } from "../../domain/invoiceUrls.ts";
import { formatUsdc } from "../../domain/money.ts";
import { refundedAmount } from "../../domain/moneyRules.ts";
import { presentSweep } from "../../domain/sweepView.ts";
import { actorOf } from "../auth/identity.ts";
import type { AppDeps } from "../deps.ts";
import { linkSummaryExample, linkSummaryShape, presentLinkSummary } from "../lists/links.ts";
import { errorResponses, jsonResponse, keyRoute, pathParam, type Router } from "../openapi.ts";

const LinkSchema = z
  .object({
    ...linkSummaryShape,
    amount_due: z.string().openapi({
      description: "What is still due, in USDC (or in `currency`); never negative.",
    }),
    ...CurrencyAmountFields,
    payment_uri: z.string().openapi({
      description:
        "An EIP-681 request for what is still due (the amount once nothing is); priced in a currency, for `amount_due_usdc`, the quote's USDC (no amount while no rate can be read).",
    }),
    x402_url: z.url().openapi({ description: X402_URL_DESCRIPTION }),
    iframe_snippet: z.string(),
    js_widget_snippet: z.string(),
    merchant_portal: z.url().nullable(),
    webhook_url: z.string().nullable(),
    redirect_url: z.string().nullable(),
    payments: DepositPaymentsSchema,
    sweeps: z.array(SweepSchema),
    refunds: z.array(RefundSchema).openapi({
      description: "Every refund requested (POST /api/links/{slug}/refunds), oldest first.",
    }),
  })
  .openapi("PaymentLink", {
    example: {
      ...linkSummaryExample,
      amount_due: "0.00",
      payment_uri:
        "ethereum:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913@8453/transfer?address=0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65&uint256=25000000",
      x402_url: "https://api.example.com/api/x402/7hKp2VwQx9Rm",
      iframe_snippet:
        '<iframe src="https://pay.remit.example/pay/7hKp2VwQx9Rm" width="400" height="600" frameborder="0" title="Pay with USDC" allow="clipboard-write"></iframe>',
      js_widget_snippet:
        '<script src="https://pay.remit.example/w.js" data-slug="7hKp2VwQx9Rm" async></script>',
      merchant_portal: "https://pay.remit.example/merchant/7hKp2VwQx9Rm",
      webhook_url: null,
      redirect_url: "https://shop.acme.example/thanks",
      payments: [],
      sweeps: [],
      refunds: [],
    },
  });

const route = keyRoute({
  method: "get",
  path: "/api/links/{slug}",
  tags: ["Payment links"],
  summary: "Get a payment link",
  description:
    "Every stored field but the webhook secret, the snippets, what was received, refunded and is still due, every transfer to the deposit address, the sweeps and the refunds, as `GET /api/invoices/{id}` shows an invoice. Its merchant's key only, in every AUTH_MODE: a slug is public (it is in every checkout URL), so without a key this is a 401 and with another merchant's a 404.",
  request: {
    params: z.object({
      slug: pathParam("slug", "7hKp2VwQx9Rm", "The link's slug."),
    }),
  },
  responses: {
    200: jsonResponse("The payment link", LinkSchema),
    ...errorResponses(401, 404),
  },
});

export function registerGetLink(app: Router, deps: AppDeps): void {
  app.openapi(route, async (c) => {
    const slug = c.req.valid("param").slug;
    const { link, state, transfers, sweeps, refunds, due, currency } = await authorizedLinkFacts(
      deps,
      actorOf(c),
      slug,
    );
    const deposit = getAddress(link.deposit_address);
    const { payment_link: _, ...snippets } = linkSnippets(deps.payUrl, link.slug);
    return c.json(
      {
        ...presentLinkSummary(deps, {
          ...link,
          received: state.received,
          received_in_currency: state.receivedInCurrency ?? null,
          refunded: refundedAmount(refunds),
        }),
        amount_due: formatUsdc(due),
        ...presentCurrencyAmounts(currency, state),
        payment_uri: paymentUriFor(deposit, currency, due > 0n ? due : link.amount),
        x402_url: x402Url(deps, link.slug),
        ...snippets,
        merchant_portal:
          link.wallet_type === "managed" ? `${deps.payUrl}/merchant/${link.slug}` : null,
        webhook_url: link.webhook_url,
        redirect_url: link.redirect_url,
        payments: presentDepositPayments(
          transfers,
          link.deposit_address,
          state.counted,
          currency?.converted,
        ),
        sweeps: sweeps.map(presentSweep),
        refunds: refunds.map(presentRefund),
      },
      200,
    );
  });
}
