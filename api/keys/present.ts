import type { z } from "@hono/zod-openapi";
import type { ApiKeyRow } from "../../app/keys/manageKeys.ts";
import type { ApiKeySchema } from "../../app/keys/schema.ts";

/** A key as the API lists it: never the key, never its hash. */
export const presentApiKey = (row: ApiKeyRow): z.infer<typeof ApiKeySchema> => ({
  id: row.id,
  name: row.name,
  scope: row.scope,
  role: row.role,
  member_id: row.member_id,
  last_four: row.last_four,
  created_at: row.created_at.toISOString(),
  last_used_at: row.last_used_at?.toISOString() ?? null,
  revoked_at: row.revoked_at?.toISOString() ?? null,
});
