import {
  EXAMPLE_DEPOSIT_ADDRESS,
  EXAMPLE_PAYMENT_TX,
  EXAMPLE_SLUG,
} from "../../app/invoices/examples.ts";
import type { CreateLinkResponse, PaymentStatusResponse } from "../../app/links/schema.ts";

/**
 * The examples the OpenAPI document carries for the payment-link responses, given on the routes
 * (the request's example is on its schema). Checked against their schemas in api/openapi.test.ts.
 */

const PAY_URL = "https://pay.example.com";

/** A `managed` link, as `POST /api/links` answers it. */
export const createLinkResponseExample = {
  link_id: "8d3e1f7a-2b4c-4d6e-9f0a-1b2c3d4e5f60",
  slug: EXAMPLE_SLUG,
  payment_link: `${PAY_URL}/pay/${EXAMPLE_SLUG}`,
  x402_url: `https://api.example.com/api/x402/${EXAMPLE_SLUG}`,
  iframe_snippet: `<iframe src="${PAY_URL}/pay/${EXAMPLE_SLUG}" width="400" height="600" frameborder="0" title="Pay with USDC" allow="clipboard-write"></iframe>`,
  js_widget_snippet: `<script src="${PAY_URL}/w.js" data-slug="${EXAMPLE_SLUG}" async></script>`,
  deposit_address: EXAMPLE_DEPOSIT_ADDRESS,
  amount: "25.00",
  status: "pending",
  merchant_portal: `${PAY_URL}/merchant/${EXAMPLE_SLUG}`,
} satisfies CreateLinkResponse;

/** A link paid in full, with the metadata it was created with. */
export const paymentStatusResponseExample = {
  status: "confirmed",
  tx_hash: EXAMPLE_PAYMENT_TX,
  amount_usdc: "25.00",
  confirmed_at: "2026-11-22T12:00:00.000Z",
  metadata: { order_id: "1042" },
} satisfies PaymentStatusResponse;
