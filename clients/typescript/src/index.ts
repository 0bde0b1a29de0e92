export { Remit, type RemitOptions } from "./client.js";
export { RemitError, WebhookVerificationError } from "./errors.js";
export type { FetchLike, RequestOptions } from "./http.js";
export { PagedList } from "./paging.js";
export type * from "./types.js";
export { type VerifyWebhookOptions, verifyWebhook, type WebhookHeaders } from "./webhooks.js";
