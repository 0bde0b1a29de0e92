import { OpenAPIHono } from "@hono/zod-openapi";
import { ErrorResponseSchema, fieldErrors, validationError } from "./errors.ts";

/**
 * The router every route module registers on. A request that fails its route's zod schema is
 * answered 400 with every failing field at once (api/errors.ts).
 */
export function createRouter(knownKeys?: (path: string) => readonly string[]) {
  return new OpenAPIHono({
    defaultHook: (result) => {
      if (!result.success) {
        const input = (result as { data?: unknown }).data;
        throw validationError(fieldErrors(result.error, input, knownKeys));
      }
    },
  });
}

export type Router = ReturnType<typeof createRouter>;

const descriptions: Record<number, string> = {
  400: "Validation failed: `error.fields` lists every failing field (`path`, `message`, `code`).",
  404: "Not found.",
  409: "Conflict with the resource's state or with an earlier request.",
  413: "The body is larger than 256 KiB.",
  415: "The body is not JSON.",
};

/** The error responses a route can give, for the OpenAPI document. */
export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(
    statuses.map((status) => [
      status,
      {
        description: descriptions[status] ?? "Error",
        content: { "application/json": { schema: ErrorResponseSchema } },
      },
    ]),
  );
