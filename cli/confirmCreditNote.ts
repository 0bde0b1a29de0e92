import * as p from "@clack/prompts";
import type { CreateCreditNoteInput } from "../app/creditNotes/schema.ts";
import { type ApiTarget, callApi } from "./api.ts";
import { CliCancelled } from "./io.ts";

type InvoiceSummary = {
  invoice_number: string;
  vendor_name: string;
  total_amount: string;
  credited_amount?: string;
  amount_due: string;
};

const taxOf = (line: { tax_category?: string; tax_rate?: string }) => {
  const tax = [line.tax_category, line.tax_rate && `${line.tax_rate} %`].filter(Boolean);
  return tax.length > 0 ? ` (tax ${tax.join(" ")})` : "";
};

/**
 * Asks, on a terminal, before a credit note is issued: it cannot be withdrawn (credit notes,
 * like invoices, are append-only). Shows the invoice as the API has it now and what the credit
 * note will take off; "No" or Ctrl-C issues nothing. On stderr, so stdout keeps only the answer.
 */
export async function confirmCreditNote(
  api: ApiTarget,
  invoiceId: string,
  body: CreateCreditNoteInput,
): Promise<void> {
  const invoice = (await callApi(api, `/api/invoices/${encodeURIComponent(invoiceId)}`))
    .body as InvoiceSummary;
  const output = process.stderr;
  const credited = body.full
    ? ["Everything it still asks for"]
    : (body.lines ?? []).map(
        (line) => `${line.description}: ${line.quantity} × ${line.unit_price} USDC${taxOf(line)}`,
      );
  p.note(
    [
      `${invoice.invoice_number} to ${invoice.vendor_name}: total ${invoice.total_amount} USDC, credited so far ${invoice.credited_amount ?? "0.00"}, due ${invoice.amount_due}`,
      "Credit:",
      ...credited.map((line) => `  ${line}`),
      `Reason: ${body.reason}`,
    ].join("\n"),
    "Credit note",
    { output },
  );
  const answer = await p.confirm({
    message: `Issue this credit note on ${invoice.invoice_number}? It cannot be withdrawn.`,
    initialValue: false,
    output,
  });
  if (p.isCancel(answer) || !answer) {
    p.cancel("Not issued.", { output });
    throw new CliCancelled();
  }
}
