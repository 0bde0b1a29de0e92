import { describe, expect, test } from "vitest";
import type { LookupTransfer } from "../domain/transactionLookup.ts";
import { explain, type PaidCheck } from "./paidButNotShowing.tsx";

const transfer = (to_kind: "invoice" | "link", invoice_number?: string): LookupTransfer => ({
  amount: "10.00",
  to_kind,
  ...(invoice_number ? { invoice_number } : {}),
  to_this: false,
  confirmations: 3,
  required_confirmations: 1,
  counted: true,
});

describe('"Paid but not showing?": a transaction that paid something else', () => {
  const answer = (to: LookupTransfer): PaidCheck => ({
    kind: "answer",
    input: "0xab",
    answer: { state: "counted", transfers: [to], message: "" },
  });

  test("its title names what it paid, as its text does, whatever page asks", () => {
    for (const page of ["invoice", "link"] as const) {
      const link = explain(answer(transfer("link")), page, "0x0");
      expect(link?.title).toBe("This paid another payment link");
      expect(link?.text).toBe("This transaction paid another payment link, not this one.");
      const invoice = explain(answer(transfer("invoice", "INV-0009")), page, "0x0");
      expect(invoice?.title).toBe("This paid another invoice");
      expect(invoice?.text).toContain("another invoice (INV-0009)");
    }
  });
});
