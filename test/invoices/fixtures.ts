import { randomUUID } from "node:crypto";

/** A valid creation request; each call uses a merchant of its own, so tests never share one. */
export function invoiceRequest(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    merchant_email: `merchant-${randomUUID()}@example.com`,
    merchant_name: "Acme Ltd",
    merchant_address: "1 Market Street, San Francisco",
    vendor_email: "ap@globex.example",
    vendor_name: "Globex Corporation",
    vendor_address: "42 Industrial Way, Springfield",
    line_items: [
      { description: "Design work", quantity: 2, unit_price: "75.00" },
      { description: "Hosting (November)", quantity: 1, unit_price: "0.125" },
    ],
    issue_date: "2026-11-01",
    due_date: "2099-12-31",
    notes: "Thank you for your business.",
    wallet_type: "managed",
    ...overrides,
  };
}

/**
 * A German seller billing a French buyer, with the addresses, VAT identifiers and countries an
 * EN 16931 e-invoice needs: the parties of the tests of taxed invoices and their documents.
 */
export const TAXED_PARTIES = {
  merchant_name: "Acme GmbH",
  merchant_address: "Hauptstraße 1\n10115 Berlin",
  vendor_name: "Globex SAS",
  vendor_address: "12 rue de la Paix\n75002 Paris",
  merchant_tax_id: "DE123456789",
  vendor_tax_id: "FR12345678901",
  merchant_country: "DE",
  vendor_country: "FR",
};

/** A checksummed address nobody controls, for byo tests. */
export const BYO_WALLET = "0x8ba1f109551bD432803012645Ac136ddd64DBA72";
