// Payment links: create, read, list, refund.
import type { RequestOptions } from "../http.js";
import type { Operations } from "../operations.js";
import type { CreateLinkRequest, CreateRefundRequest, ListFilters } from "../types.js";

/** `remit.links`. */
export function links(api: Operations) {
  return {
    /** `POST /api/links` under an Idempotency-Key (generated unless given): safe to retry. */
    create: (body: CreateLinkRequest, options?: RequestOptions) =>
      api.operation("post", "/api/links", { body, idempotent: true, options }),
    get: (slug: string, options?: RequestOptions) =>
      api.operation("get", "/api/links/{slug}", { params: { slug }, options }),
    /** Every link matching `filters`, newest first, page after page. */
    list: (filters: ListFilters<"/api/links"> = {}, options?: RequestOptions) =>
      api.list("/api/links", filters, options),
    /** Refunds money Remit still holds for the link, under an Idempotency-Key like invoices'. */
    refund: (slug: string, body: CreateRefundRequest, options?: RequestOptions) =>
      api.operation("post", "/api/links/{slug}/refunds", {
        params: { slug },
        body,
        idempotent: true,
        options,
      }),
  };
}

export type Links = ReturnType<typeof links>;
