import {
  type ApiKeyRow,
  insertApiKey,
  listApiKeys,
  revokeApiKey,
} from "../../db/queries/apiKeys.ts";
import { recordAudit } from "../../db/queries/audit.ts";
import type { Role } from "../../domain/accessPolicy.ts";
import { apiKeyRecord, newApiKey } from "../../domain/apiKeys.ts";
import type { ApiKeyScope } from "../../domain/statuses.ts";
import { UUID_PATTERN } from "../../domain/tokens.ts";
import { type Actor, type MerchantActor, merchantAudit } from "../actor.ts";
import { assertMayGrant, ownMerchantId } from "../authorize.ts";
import type { CoreDeps } from "../deps.ts";

export type { ApiKeyRow };

/**
 * Creates an API key for the actor's merchant, made by the actor's member and limited to
 * `role` (default: the actor's own key's role, or its member's role in the dashboard), never
 * one above the actor's (403 `role_above_yours`), audited in the same transaction. The key is in
 * the answer only (stored as a hash): POST /api/keys and the dashboard's keys page.
 */
export async function createApiKey(
  deps: Pick<CoreDeps, "db" | "log">,
  actor: MerchantActor,
  input: { name: string; scope: ApiKeyScope; role?: Role },
): Promise<{ row: ApiKeyRow; key: string }> {
  const { identity } = actor;
  const role =
    input.role ??
    (identity.kind === "key"
      ? identity.role
      : identity.memberRole === "owner"
        ? null
        : identity.memberRole);
  if (role !== null) assertMayGrant(identity, role);
  const key = newApiKey(input.scope);
  const row = await deps.db.transaction().execute(async (trx) => {
    const created = await insertApiKey(trx, {
      merchantId: actor.identity.merchantId,
      ...apiKeyRecord(key),
      name: input.name,
      scope: input.scope,
      role,
      memberId: identity.memberId,
    });
    await recordAudit(trx, merchantAudit(actor, "key.created", created.id));
    return created;
  });
  deps.log.info("api key created", { key_id: row.id, scope: input.scope });
  return { row, key };
}

/**
 * Revokes the actor's merchant's key `id` (audited when it was live); undefined when the
 * merchant has no such key: DELETE /api/keys/{id} and the dashboard's revoke button.
 */
export async function revokeOwnApiKey(
  deps: Pick<CoreDeps, "db" | "log">,
  actor: MerchantActor,
  id: string,
): Promise<ApiKeyRow | undefined> {
  if (!UUID_PATTERN.test(id)) return undefined;
  const row = await deps.db.transaction().execute(async (trx) => {
    const revoked = await revokeApiKey(trx, actor.identity.merchantId, id);
    if (revoked) await recordAudit(trx, merchantAudit(actor, "key.revoked", id));
    return revoked;
  });
  if (row) deps.log.info("api key revoked", { key_id: id });
  return row;
}

/** The actor's own API keys (revoked ones included), for its keys page. */
export const ownApiKeys = (deps: Pick<CoreDeps, "db">, actor: Actor): Promise<ApiKeyRow[]> =>
  listApiKeys(deps.db, ownMerchantId(actor.identity));
