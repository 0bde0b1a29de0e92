import { createRoute, z } from "@hono/zod-openapi";
import type { ZodType } from "zod";
import { type Actor, actorOf } from "./auth/identity.ts";
import { jsonBody, jsonRequestBody } from "./middleware/jsonBody.ts";
import { errorResponses, jsonResponse, type Router, validationHook } from "./openapi.ts";

/**
 * The optional `Idempotency-Key` header of the creation routes (see createIdempotently) and the
 * money routes (refunds, payouts: app/idempotency.ts).
 */
export const IdempotencyKeyHeadersSchema = z.object({
  "idempotency-key": z
    .string()
    .regex(/^[\x21-\x7e]{1,255}$/, "must be 1–255 visible ASCII characters")
    .optional()
    .openapi({
      example: "order-1042",
      description:
        "Retries safely: the same key and body return the original 201 (its `webhook_secret` too); the same key with another body is a 409. 1–255 visible ASCII characters.",
    }),
});

/** A key is optional in open mode, unless the merchant has claimed its email (docs/api.md). */
const OPTIONAL_KEY: Record<string, string[]>[] = [{ bearerAuth: [] }, {}];

export type CreationRouteParameters<Request extends ZodType, Response extends ZodType> = {
  path: string;
  tags: string[];
  summary: string;
  description: string;
  /** The JSON body's schema. */
  request: Request;
  /** The 201 body's schema. */
  response: Response;
  /** An example 201 body, when `response` carries no example of its own. */
  responseExample?: z.output<Response>;
};

/**
 * A `POST` that creates a resource from a JSON body (checked by jsonBody first: 413, 415 and
 * malformed JSON), retried safely under an `Idempotency-Key` (409 on another body), answered
 * 201, rate-limited per client (429).
 *
 * @example
 * const route = creationRoute({ path: "/api/links", tags: ["Payment links"], summary: "…",
 *   description: "…", request: CreateLinkSchema, response: CreateLinkResponseSchema });
 */
export function creationRoute<Request extends ZodType, Response extends ZodType>(
  parameters: CreationRouteParameters<Request, Response>,
) {
  const { request, response, responseExample, ...documented } = parameters;
  return createRoute({
    method: "post",
    ...documented,
    security: OPTIONAL_KEY,
    middleware: [jsonBody] as const,
    request: {
      headers: IdempotencyKeyHeadersSchema,
      ...jsonRequestBody(request),
    },
    responses: {
      201: jsonResponse("Created", response, responseExample),
      ...errorResponses(400, 401, 403, 409, 413, 415, 429),
    },
  });
}

/** Creates (or replays) from the validated body and Idempotency-Key, as `actor`; answers the 201 body. */
export type Create<Request extends ZodType, Response extends ZodType> = (
  input: z.output<Request>,
  idempotencyKey: string | undefined,
  actor: Actor,
) => Promise<z.output<Response>>;

/**
 * Registers a creationRoute: the validated body and key go to `create`, its body is the 201. A
 * 400 hints at the nearest of `knownKeys(path)` for an unknown field ("did you mean").
 */
export function registerCreation<Request extends ZodType, Response extends ZodType>(
  app: Router,
  route: ReturnType<typeof creationRoute<Request, Response>>,
  knownKeys: (path: string) => readonly string[],
  create: Create<Request, Response>,
): void {
  // Hono cannot resolve a route's input types while they are type parameters: the handler is
  // written once, for schemas of `unknown` values; the signature above keeps callers exact.
  registerAnyCreation(app, route, knownKeys, create);
}

function registerAnyCreation(
  app: Router,
  route: ReturnType<typeof creationRoute<ZodType<unknown>, ZodType<unknown>>>,
  knownKeys: (path: string) => readonly string[],
  create: Create<ZodType<unknown>, ZodType<unknown>>,
): void {
  app.openapi<typeof route>(
    route,
    async (c) =>
      c.json(
        await create(c.req.valid("json"), c.req.valid("header")["idempotency-key"], actorOf(c)),
        201,
      ),
    validationHook(knownKeys),
  );
}
