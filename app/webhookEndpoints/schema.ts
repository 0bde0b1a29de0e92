import { z } from "@hono/zod-openapi";
import { WEBHOOK_EVENT_FILTERS } from "../../domain/webhookEndpoints.ts";
import { rule } from "../schemaFields.ts";

export const EXAMPLE_ENDPOINT_ID = "8d2f6a1c-3b4e-4f5a-9c8d-7e6f5a4b3c2d";
export const EXAMPLE_ENDPOINT_SECRET = "whsec_Zm9yIGV4YW1wbGUgb25seSwgbm90IGEgcmVhbCBzZWNyZXQhIQ==";

const url = z
  .url({ protocol: /^https?$/, ...rule("invalid_url", "must be an http(s) URL") })
  .max(2000)
  .openapi({
    example: "https://acme.example/hooks/remit",
    description:
      "Receives the signed events. Must be https and public unless the server sets `ALLOW_PRIVATE_WEBHOOKS=true` (the rules of an invoice's `webhook_url`).",
  });

const events = z
  .array(
    z.enum(
      WEBHOOK_EVENT_FILTERS,
      rule("invalid_enum", `must be one of ${WEBHOOK_EVENT_FILTERS.join(", ")}`),
    ),
  )
  .min(1, rule("required", "must name at least one event type (omit it for every type)"))
  .max(WEBHOOK_EVENT_FILTERS.length)
  .openapi({
    example: ["invoice.paid"],
    description: `The event types sent to the endpoint: ${WEBHOOK_EVENT_FILTERS.map((t) => `\`${t}\``).join(", ")}. Omitted (or null): every type.`,
  });

export const CreateWebhookEndpointSchema = z
  .strictObject({ url, events: events.nullable().optional() })
  .openapi("CreateWebhookEndpoint", {
    example: { url: "https://acme.example/hooks/remit", events: ["invoice.paid"] },
  });

export const UpdateWebhookEndpointSchema = z
  .strictObject({
    url: url.optional(),
    events: events.nullable().optional(),
    enabled: z.boolean(rule("invalid_boolean", "must be true or false")).optional().openapi({
      description: "`false`: no new event is sent to the endpoint until enabled again.",
    }),
  })
  .openapi("UpdateWebhookEndpoint", { example: { enabled: false } });

/** The keys accepted at a path of the bodies, for "did you mean" hints. */
export const createKnownKeys = (path: string): readonly string[] =>
  path === "" ? Object.keys(CreateWebhookEndpointSchema.shape) : [];
export const updateKnownKeys = (path: string): readonly string[] =>
  path === "" ? Object.keys(UpdateWebhookEndpointSchema.shape) : [];

const endpointFields = {
  id: z.uuid(),
  url: z.string(),
  events: z
    .array(z.string())
    .nullable()
    .openapi({ description: "The event types sent; null: every type." }),
  enabled: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  previous_secret_expires_at: z.string().nullable().openapi({
    description:
      "After a rotation, until when deliveries are also signed with the secret before it; null outside a rotation's overlap.",
  }),
};

export const webhookEndpointExample = {
  id: EXAMPLE_ENDPOINT_ID,
  url: "https://acme.example/hooks/remit",
  events: ["invoice.paid"],
  enabled: true,
  created_at: "2026-11-01T09:30:00.000Z",
  updated_at: "2026-11-01T09:30:00.000Z",
  previous_secret_expires_at: null,
};

export const WebhookEndpointSchema = z
  .object(endpointFields)
  .openapi("WebhookEndpoint", { example: webhookEndpointExample });

export const WebhookEndpointWithSecretSchema = z
  .object({
    ...endpointFields,
    secret: z.string().openapi({
      description:
        "Signs every delivery to this endpoint (`whsec_` + base64 of 32 random bytes, the Standard Webhooks form). Shown in this answer only: store it.",
    }),
  })
  .openapi("WebhookEndpointWithSecret", {
    example: { ...webhookEndpointExample, secret: EXAMPLE_ENDPOINT_SECRET },
  });

export const EndpointIdParamSchema = z.object({
  id: z.string().openapi({
    param: { name: "id", in: "path" },
    example: EXAMPLE_ENDPOINT_ID,
    description: "The endpoint's `id`; another merchant's, or anything that is not one, is a 404.",
  }),
});
