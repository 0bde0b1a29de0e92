import { createRoute, z } from "@hono/zod-openapi";
import type { AppDeps } from "../deps.ts";
import { jsonBody } from "../middleware/jsonBody.ts";
import { errorResponses, type Router, validationHook } from "../openapi.ts";
import { createLink } from "./createLink.ts";
import { CreateLinkResponseSchema, CreateLinkSchema, createLinkKnownKeys } from "./schema.ts";

const route = createRoute({
  method: "post",
  path: "/api/links",
  tags: ["Payment links"],
  summary: "Create a payment link",
  description:
    "A hosted checkout for one payment of `amount` USDC, with its own deposit address and embeddable snippets. " +
    "Create a new link per order so payments match orders. `metadata` is echoed in the status endpoint and webhooks; " +
    "`redirect_url` is where the checkout sends the payer once confirmed. Same validation, error shape and Idempotency-Key rules as invoices.",
  middleware: [jsonBody] as const,
  request: {
    headers: z.object({
      "idempotency-key": z
        .string()
        .regex(/^[\x21-\x7e]{1,255}$/, "must be 1–255 visible ASCII characters")
        .optional(),
    }),
    body: { required: true, content: { "application/json": { schema: CreateLinkSchema } } },
  },
  responses: {
    201: {
      description: "Created",
      content: { "application/json": { schema: CreateLinkResponseSchema } },
    },
    ...errorResponses(400, 409, 413, 415, 429),
  },
});

export function registerCreateLink(app: Router, deps: AppDeps): void {
  // The route's type given: otherwise the hook's loose parameter would be inferred as the input.
  app.openapi<typeof route>(
    route,
    async (c) => {
      const body = await createLink(
        deps,
        c.req.valid("json"),
        c.req.valid("header")["idempotency-key"],
      );
      deps.log.info("link created", { link_id: body.link_id, amount: body.amount });
      return c.json(body, 201);
    },
    // Its own hook, so "did you mean" hints come from the link schema.
    validationHook(createLinkKnownKeys),
  );
}
