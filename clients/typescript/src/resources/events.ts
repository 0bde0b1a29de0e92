// Events and the webhook endpoints they are delivered to.
import type { RequestOptions } from "../http.js";
import type { Operations } from "../operations.js";
import type { PagedList } from "../paging.js";
import type { CreateWebhookEndpoint, Event, ListFilters, UpdateWebhookEndpoint } from "../types.js";

/** `remit.events`. */
export function events(api: Operations) {
  return {
    /** The account's events, newest first, each exactly the body that was delivered. */
    list: (filters: ListFilters<"/api/events"> = {}, options?: RequestOptions): PagedList<Event> =>
      api.list("/api/events", filters, options),
    /** The event and its deliveries, per endpoint. */
    get: (id: string, options?: RequestOptions) =>
      api.operation("get", "/api/events/{id}", { params: { id }, options }),
  };
}

export type Events = ReturnType<typeof events>;

/** `remit.webhookEndpoints`. */
export function webhookEndpoints(api: Operations) {
  return {
    /** The answer's `secret` is shown this once. */
    create: (body: CreateWebhookEndpoint, options?: RequestOptions) =>
      api.operation("post", "/api/webhook-endpoints", { body, options }),
    /** Every endpoint of the account, oldest first (never a secret). */
    list: async (options?: RequestOptions) =>
      (await api.operation("get", "/api/webhook-endpoints", { options })).data,
    get: (id: string, options?: RequestOptions) =>
      api.operation("get", "/api/webhook-endpoints/{id}", { params: { id }, options }),
    /** Changes `url`, `events` or `enabled`. */
    update: (id: string, body: UpdateWebhookEndpoint, options?: RequestOptions) =>
      api.operation("patch", "/api/webhook-endpoints/{id}", { params: { id }, body, options }),
    delete: (id: string, options?: RequestOptions) =>
      api.operation("delete", "/api/webhook-endpoints/{id}", { params: { id }, options }),
    /** A new secret, in this answer only; the previous one keeps signing too during the overlap. */
    rotateSecret: (id: string, options?: RequestOptions) =>
      api.operation("post", "/api/webhook-endpoints/{id}/rotate-secret", {
        params: { id },
        options,
      }),
    /** Queues a signed `webhook.test` event to this endpoint. */
    test: (id: string, options?: RequestOptions) =>
      api.operation("post", "/api/webhook-endpoints/{id}/test", { params: { id }, options }),
  };
}

export type WebhookEndpoints = ReturnType<typeof webhookEndpoints>;
