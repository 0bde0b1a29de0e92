import type { ApiErrorBody, FieldError } from "./types.js";

/**
 * An answer of the API that is not a success, or a request that never got one. `status` is the
 * HTTP status (0 when no answer came: `code` is then `network_error`), `code` the API's stable
 * error code (`validation_failed`, `not_found`, `rate_limited`, …), `fields` every failing field
 * of a 400, `requestId` the id to quote (it is in the server's log line).
 */
export class RemitError extends Error {
  override name = "RemitError";
  readonly status: number;
  readonly code: string;
  readonly fields: FieldError[];
  readonly requestId: string | undefined;
  /** Seconds the API asked to wait before retrying (`Retry-After`), when it did. */
  readonly retryAfter: number | undefined;

  constructor(
    message: string,
    details: {
      status: number;
      code: string;
      fields?: FieldError[];
      requestId?: string;
      retryAfter?: number;
      cause?: unknown;
    },
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.status = details.status;
    this.code = details.code;
    this.fields = details.fields ?? [];
    this.requestId = details.requestId;
    this.retryAfter = details.retryAfter;
  }

  /** The error of an answer whose body has been read as `text`. */
  static fromResponse(response: Response, text: string, retryAfter?: number): RemitError {
    let body: Partial<ApiErrorBody> | undefined;
    try {
      body = JSON.parse(text) as Partial<ApiErrorBody>;
    } catch {
      body = undefined;
    }
    const error = body?.error;
    const requestId = error?.request_id ?? response.headers.get("x-request-id") ?? undefined;
    const code = error?.code ?? `http_${response.status}`;
    const message = error?.message ?? (text.slice(0, 200) || response.statusText);
    return new RemitError(`${response.status} ${code}: ${message}`, {
      status: response.status,
      code,
      ...(error?.fields ? { fields: error.fields } : {}),
      ...(requestId ? { requestId } : {}),
      ...(retryAfter === undefined ? {} : { retryAfter }),
    });
  }
}

/** A webhook delivery that is not proven to be Remit's: bad or missing signature, stale timestamp. */
export class WebhookVerificationError extends Error {
  override name = "WebhookVerificationError";
}
