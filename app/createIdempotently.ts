import type { Transaction } from "kysely";
import type { Database } from "../db/database.ts";
import { recordAudit } from "../db/queries/audit.ts";
import {
  claimIdempotencyKey,
  type IdempotencyScope,
  saveIdempotentResponse,
} from "../db/queries/idempotency.ts";
import { ensureMerchant, type MerchantAccount } from "../db/queries/merchants.ts";
import { findSealedWebhookSecret } from "../db/queries/webhookSecrets.ts";
import { requestHash } from "../domain/requestHash.ts";
import { openSecret } from "../domain/secretBox.ts";
import { type Actor, auditActor } from "./actor.ts";
import { assertActsAs, assertOwnEmail } from "./authorize.ts";
import type { CoreDeps } from "./deps.ts";
import { Refusal } from "./refusal.ts";

/** Where each kind of record lives; its key's operation is `create_<kind>`, its id `<kind>_id`. */
const TABLES = { invoice: "app.invoices", link: "app.payment_links" } as const;
/** What the log line of a creation (or its replay) carries of the 201 body. */
const LOGGED = {
  invoice: ["invoice_id", "invoice_number", "total_amount"],
  link: ["link_id", "amount"],
} as const;

export type CreationKind = keyof typeof TABLES;

/** What a creation answers: its 201 body, with the webhook secret when the record has one. */
export type WithWebhookSecret<Body> = Body | (Body & { webhook_secret: string });

/** A record just created, as {@link createIdempotently} stores and answers it. */
export type Creation<Body> = {
  /** The 201 body without the webhook secret: what is stored under the key. */
  body: Body;
  /** The new record's webhook secret in plain text, answered this once; null without a webhook_url. */
  webhookSecret: string | null;
};

export type CreationRequest<Kind extends CreationKind> = {
  kind: Kind;
  /** The request's Idempotency-Key; without one, every request creates. */
  key: string | undefined;
  /** The validated request body: the same key must come with the same one. */
  input: unknown;
  /** The body's merchant_email: whose record this is, and whose keys the Idempotency-Key is among. */
  merchantEmail: string;
  /** Who asks: must be allowed to act as that merchant (app/authorize.ts). */
  actor: Actor;
};

/**
 * Creates an invoice or a link in one transaction under an Idempotency-Key, audits and logs it
 * once committed. The caller must be allowed to act as the merchant first (a claimed merchant
 * needs its key: 401; a key of another merchant: 403), before any key is looked at, so a
 * replay never answers anyone else. Keys are the merchant's own (another merchant's same key
 * is another key) and expire after 24 hours. The first request with a key claims it, creates
 * and stores its 201 body; a
 * concurrent one waits on the key until the first commits. A later request with the same key
 * and body is answered that first body again (logged as a replay); with a different body it is
 * a 409 `idempotency_key_reused`.
 *
 * The webhook secret is never stored with the body (it lives sealed on the record alone): a
 * replay opens it from the record, since the client retrying may never have received the first
 * answer.
 *
 * @example
 * const body = await createIdempotently(
 *   deps,
 *   { kind: "link", key, input, merchantEmail: input.merchant_email, actor },
 *   (trx, merchant) => newLink(trx, merchant),
 * );
 */
export async function createIdempotently<
  Kind extends CreationKind,
  Body extends Record<`${Kind}_id` | (typeof LOGGED)[Kind][number], string>,
>(
  deps: Pick<CoreDeps, "db" | "webhookKeys" | "log">,
  request: CreationRequest<Kind>,
  create: (trx: Transaction<Database>, merchant: MerchantAccount) => Promise<Creation<Body>>,
): Promise<WithWebhookSecret<Body>> {
  const { kind, key, actor } = request;
  const operation = `create_${kind}` as const;
  const idOf = (body: Body) => body[`${kind}_id` as const];
  const merchantEmail = request.merchantEmail.toLowerCase();
  assertOwnEmail(actor.identity, merchantEmail);

  const { body, replayed } = await deps.db.transaction().execute(async (trx) => {
    const merchant = await ensureMerchant(trx, merchantEmail);
    assertActsAs(actor.identity, merchant);
    const scope: IdempotencyScope | null = key ? { merchantId: merchant.id, operation, key } : null;
    if (scope) {
      const previous = await claimIdempotencyKey(trx, scope, requestHash(request.input));
      if (previous === "conflict") {
        throw new Refusal(
          "conflict",
          "idempotency_key_reused",
          "this Idempotency-Key was used with a different request body",
        );
      }
      if (previous) {
        // What this function stored under a key of this operation: a Body.
        const stored = previous as Body;
        const sealed = await findSealedWebhookSecret(trx, TABLES[kind], idOf(stored));
        return {
          body: withSecret(stored, sealed && openSecret(sealed, deps.webhookKeys)),
          replayed: true,
        };
      }
    }
    const created = await create(trx, merchant);
    // The key's row names what it created.
    const id = idOf(created.body);
    await recordAudit(trx, {
      merchantId: merchant.id,
      ...auditActor(actor.identity),
      action: `${kind}.created`,
      target: id,
      requestId: actor.requestId,
    });
    if (scope)
      await saveIdempotentResponse(
        trx,
        scope,
        201,
        created.body,
        kind === "invoice" ? { invoiceId: id } : { linkId: id },
      );
    return { body: withSecret(created.body, created.webhookSecret), replayed: false };
  });

  const fields: readonly (typeof LOGGED)[Kind][number][] = LOGGED[kind];
  deps.log.info(
    replayed ? `${kind} creation replayed` : `${kind} created`,
    Object.fromEntries(fields.map((field) => [field, body[field]])),
  );
  return body;
}

const withSecret = <Body>(body: Body, secret: string | null): WithWebhookSecret<Body> =>
  secret ? { ...body, webhook_secret: secret } : body;
