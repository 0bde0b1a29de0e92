import { type FetchLike, type RequestOptions, Transport } from "./http.js";
import { PagedList } from "./paging.js";
import type { paths } from "./schema.js";
import type {
  CreateInvoiceRequest,
  CreateLinkRequest,
  CreateRefundRequest,
  CreateWebhookEndpoint,
  Event,
  ListFilters,
  ListItem,
  Page,
  QueryOf,
  RequestBody,
  SuccessBody,
  UpdateWebhookEndpoint,
} from "./types.js";

export type RemitOptions = {
  /** Where the Remit API is, such as `http://localhost:3000` (no trailing `/api`). */
  baseUrl: string;
  /** A `remit_sk_…` key (or a read-only one); open mode creates without one. */
  apiKey?: string;
  /** The fetch to use (default: the global one). */
  fetch?: FetchLike;
  /** Retries of a failed request that is safe to repeat (default 2; 0 turns them off). */
  maxRetries?: number;
  /** Each attempt's deadline, in milliseconds (default 60 000). */
  timeoutMs?: number;
  /** The longest wait before a retry (default 60 000 ms); a longer `Retry-After` is not waited for. */
  maxRetryDelayMs?: number;
};

type Method = "get" | "post" | "patch" | "delete";

type OperationCall<Path extends keyof paths, M extends keyof paths[Path]> = {
  /** The values of the path's `{name}` parameters. */
  params?: Record<string, string>;
  query?: QueryOf<Path, M> | Record<string, unknown>;
  body?: RequestBody<Path, M>;
  idempotent?: boolean;
  options?: RequestOptions | undefined;
};

/**
 * A typed client of the Remit API. Request and response types are the OpenAPI document's
 * (schema.ts, generated); errors are RemitError; lists are async iterables that follow
 * `next_cursor`.
 *
 * @example
 * const remit = new Remit({ baseUrl: "http://localhost:3000", apiKey: process.env.REMIT_API_KEY });
 * const invoice = await remit.invoices.create({ merchant_email: "…", … });
 * for await (const unpaid of remit.invoices.list({ status: "sent,overdue" })) console.log(unpaid.invoice_number);
 */
export class Remit {
  private readonly http: Transport;

  constructor(options: RemitOptions) {
    this.http = new Transport(options);
  }

  /** The request of the document's operation `method path`, answered with its success body. */
  private operation<Path extends keyof paths, M extends Method & keyof paths[Path]>(
    method: M,
    path: Path,
    call: OperationCall<Path, M> = {},
  ): Promise<SuccessBody<Path, M>> {
    return this.http.json<SuccessBody<Path, M>>({ ...this.request(method, path, call) });
  }

  /** The successful answer of a route whose body is not JSON (a PDF, a CSV). */
  private raw<Path extends keyof paths>(
    path: Path,
    call: OperationCall<Path, "get" & keyof paths[Path]> = {},
  ): Promise<Response> {
    return this.http.send(this.request("get", path, call));
  }

