import { createRoute, OpenAPIHono, type RouteConfig, z } from "@hono/zod-openapi";
import type { Handler } from "hono";
import type { ZodError, ZodType } from "zod";
import type { AppEnv } from "./appEnv.ts";
import { ErrorResponseSchema, fieldErrors, validationError } from "./errors.ts";

/**
 * The router every route module registers on. A request that fails its route's zod schema is
 * answered 400 with every failing field at once (api/errors.ts); a route whose body refuses
 * unknown fields registers validationHook with its own keys, for "did you mean" hints.
 */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook() });
}

/** A validation hook answering 400 with every failing field; per route for its own hints. */
export function validationHook(knownKeys?: (path: string) => readonly string[]) {
  return (result: { success: boolean; error?: unknown; data?: unknown }): undefined => {
    if (!result.success)
      throw validationError(fieldErrors(result.error as ZodError, result.data, knownKeys));
    return undefined;
  };
}

export type Router = ReturnType<typeof createRouter>;

/**
 * A response with a JSON body of `schema`, for a route's `responses`, with an `example` body
 * for the document when the schema carries none of its own.
 */
export const jsonResponse = <Schema extends ZodType>(
  description: string,
  schema: Schema,
  example?: z.output<Schema>,
) => ({
  description,
  content: { "application/json": { schema, ...(example === undefined ? {} : { example }) } },
});

/** A route's `security` when it needs an API key: the `bearerAuth` scheme of api/auth/registerAuth.ts. */
export const keySecurity = [{ bearerAuth: [] }];

/**
 * A route that needs an API key, as createRoute declares it, with keySecurity after the route's
 * own fields (so after its description in the document).
 */
export const keyRoute = <
  P extends string,
  R extends Omit<RouteConfig, "path" | "security"> & { path: P },
>(
  config: R,
) => createRoute({ ...config, security: keySecurity });

/** A response with a CSV file for a route's `responses`, `example` the document's file. */
export const csvResponse = (example: string) => ({
  description: "The CSV file",
  content: { "text/csv": { schema: z.string(), example } },
});

const descriptions: Record<number, string> = {
  400: "Validation failed: `error.fields` lists every failing field (`path`, `message`, `code`).",
  404: "Not found.",
  409: "Conflict with the resource's state or with an earlier request.",
  413: "The body is larger than 256 KiB.",
  415: "The body is not JSON.",
  429: "Too many requests from this client IP (`rate_limited`); `Retry-After` says in how many seconds to retry.",
};

/**
 * A string path parameter `name` (`/api/…/{name}`) as the OpenAPI document shows it: its
 * example and what it names.
 */
export const pathParam = (name: string, example: string, description: string) =>
  z.string().openapi({ param: { name, in: "path" }, example, description });

/** The error responses a route can give, for the OpenAPI document. */
export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(
    statuses.map((status) => [
      status,
      jsonResponse(descriptions[status] ?? "Error", ErrorResponseSchema),
    ]),
  );

/**
 * Registers `route` in the OpenAPI document exactly as `app.openapi` does, but serves it with a
 * plain Hono handler: no zod validator runs per request. Only for hot routes whose parameters
 * are all plain strings (a zod `z.string()` path parameter can never fail), which the handler
 * reads with `c.req.param()` and judges itself.
 */
export function openapiUnvalidated<R extends RouteConfig>(
  app: Router,
  route: R,
  handler: Handler<AppEnv>,
): void {
  app.openAPIRegistry.registerPath(route);
  app.on([route.method.toUpperCase()], route.path.replaceAll(/\/{(.+?)}/g, "/:$1"), handler);
}
