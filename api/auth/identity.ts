import type { Context } from "hono";
import type { AuditActor } from "../../domain/statuses.ts";
import type { AppEnv, Identity } from "../appEnv.ts";

// Declared beside the request context that carries it, which this file reads.
export type { Identity } from "../appEnv.ts";

/** A caller acting as one merchant: with one of its keys, or signed in to its dashboard. */
export type MerchantIdentity = Extract<Identity, { kind: "key" | "session" }>;

/** Whether the caller is a merchant (a key or a dashboard session), not anonymous. */
export const isMerchant = (identity: Identity): identity is MerchantIdentity =>
  identity.kind !== "anonymous";

export type KeyIdentity = Extract<Identity, { kind: "key" }>;

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

const ANONYMOUS: Identity = { kind: "anonymous" };

/** The caller of this request (anonymous outside /api, where nothing authenticates). */
export const identityOf = (c: Context<AppEnv>): Identity => c.get("identity") ?? ANONYMOUS;

/** Who performed an action and in which request, for the audit log. */
export type Actor = { identity: Identity; requestId: string | null };

export const actorOf = (c: Context<AppEnv>): Actor => ({
  identity: identityOf(c),
  requestId: c.get("requestId") ?? null,
});

/** The audit log's `actor` and `key_id` for a caller. */
export const auditActor = (identity: Identity): { actor: AuditActor; keyId: string | null } =>
  identity.kind === "key"
    ? { actor: "key", keyId: identity.keyId }
    : identity.kind === "session"
      ? { actor: "dashboard", keyId: null }
      : { actor: "anonymous", keyId: null };