  private request(method: Method, path: string, call: OperationCall<keyof paths, never>) {
    const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = call.params?.[name];
      if (value === undefined || value === "") throw new TypeError(`${name} is required`);
      return encodeURIComponent(value);
    });
    return {
      method: method.toUpperCase() as Uppercase<Method>,
      path: filled,
      query: call.query as Record<string, unknown> | undefined,
      body: call.body,
      idempotent: call.idempotent ?? false,
      options: call.options,
    };
  }

  private list<Path extends keyof paths>(
    path: Path,
    filters: Record<string, unknown>,
    options: RequestOptions | undefined,
  ): PagedList<ListItem<Path>> {
    return new PagedList((cursor) =>
      this.http.json<Page<ListItem<Path>>>(
        this.request("get", path, { query: { ...filters, cursor }, options }),
      ),
    );
  }

  readonly invoices = {
    /** `POST /api/invoices` under an Idempotency-Key (generated unless given): safe to retry. */
    create: (body: CreateInvoiceRequest, options?: RequestOptions) =>
      this.operation("post", "/api/invoices", { body, idempotent: true, options }),
    get: (id: string, options?: RequestOptions) =>
      this.operation("get", "/api/invoices/{id}", { params: { id }, options }),
    /** Every invoice matching `filters`, newest first, page after page. */
    list: (filters: ListFilters<"/api/invoices"> = {}, options?: RequestOptions) =>
      this.list("/api/invoices", filters, options),
    /** `GET /api/invoices/{id}/status` (no key needed). */
    status: (id: string, options?: RequestOptions) =>
      this.operation("get", "/api/invoices/{id}/status", { params: { id }, options }),
    /** Emails a draft to the vendor; a 409 `invoice_not_draft` otherwise. */
    send: (id: string, options?: RequestOptions) =>
      this.operation("post", "/api/invoices/{id}/send", { params: { id }, options }),
    /** Voids an unpaid invoice; a 409 `invoice_not_voidable` otherwise. */
    void: (id: string, options?: RequestOptions) =>
      this.operation("post", "/api/invoices/{id}/void", { params: { id }, options }),
    /** The stored PDF's bytes. */
    pdf: async (id: string, options?: RequestOptions) =>
      new Uint8Array(
        await (await this.raw("/api/invoices/{id}/pdf", { params: { id }, options })).arrayBuffer(),
      ),
    /** Refunds money Remit still holds for the invoice. No Idempotency-Key: retried on 429 only. */
    refund: (id: string, body: CreateRefundRequest, options?: RequestOptions) =>
      this.operation("post", "/api/invoices/{id}/refunds", { params: { id }, body, options }),
    /** The invoice's events, with their deliveries and attempts. */
    webhooks: (id: string, options?: RequestOptions) =>
      this.operation("get", "/api/invoices/{id}/webhooks", { params: { id }, options }),
  };

  readonly links = {
    /** `POST /api/links` under an Idempotency-Key (generated unless given): safe to retry. */
    create: (body: CreateLinkRequest, options?: RequestOptions) =>
      this.operation("post", "/api/links", { body, idempotent: true, options }),
    get: (slug: string, options?: RequestOptions) =>
      this.operation("get", "/api/links/{slug}", { params: { slug }, options }),
    /** Every link matching `filters`, newest first, page after page. */
    list: (filters: ListFilters<"/api/links"> = {}, options?: RequestOptions) =>
      this.list("/api/links", filters, options),
    /** Refunds money Remit still holds for the link. No Idempotency-Key: retried on 429 only. */
    refund: (slug: string, body: CreateRefundRequest, options?: RequestOptions) =>
      this.operation("post", "/api/links/{slug}/refunds", { params: { slug }, body, options }),
  };

  readonly payments = {
    /** Every counted payment matching `filters`, newest block first, page after page. */
    list: (filters: ListFilters<"/api/payments"> = {}, options?: RequestOptions) =>
      this.list("/api/payments", filters, options),
  };

  readonly events = {
    /** The account's events, newest first, each exactly the body that was delivered. */
    list: (filters: ListFilters<"/api/events"> = {}, options?: RequestOptions): PagedList<Event> =>
      this.list("/api/events", filters, options),
    /** The event and its deliveries, per endpoint. */
    get: (id: string, options?: RequestOptions) =>
      this.operation("get", "/api/events/{id}", { params: { id }, options }),
  };

  readonly webhookEndpoints = {
    /** The answer's `secret` is shown this once. */
    create: (body: CreateWebhookEndpoint, options?: RequestOptions) =>
      this.operation("post", "/api/webhook-endpoints", { body, options }),
    /** Every endpoint of the account, oldest first (never a secret). */
    list: async (options?: RequestOptions) =>
      (await this.operation("get", "/api/webhook-endpoints", { options })).data,
    get: (id: string, options?: RequestOptions) =>
      this.operation("get", "/api/webhook-endpoints/{id}", { params: { id }, options }),
    /** Changes `url`, `events` or `enabled`. */
    update: (id: string, body: UpdateWebhookEndpoint, options?: RequestOptions) =>
      this.operation("patch", "/api/webhook-endpoints/{id}", { params: { id }, body, options }),
    delete: (id: string, options?: RequestOptions) =>
      this.operation("delete", "/api/webhook-endpoints/{id}", { params: { id }, options }),
    /** A new secret, in this answer only; the previous one keeps signing too during the overlap. */
    rotateSecret: (id: string, options?: RequestOptions) =>
      this.operation("post", "/api/webhook-endpoints/{id}/rotate-secret", {
        params: { id },
        options,
      }),
    /** Queues a signed `webhook.test` event to this endpoint. */
    test: (id: string, options?: RequestOptions) =>
      this.operation("post", "/api/webhook-endpoints/{id}/test", { params: { id }, options }),
  };

  readonly exports = {
    /** The CSV of the invoices created in `from`…`to`, one row per line item. */
    invoices: async (
      query: QueryOf<"/api/exports/invoices.csv", "get">,
      options?: RequestOptions,
    ) => (await this.raw("/api/exports/invoices.csv", { query, options })).text(),
    /** The CSV of the payments and refunds in `from`…`to`. */
    payments: async (
      query: QueryOf<"/api/exports/payments.csv", "get">,
      options?: RequestOptions,
    ) => (await this.raw("/api/exports/payments.csv", { query, options })).text(),
  };
}
