import { z } from "@hono/zod-openapi";
import { createApiKey, ownApiKeys, revokeOwnApiKey } from "../../app/keys/manageKeys.ts";
import {
  ApiKeySchema,
  apiKeyExample,
  CreateApiKeySchema,
  CreatedApiKeySchema,
  createApiKeyKnownKeys,
  KeyIdParamSchema,
} from "../../app/keys/schema.ts";
import { merchantActorOf } from "../auth/authorize.ts";
import type { AppDeps } from "../deps.ts";
import { notFound } from "../errors.ts";
import { jsonBody, jsonRequestBody } from "../middleware/jsonBody.ts";
import { errorResponses, jsonResponse, keyRoute, type Router, validationHook } from "../openapi.ts";
import { presentApiKey } from "./present.ts";

const listRoute = keyRoute({
  method: "get",
  path: "/api/keys",
  tags: ["Account"],
  summary: "List your API keys",
  description:
    "Every key of the calling key's merchant, revoked ones included. Never a key itself.",
  responses: {
    200: jsonResponse("The keys", z.object({ keys: z.array(ApiKeySchema) }), {
      keys: [apiKeyExample],
    }),
    ...errorResponses(401),
  },
});

const createKeyRoute = keyRoute({
  method: "post",
  path: "/api/keys",
  tags: ["Account"],
  summary: "Create an API key",
  description:
    "A new key for the calling key's merchant (a `write` key is needed). The key is in this answer only: store it now.",
  middleware: [jsonBody],
  request: jsonRequestBody(CreateApiKeySchema),
  responses: {
    201: jsonResponse("Created", CreatedApiKeySchema),
    ...errorResponses(400, 401, 403, 413, 415),
  },
});

const revokeRoute = keyRoute({
  method: "delete",
  path: "/api/keys/{id}",
  tags: ["Account"],
  summary: "Revoke an API key",
  description:
    "At once, on every API replica (keys are looked up on every request). Revoking a revoked key changes nothing.",
  request: { params: KeyIdParamSchema },
  responses: {
    200: jsonResponse("The revoked key", ApiKeySchema),
    ...errorResponses(401, 403, 404),
  },
});

export function registerKeyRoutes(app: Router, deps: AppDeps): void {
  app.openapi(listRoute, async (c) => {
    const keys = await ownApiKeys(deps, merchantActorOf(c));
    return c.json({ keys: keys.map(presentApiKey) }, 200);
  });

  app.openapi<typeof createKeyRoute>(
    createKeyRoute,
    async (c) => {
      const input = c.req.valid("json");
      const { row, key } = await createApiKey(deps, merchantActorOf(c), {
        name: input.name,
        scope: input.scope ?? "write",
        role: input.role,
      });
      return c.json({ ...presentApiKey(row), key }, 201);
    },
    validationHook(createApiKeyKnownKeys),
  );

  app.openapi(revokeRoute, async (c) => {
    const row = await revokeOwnApiKey(deps, merchantActorOf(c), c.req.valid("param").id);
    if (!row) throw notFound("API key");
    return c.json(presentApiKey(row), 200);
  });
}
