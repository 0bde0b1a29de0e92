import { randomUUID } from "node:crypto";

/** A valid link request; each call uses a merchant of its own, so tests never share one. */
export const linkRequest = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  merchant_email: `shop-${randomUUID()}@example.com`,
  amount: "25.00",
  description: "Order #1042",
  wallet_type: "managed",
  metadata: { order_id: "1042", gift: false },
  redirect_url: "https://shop.example.com/thanks",
  ...overrides,
});
