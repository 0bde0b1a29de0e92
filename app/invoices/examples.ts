/**
 * The examples the OpenAPI document carries for the invoice endpoints (and /docs shows). One
 * invoice throughout: its id in the path examples is the id in the bodies. They are checked
 * against their schemas (api/openapi.test.ts), so they cannot drift from what the API answers.
 */

export const EXAMPLE_INVOICE_ID = "4f1c2c7e-7d0c-4a1e-9a55-0c6f5c0a3b11";
export const EXAMPLE_SLUG = "7tQm3kR9xWzP";
export const EXAMPLE_EVENT_ID = "0b7c9e52-3f0a-4d8e-b1a4-6c2d5e8f9a10";
export const EXAMPLE_DEPOSIT_ADDRESS = "0x6fD7b14581e8D540519e27400e88B8713932BE01";
export const EXAMPLE_WALLET_ADDRESS = "0x9f1A0469CBce2fEb53C705746446981548845b3B";
const EXAMPLE_PAYER_ADDRESS = "0x364E2533F6f0b3b560dCA617192940206d806B7e";
export const EXAMPLE_PAYMENT_TX =
  "0x5194ead3df889a15f3d33e47bcc128114dbb9dcd1147f2de8a8ffba6a815f248";
const EXAMPLE_SWEEP_TX = "0x183a7d361ca1625fa85289cbdf578effaa4376f038587b9ab574e3fe80e5edc5";

const PAY_URL = "https://pay.example.com";
const API_URL = "https://api.example.com";

export const createInvoiceResponseExample = {
  invoice_id: EXAMPLE_INVOICE_ID,
  invoice_number: "INV-0001",
  slug: EXAMPLE_SLUG,
  invoice_url: `${PAY_URL}/i/${EXAMPLE_SLUG}`,
  pdf_url: `${API_URL}/api/invoices/${EXAMPLE_INVOICE_ID}/pdf`,
  x402_url: `${API_URL}/api/x402/${EXAMPLE_SLUG}`,
  deposit_address: EXAMPLE_DEPOSIT_ADDRESS,
  total_amount: "150.00",
  sent_at: "2026-11-20T09:30:00.000Z",
  status: "sent",
} as const;

export const invoiceStatusResponseExample = {
  status: "paid",
  paid_amount: "150.00",
  tx_hash: EXAMPLE_PAYMENT_TX,
  paid_at: "2026-11-22T12:00:00.000Z",
} as const;

export const sweepExample = {
  sequence: 1,
  amount: "150.00",
  destination: EXAMPLE_WALLET_ADDRESS,
  status: "confirmed",
  tx_hash: EXAMPLE_SWEEP_TX,
  error: null,
  indexed: true,
  created_at: "2026-11-22T12:00:05.000Z",
} as const;

/** A `byo` invoice, paid in one transfer and swept to the merchant's wallet. */
export const invoiceExample = {
  invoice_id: EXAMPLE_INVOICE_ID,
  invoice_number: "INV-0001",
  slug: EXAMPLE_SLUG,
  status: "paid",
  stored_status: "paid",
  merchant_email: "billing@acme.example",
  merchant_name_snapshot: "Acme Ltd",
  merchant_address_snapshot: "1 Market St, San Francisco",
  vendor_email: "ap@globex.example",
  vendor_name: "Globex",
  vendor_address: null,
  line_items: [
    { description: "Design work", quantity: 2, unit_price: "75.00", line_total: "150.00" },
  ],
  total_amount: "150.00",
  currency: "USDC",
  chain_id: 8453,
  issue_date: "2026-11-20",
  due_date: "2026-12-31",
  notes: null,
  wallet_type: "byo",
  wallet_address: EXAMPLE_WALLET_ADDRESS,
  deposit_address: EXAMPLE_DEPOSIT_ADDRESS,
  payment_uri: `ethereum:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913@8453/transfer?address=${EXAMPLE_DEPOSIT_ADDRESS}&uint256=150000000`,
  webhook_url: "https://acme.example/hooks/remit",
  sent_at: "2026-11-20T09:30:00.000Z",
  created_at: "2026-11-20T09:30:00.000Z",
  invoice_url: `${PAY_URL}/i/${EXAMPLE_SLUG}`,
  pdf_url: `${API_URL}/api/invoices/${EXAMPLE_INVOICE_ID}/pdf`,
  x402_url: `${API_URL}/api/x402/${EXAMPLE_SLUG}`,
  pdf_sha256: "9b2f6a1c0d4e7f8a3b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a",
  paid_amount: "150.00",
  amount_due: "0.00",
  underpayment_tolerance: "0.00",
  payments: [
    {
      tx_hash: EXAMPLE_PAYMENT_TX,
      log_index: 0,
      from: EXAMPLE_PAYER_ADDRESS,
      amount: "150.00",
      block_number: 23_456_789,
      paid_at: "2026-11-22T12:00:00.000Z",
      counted: true,
    },
  ],
  sweeps: [sweepExample],
  refunds: [],
  refunded_amount: "0.00",
  voided_at: null,
  schedule_id: null,
  metadata: { order_id: "1042" },
} as const;
