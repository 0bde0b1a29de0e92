// Invoices: create, read, list, send, void, refund, remind; their PDFs, e-invoices and webhooks.
import type { RequestOptions } from "../http.js";
import type { Operations } from "../operations.js";
import type { CreateInvoiceRequest, CreateRefundRequest, ListFilters } from "../types.js";

/** `remit.invoices`. */
export function invoices(api: Operations) {
  return {
    /** `POST /api/invoices` under an Idempotency-Key (generated unless given): safe to retry. */
    create: (body: CreateInvoiceRequest, options?: RequestOptions) =>
      api.operation("post", "/api/invoices", { body, idempotent: true, options }),
    get: (id: string, options?: RequestOptions) =>
      api.operation("get", "/api/invoices/{id}", { params: { id }, options }),
    /** Every invoice matching `filters`, newest first, page after page. */
    list: (filters: ListFilters<"/api/invoices"> = {}, options?: RequestOptions) =>
      api.list("/api/invoices", filters, options),
    /** `GET /api/invoices/{id}/status` (no key needed). */
    status: (id: string, options?: RequestOptions) =>
      api.operation("get", "/api/invoices/{id}/status", { params: { id }, options }),
    /** Emails a draft to the vendor; a 409 `invoice_not_draft` otherwise. */
    send: (id: string, options?: RequestOptions) =>
      api.operation("post", "/api/invoices/{id}/send", { params: { id }, options }),
    /** Voids an unpaid invoice; a 409 `invoice_not_voidable` otherwise. */
    void: (id: string, options?: RequestOptions) =>
      api.operation("post", "/api/invoices/{id}/void", { params: { id }, options }),
    /** The stored PDF's bytes. */
    pdf: (id: string, options?: RequestOptions) =>
      api.bytes("/api/invoices/{id}/pdf", { params: { id }, options }),
    /**
     * The invoice as an EN 16931 e-invoice's bytes: `ubl` (Peppol BIS) or `cii` XML, or a
     * `facturx` PDF. A 409 `einvoice_fields_missing` names the fields the invoice lacks.
     */
    einvoice: (id: string, format: "ubl" | "cii" | "facturx", options?: RequestOptions) =>
      api.bytes("/api/invoices/{id}/einvoice", { params: { id }, query: { format }, options }),
    /**
     * Refunds money Remit still holds for the invoice, under an Idempotency-Key (generated
     * unless given): a retry answers the first refund, never pays twice. Without `amount`,
     * only what is held (an excess, a void invoice's payment): revenue needs an explicit amount.
     */
    refund: (id: string, body: CreateRefundRequest, options?: RequestOptions) =>
      api.operation("post", "/api/invoices/{id}/refunds", {
        params: { id },
        body,
        idempotent: true,
        options,
      }),
    /** The invoice's events, with their deliveries and attempts. */
    webhooks: (id: string, options?: RequestOptions) =>
      api.operation("get", "/api/invoices/{id}/webhooks", { params: { id }, options }),
    /** Queues a new delivery of one of the invoice's events (same body, same event id). */
    redeliver: (id: string, eventId: string, options?: RequestOptions) =>
      api.operation("post", "/api/invoices/{id}/webhooks/{event_id}/redeliver", {
        params: { id, event_id: eventId },
        options,
      }),
    /** Emails the vendor a reminder now; a 409 `nothing_due` when nothing is due. */
    remind: (id: string, options?: RequestOptions) =>
      api.operation("post", "/api/invoices/{id}/remind", { params: { id }, options }),
    /** The PDF's bytes by the invoice's `slug`, as its page links it (no key needed). */
    pdfBySlug: (slug: string, options?: RequestOptions) =>
      api.bytes("/api/invoices/by-slug/{slug}/pdf", { params: { slug }, options }),
  };
}

export type Invoices = ReturnType<typeof invoices>;
