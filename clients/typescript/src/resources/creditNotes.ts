// Credit notes: issue one on an invoice, read them, their PDFs and e-invoices.
import type { RequestOptions } from "../http.js";
import type { Operations } from "../operations.js";
import type { CreateCreditNoteRequest } from "../types.js";

/** `remit.creditNotes`. */
export function creditNotes(api: Operations) {
  return {
    /**
     * Issues a credit note on the invoice `invoiceId` (`lines`, or `full: true`), under an
     * Idempotency-Key (generated unless given): a retry answers the first credit note.
     */
    create: (invoiceId: string, body: CreateCreditNoteRequest, options?: RequestOptions) =>
      api.operation("post", "/api/invoices/{id}/credit-notes", {
        params: { id: invoiceId },
        body,
        idempotent: true,
        options,
      }),
    get: (id: string, options?: RequestOptions) =>
      api.operation("get", "/api/credit-notes/{id}", { params: { id }, options }),
    /** Your newest 100 credit notes, or one invoice's. */
    list: async (filter: { invoice_id?: string } = {}, options?: RequestOptions) =>
      (await api.operation("get", "/api/credit-notes", { query: filter, options })).credit_notes,
    /** The stored PDF's bytes. */
    pdf: (id: string, options?: RequestOptions) =>
      api.bytes("/api/credit-notes/{id}/pdf", { params: { id }, options }),
    /** The credit note as an EN 16931 e-invoice's bytes (`ubl`, `cii` or `facturx`). */
    einvoice: (id: string, format: "ubl" | "cii" | "facturx", options?: RequestOptions) =>
      api.bytes("/api/credit-notes/{id}/einvoice", { params: { id }, query: { format }, options }),
  };
}

export type CreditNotes = ReturnType<typeof creditNotes>;
