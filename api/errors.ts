import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { type Refusal, type RefusalKind, RetryLaterError } from "../app/refusal.ts";
import { REFUSAL_HTTP_STATUS } from "../internal/refusalHttpStatus.ts";
import type { AppEnv } from "./appEnv.ts";

// The API's name for the application's one refusal type (app/refusal.ts).
export {
  type FieldError,
  fieldErrors,
  formatPath,
  notFound,
  Refusal as ApiError,
  RetryLaterError,
  validationError,
} from "../app/refusal.ts";

/** The HTTP status of each kind of refusal (internal/refusalHttpStatus.ts, the dashboard's too). */
export const HTTP_STATUS_OF = REFUSAL_HTTP_STATUS satisfies Record<
  RefusalKind,
  ContentfulStatusCode
>;

/** The HTTP status a refusal is answered with. */
export const httpStatusOf = (error: Refusal): ContentfulStatusCode => HTTP_STATUS_OF[error.kind];

const FieldErrorSchema = z.object({
  path: z
    .string()
    .openapi({ example: "line_items[0].unit_price", description: "The failing field." }),
  message: z.string().openapi({ description: "What is wrong with it, for people." }),
  code: z.string().openapi({ example: "invalid_decimal", description: "Stable, for programs." }),
});

/** Every error body: `{ "error": { code, message, request_id, fields? } }`. */
export const ErrorResponseSchema = z
  .object({
    error: z.object({
      code: z.string().openapi({
        description: "Stable, for programs: `validation_failed`, `not_found`, `rate_limited`, …",
      }),
      message: z.string().openapi({ description: "For people; may change." }),
      request_id: z.string().optional().openapi({
        description: "Also in the `X-Request-Id` header and the server's log line: quote it.",
      }),
      fields: z.array(FieldErrorSchema).optional().openapi({
        description:
          "On a 400 `validation_failed`: every failing field at once. On a 409 `einvoice_fields_missing`: every field the invoice lacks to be an e-invoice.",
      }),
    }),
  })
  .openapi("Error", {
    example: {
      error: {
        code: "validation_failed",
        message: "1 field failed validation",
        request_id: "9f2b6c1e-5a7d-4e3b-8c0f-1d2e3f4a5b6c",
        fields: [
          {
            path: "line_items[0].unit_price",
            message: 'must be a quoted decimal string with 1 to 6 decimals, such as "100.00"',
            code: "invalid_decimal",
          },
        ],
      },
    },
  });

/**
 * Writes an error body; the request id lets an operator find the log line.
 *
 * @param status the kind's status unless given (Hono's own HTTP exceptions keep theirs)
 */
export function errorResponse(
  c: Context<AppEnv>,
  error: Refusal,
  status: ContentfulStatusCode = httpStatusOf(error),
) {
  // Unset only if a response is written before the first middleware ran.
  const requestId: string | undefined = c.get("requestId");
  // RFC 6750: a 401 says how to authenticate, and whether the token sent was the problem.
  if (status === 401)
    c.header(
      "WWW-Authenticate",
      error.code === "invalid_api_key"
        ? 'Bearer realm="remit", error="invalid_token"'
        : 'Bearer realm="remit"',
    );
  if (error instanceof RetryLaterError) c.header("Retry-After", String(error.retryAfterSeconds));
  return c.json(errorBody(error, requestId), status);
}

/** The body of an error answer: `{ error: { code, message, request_id?, fields? } }`. */
export const errorBody = (error: Refusal, requestId: string | undefined) => ({
  error: {
    code: error.code,
    message: error.message,
    ...(requestId ? { request_id: requestId } : {}),
    ...(error.fields ? { fields: error.fields } : {}),
    ...(error.related ?? {}),
  },
});
