import type { Role } from "../domain/accessPolicy.ts";
import type { DashboardSessionIdentity } from "../domain/dashboardSession.ts";
import type { ApiKeyScope, AuditActor } from "../domain/statuses.ts";

/**
 * Who is calling: a merchant through one of its API keys, a merchant signed in to the dashboard
 * (web/dashboard/*: never on /api, which takes no cookies), or nobody in particular.
 */
export type Identity =
  | {
      kind: "key";
      keyId: string;
      scope: ApiKeyScope;
      merchantId: string;
      /** Lower-case, as stored. */
      merchantEmail: string;
      /** The role the key is limited to; null: whatever its scope allows (made before roles). */
      role: Role | null;
      /** The member who made the key (null: the service itself, a schedule's issuing). */
      memberId: string | null;
      /** That member's role now: a key never does more than its maker may. */
      memberRole: Role;
    }
  | DashboardSessionIdentity
  | { kind: "anonymous" };

/** A caller acting as one merchant: with one of its keys, or signed in to its dashboard. */
export type MerchantIdentity = Extract<Identity, { kind: "key" | "session" }>;

/** Whether the caller is a merchant (a key or a dashboard session), not anonymous. */
export const isMerchant = (identity: Identity): identity is MerchantIdentity =>
  identity.kind !== "anonymous";

export type KeyIdentity = Extract<Identity, { kind: "key" }>;

/**
 * Who performed an action and in which request, for the audit log: what every use case of app/
 * takes, and decides on (app/authorize.ts), whichever adapter (API key, dashboard session, CLI)
 * it came through.
 */
export type Actor = { identity: Identity; requestId: string | null };

/** A merchant acting on its own account: with a key (the API) or signed in (the dashboard). */
export type MerchantActor = Actor & { identity: MerchantIdentity };

/** The audit log's `actor`, `key_id` and `member_id` (who did it) for a caller. */
export const auditActor = (
  identity: Identity,
): { actor: AuditActor; keyId: string | null; memberId: string | null } =>
  identity.kind === "key"
    ? { actor: "key", keyId: identity.keyId, memberId: identity.memberId }
    : identity.kind === "session"
      ? { actor: "dashboard", keyId: null, memberId: identity.memberId }
      : { actor: "anonymous", keyId: null, memberId: null };

/** The audit log entry of a merchant's `action` on `target`: who acted, with which key, in which request. */
export const merchantAudit = (actor: MerchantActor, action: string, target: string) => ({
  merchantId: actor.identity.merchantId,
  ...auditActor(actor.identity),
  action,
  target,
  requestId: actor.requestId,
});

/**
 * `open`: the spec's behaviour, no key needed, but a claimed merchant acts only with its keys;
 * `keys`: every /api route but the public ones needs a key. See docs/api.md, "Who may call what".
 */
export type AuthMode = "open" | "keys";

/** `open`: anyone may claim an email by proving they read it; `closed`: only existing accounts. */
export type SignupMode = "open" | "closed";

export type AuthSettings = { mode: AuthMode; signup: SignupMode };

/** The defaults of a local stack (and of an app built in a test without settings). */
export const OPEN_AUTH: AuthSettings = { mode: "open", signup: "open" };
