import { z } from "@hono/zod-openapi";
import { ROLES } from "../../domain/accessPolicy.ts";
import { API_KEY_SCOPES } from "../../domain/statuses.ts";
import { nonEmptyText, rule } from "../schemaFields.ts";

const EXAMPLE_KEY_ID = "5b0e3f6a-2c1d-4e8f-9a7b-3c4d5e6f7a8b";

const apiKeyFields = {
  id: z.uuid(),
  name: z.string(),
  scope: z.enum(API_KEY_SCOPES).openapi({
    description: "`write`: everything the merchant may do; `read`: list and read only.",
  }),
  role: z.enum(ROLES).nullable().openapi({
    description:
      "The role the key is limited to (docs/members.md); null: whatever its scope allows (keys made before roles).",
  }),
  member_id: z.uuid().openapi({ description: "The member who made the key." }),
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
  role: "accountant" as const,
  member_id: "0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f",
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
    role: z
      .enum(ROLES, rule("invalid_enum", `must be one of ${ROLES.join(", ")}`))
      .optional()
      .openapi({
        description:
          "The role the key is limited to: never one that may do more than yours (403 `role_above_yours`). Default: your key's role (none for a key made before roles), or your role as a member.",
      }),
  })
  .openapi("CreateApiKey", {
    example: { name: "accounting export", scope: "read", role: "accountant" },
  });

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
