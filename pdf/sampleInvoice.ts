import { usdcPaymentUri } from "../domain/paymentUri.ts";
import type { InvoicePdfData } from "./invoiceDocument.ts";

const DEPOSIT = "0x8ba1f109551bD432803012645Ac136ddd64DBA72";

/**
 * A typical invoice (two lines, Latin text): what each render thread renders once before its
 * first request, and what benchmarks and tests render.
 */
export const sampleInvoice: InvoicePdfData = {
  invoiceNumber: "INV-0001",
  issueDate: "2026-11-01",
  dueDate: "2099-12-31",
  createdAt: new Date("2026-11-01T12:00:00.000Z"),
  merchant: {
    name: "Acme Ltd",
    address: "1 Market Street, San Francisco",
    email: "bench@example.com",
  },
  vendor: { name: "Globex Corporation", email: "ap@globex.example", address: null },
  lineItems: [
    { description: "Design work", quantity: "2", unitPrice: 75_000_000n, lineTotal: 150_000_000n },
    { description: "Hosting", quantity: "1", unitPrice: 125_000n, lineTotal: 125_000n },
  ],
  totalAmount: 150_125_000n,
  notes: null,
  depositAddress: DEPOSIT,
  paymentUri: usdcPaymentUri(DEPOSIT, 150_125_000n),
  invoiceUrl: "http://localhost:3000/i/abc",
};
