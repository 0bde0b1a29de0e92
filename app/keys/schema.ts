import { z } from "@hono/zod-openapi";
import { API_KEY_SCOPES } from "../../domain/statuses.ts";
import { nonEmptyText, rule } from "../schemaFields.ts";

const EXAMPLE_KEY_ID = "5b0e3f6a-2c1d-4e8f-9a7b-3c4d5e6f7a8b";

const apiKeyFields = {
  id: z.uuid(),
  name: z.string(),
  scope: z.enum(API_KEY_SCOPES).openapi({
    description: "`write`: everything the merchant may do; `read`: list and read only.",
  }),
  last_four: z
    .string()
    .openapi({ description: "The key's last four characters, to tell keys apart." }),
  created_at: z.string(),
  last_used_at: z.string().nullable().openapi({ description: "Updated at most once a minute." }),
  revoked_at: z.string().nullable(),
};

export const apiKeyExample = {
  id: EXAMPLE_KEY_ID,
  name: "accounting export",
  scope: "read" as const,
  last_four: "x9Qe",
  created_at: "2026-11-01T09:30:00.000Z",
  last_used_at: null,
  revoked_at: null,
};

export const ApiKeySchema = z.object(apiKeyFields).openapi("ApiKey", { example: apiKeyExample });

export const CreateApiKeySchema = z
  .strictObject({
    name: nonEmptyText(100).openapi({
      example: "accounting export",
      description: "What the key is for.",
    }),
    scope: z
      .enum(API_KEY_SCOPES, rule("invalid_enum", 'must be "write" or "read"'))
      .optional()
      .openapi({ description: "Default `write`." }),
  })
  .openapi("CreateApiKey", { example: { name: "accounting export", scope: "read" } });

export const CreatedApiKeySchema = z
  .object({
    ...apiKeyFields,
    key: z.string().openapi({
      description:
        "The key itself (`remit_sk_…` write, `remit_rk_…` read): shown this once, stored only as a hash.",
    }),
  })
  .openapi("CreatedApiKey", {
    example: {
      ...apiKeyExample,
      key: "remit_rk_6dJq2WmXc8Lr4TnVb7YzK3hPs9GfA1eUo5iRt2NkMwQaZ3rx9Qe",
    },
  });

export const KeyIdParamSchema = z.object({
  id: z.string().openapi({
    param: { name: "id", in: "path" },
    example: EXAMPLE_KEY_ID,
    description: "The key's `id`; anything that is not one of your keys is a 404.",
  }),
});

export const createApiKeyKnownKeys = (path: string): readonly string[] =>
  path === "" ? Object.keys(CreateApiKeySchema.shape) : [];
