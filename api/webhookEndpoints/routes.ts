import { z } from "@hono/zod-openapi";
import {
  changeWebhookEndpoint,
  createWebhookEndpoint,
  ownWebhookEndpoint,
  ownWebhookEndpoints,
  removeWebhookEndpoint,
  rotateSecret,
  sendTestEvent,
} from "../../app/webhookEndpoints/manageEndpoints.ts";
import {
  CreateWebhookEndpointSchema,
  createKnownKeys,
  EndpointIdParamSchema,
  UpdateWebhookEndpointSchema,
  updateKnownKeys,
  WebhookEndpointSchema,
  WebhookEndpointWithSecretSchema,
  webhookEndpointExample,
} from "../../app/webhookEndpoints/schema.ts";
import { MAX_WEBHOOK_ENDPOINTS, TEST_EVENTS_PER_HOUR } from "../../domain/webhookEndpoints.ts";
import { merchantActorOf } from "../auth/authorize.ts";
import type { AppDeps } from "../deps.ts";
import { jsonBody, jsonRequestBody } from "../middleware/jsonBody.ts";
import { errorResponses, jsonResponse, keyRoute, type Router, validationHook } from "../openapi.ts";
import { presentWebhookEndpoint } from "./present.ts";

const tags = ["Webhook endpoints"];

const TestEventSchema = z
  .object({
    event_id: z.uuid(),
    type: z.literal("webhook.test"),
    created_at: z.string(),
    delivery_id: z.uuid(),
  })
  .openapi("WebhookTestEvent", {
    example: {
      event_id: "3f0c2b9e-6a7d-4e1f-8b2c-5d4e3f2a1b0c",
      type: "webhook.test",
      created_at: "2026-11-01T09:31:00.000Z",
      delivery_id: "c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f",
    },
  });

const listRoute = keyRoute({
  method: "get",
  path: "/api/webhook-endpoints",
  tags,
  summary: "List your webhook endpoints",
  description: "Every endpoint of the calling key's merchant, oldest first. Never a secret.",
  responses: {
    200: jsonResponse("The endpoints", z.object({ data: z.array(WebhookEndpointSchema) }), {
      data: [webhookEndpointExample],
    }),
    ...errorResponses(401),
  },
});

const createEndpointRoute = keyRoute({
  method: "post",
  path: "/api/webhook-endpoints",
  tags,
  summary: "Add a webhook endpoint",
  description: `Every event of the merchant's invoices and payment links (those \`events\` names; omitted: all) is sent to the endpoint, signed with its own secret, with the retries of any webhook. The secret is in this answer only. At most ${MAX_WEBHOOK_ENDPOINTS} endpoints an account (409 \`endpoint_limit_reached\`). A \`write\` key is needed.`,
  middleware: [jsonBody],
  request: jsonRequestBody(CreateWebhookEndpointSchema),
  responses: {
    201: jsonResponse("Created", WebhookEndpointWithSecretSchema),
    ...errorResponses(400, 401, 403, 409, 413, 415),
  },
});

const getRoute = keyRoute({
  method: "get",
  path: "/api/webhook-endpoints/{id}",
  tags,
  summary: "Get a webhook endpoint",
  request: { params: EndpointIdParamSchema },
  responses: {
    200: jsonResponse("The endpoint", WebhookEndpointSchema),
    ...errorResponses(401, 404),
  },
});

const updateRoute = keyRoute({
  method: "patch",
  path: "/api/webhook-endpoints/{id}",
  tags,
  summary: "Change a webhook endpoint",
  description:
    "Its `url` (deliveries still being retried go to the new one), `events` (null: every type) or `enabled` (a disabled endpoint is sent no new event). Fields left out are unchanged.",
  middleware: [jsonBody],
  request: { params: EndpointIdParamSchema, ...jsonRequestBody(UpdateWebhookEndpointSchema) },
  responses: {
    200: jsonResponse("The changed endpoint", WebhookEndpointSchema),
    ...errorResponses(400, 401, 403, 404, 413, 415),
  },
});

