import { describe, expect, test } from "vitest";
import { creditNoteEmail } from "./creditNoteEmail.ts";

const data = {
  creditNoteNumber: "CN-0001",
  invoiceNumber: "INV-0007",
  merchantName: "Acme GmbH",
  amount: 20_000_000n,
  reason: "One day not worked",
  amountDue: 80_000_000n,
  invoiceUrl: "https://pay.example/i/abc",
};

describe("a credit note's email", () => {
  test("of an invoice priced in a currency: its amounts in that currency, none in USDC", () => {
    const email = creditNoteEmail({ ...data, currency: "EUR" });
    expect(email.subject).toBe("Credit note CN-0001 from Acme GmbH: 20.00 EUR off INV-0007");
    expect(email.text).toContain("taking 20.00 EUR off invoice INV-0007");
    expect(email.text).toContain("Invoice INV-0007 now asks for 80.00 EUR.");
    expect(email.html).toContain("now asks for 80.00 EUR.");
    for (const body of [email.subject, email.text, email.html]) expect(body).not.toContain("USDC");
  });

  test("of an invoice priced in USDC: in USDC, as before", () => {
    const email = creditNoteEmail(data);
    expect(email.subject).toBe("Credit note CN-0001 from Acme GmbH: 20.00 USDC off INV-0007");
    expect(email.text).toContain("Invoice INV-0007 now asks for 80.00 USDC.");
  });
});
