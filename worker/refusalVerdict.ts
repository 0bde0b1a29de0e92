import { Refusal, type RefusalKind } from "../app/refusal.ts";

/**
 * What the worker does with a refusal of the application: `permanent`, the same input will be
 * refused again (give up, record why); `retryable`, time or an operator may clear it (throw,
 * and graphile-worker retries the job with its backoff).
 */
export type RefusalVerdict = "permanent" | "retryable";

/** The worker's own reading of each kind of refusal (the API's is an HTTP status, api/errors.ts). */
export const VERDICT_OF = {
  invalid: "permanent",
  unauthenticated: "permanent",
  payment_required: "permanent",
  forbidden: "permanent",
  not_found: "permanent",
  unprocessable: "permanent",
  conflict: "permanent",
  too_large: "permanent",
  unsupported_media_type: "permanent",
  rate_limited: "retryable",
  internal: "retryable",
  unavailable: "retryable",
} as const satisfies Record<RefusalKind, RefusalVerdict>;

/**
 * A refusal that a retry will not clear, or undefined for anything else (a retryable refusal,
 * a fault): the caller records the one and rethrows the other.
 *
 * @example
 * const refused = permanentRefusal(error);
 * if (refused) return pause(refused.code);
 * throw error;
 */
export function permanentRefusal(error: unknown): Refusal | undefined {
  return error instanceof Refusal && VERDICT_OF[error.kind] === "permanent" ? error : undefined;
}