const deleteRoute = keyRoute({
  method: "delete",
  path: "/api/webhook-endpoints/{id}",
  tags,
  summary: "Delete a webhook endpoint",
  description:
    "Nothing more is sent to it: deliveries still being retried stop (`failed`). Its deliveries stay in the event log.",
  request: { params: EndpointIdParamSchema },
  responses: {
    200: jsonResponse("The deleted endpoint", WebhookEndpointSchema),
    ...errorResponses(401, 403, 404),
  },
});

const rotateRoute = keyRoute({
  method: "post",
  path: "/api/webhook-endpoints/{id}/rotate-secret",
  tags,
  summary: "Rotate a webhook endpoint's secret",
  description:
    "A new secret, in this answer only. For 24 hours (`previous_secret_expires_at`) every delivery is signed with both the new and the previous secret — two `v1,…` signatures in `webhook-signature`, two `sha256=…` values, comma-separated, in `X-Service-Signature` — so the receiver can switch secrets without refusing a delivery; after that, with the new one only. Rotating again within the overlap drops the oldest secret at once.",
  request: { params: EndpointIdParamSchema },
  responses: {
    200: jsonResponse("The endpoint with its new secret", WebhookEndpointWithSecretSchema),
    ...errorResponses(401, 403, 404),
  },
});

const testRoute = keyRoute({
  method: "post",
  path: "/api/webhook-endpoints/{id}/test",
  tags,
  summary: "Send a test event to a webhook endpoint",
  description: `Queues a signed \`webhook.test\` event (\`{event_id, type, created_at, endpoint_id}\`) to this endpoint only, enabled or not, delivered and retried like any event and listed in \`GET /api/events\`. At most ${TEST_EVENTS_PER_HOUR} an hour per account (429 \`rate_limited\`, \`Retry-After\`).`,
  request: { params: EndpointIdParamSchema },
  responses: {
    202: jsonResponse("Queued", TestEventSchema),
    ...errorResponses(401, 403, 404, 429),
  },
});

/** The API's webhook endpoint routes: a key's adapters over app/webhookEndpoints. */
export function registerWebhookEndpointRoutes(app: Router, deps: AppDeps): void {
  app.openapi(listRoute, async (c) => {
    const rows = await ownWebhookEndpoints(deps, merchantActorOf(c));
    return c.json({ data: rows.map(presentWebhookEndpoint) }, 200);
  });

  app.openapi<typeof createEndpointRoute>(
    createEndpointRoute,
    async (c) => {
      const { row, secret } = await createWebhookEndpoint(
        deps,
        merchantActorOf(c),
        c.req.valid("json"),
      );
      return c.json({ ...presentWebhookEndpoint(row), secret }, 201);
    },
    validationHook(createKnownKeys),
  );

  app.openapi(getRoute, async (c) =>
    c.json(
      presentWebhookEndpoint(
        await ownWebhookEndpoint(deps, merchantActorOf(c), c.req.valid("param").id),
      ),
      200,
    ),
  );

  app.openapi<typeof updateRoute>(
    updateRoute,
    async (c) => {
      const input = c.req.valid("json");
      const row = await changeWebhookEndpoint(
        deps,
        merchantActorOf(c),
        c.req.valid("param").id,
        input,
      );
      return c.json(presentWebhookEndpoint(row), 200);
    },
    validationHook(updateKnownKeys),
  );

  app.openapi(deleteRoute, async (c) => {
    const row = await removeWebhookEndpoint(deps, merchantActorOf(c), c.req.valid("param").id);
    return c.json(presentWebhookEndpoint(row), 200);
  });

  app.openapi(rotateRoute, async (c) => {
    const { row, secret } = await rotateSecret(deps, merchantActorOf(c), c.req.valid("param").id);
    return c.json({ ...presentWebhookEndpoint(row), secret }, 200);
  });

  app.openapi(testRoute, async (c) =>
    c.json(await sendTestEvent(deps, merchantActorOf(c), c.req.valid("param").id), 202),
  );
}
