import type { ZodType } from "zod";
import type { AppDeps } from "../api/deps.ts";
import { ApiError, type FieldError, fieldErrors } from "../api/errors.ts";
import { clientOf, NO_PROXIES, rateLimit } from "../api/middleware/rateLimit.ts";
import { ExportQuerySchema } from "../app/exports/csvStream.ts";
import { invoicesCsv } from "../app/exports/invoicesCsv.ts";
import { paymentsCsv } from "../app/exports/paymentsCsv.ts";
import { createInvoice } from "../app/invoices/createInvoice.ts";
import { RedeliveryLimited } from "../app/invoices/queueRedelivery.ts";
import { redeliverInvoiceEvent } from "../app/invoices/redeliverEvent.ts";
import {
  CreateInvoiceSchema,
  checksummedAddress,
  createInvoiceKnownKeys,
  emailAddress,
  LineItemSchema,
  nonEmptyText,
  usdcAmount,
} from "../app/invoices/schema.ts";
import { voidInvoice } from "../app/invoices/voidInvoice.ts";
import { createApiKey, revokeOwnApiKey } from "../app/keys/manageKeys.ts";
import { CreateApiKeySchema, createApiKeyKnownKeys } from "../app/keys/schema.ts";
import { createLink, linkSnippets } from "../app/links/createLink.ts";
import { CreateLinkSchema, createLinkKnownKeys } from "../app/links/schema.ts";
import { requestClaimLink } from "../app/merchants/claim.ts";
import { addOwnPayoutWallet, removeOwnPayoutWallet } from "../app/merchants/manageWallets.ts";
import { emailOneTimeLink } from "../app/merchants/oneTimeLink.ts";
import { confirmNotificationEmailLink, updateSettings } from "../app/merchants/settings.ts";
import {
  createRefundKnownKeys,
  previewInvoiceRefund,
  refundInvoice,
} from "../app/refunds/refundInvoice.ts";
import { CreateRefundSchema } from "../app/refunds/schema.ts";
import { findMerchantSettings } from "../db/queries/merchantSettings.ts";
import { findMerchantByEmail } from "../db/queries/merchants.ts";
import { priceLineItems } from "../domain/invoiceTotals.ts";
import { formatUsdc } from "../domain/money.ts";
import type { DashboardActions, Refusal } from "../web/dashboard/actions.ts";

const byPath = (fields: FieldError[] | undefined): Record<string, string> =>
  Object.fromEntries((fields ?? []).map((field) => [field.path || "form", field.message]));

/** A client's error from the API's functions, as the dashboard shows it; anything else rethrown. */
function refusal(error: unknown): Refusal {
  if (!(error instanceof ApiError)) throw error;
  return {
    ok: false,
    status: error.status as Refusal["status"],
    message: error.message,
    fields: byPath(error.fields),
    ...(error instanceof RedeliveryLimited ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
  };
}

/** A body checked as the API's route checks it: its data, or the route's 400 field messages. */
function validated<T>(
  schema: ZodType<T>,
  body: unknown,
  knownKeys: (path: string) => readonly string[],
): { ok: true; data: T } | Refusal {
  const parsed = schema.safeParse(body);
  if (parsed.success) return { ok: true, data: parsed.data };
  const fields = fieldErrors(parsed.error, body, knownKeys);
  return { ok: false, status: 400, message: "validation failed", fields: byPath(fields) };
}

/**
 * The dashboard's actions (web/dashboard/actions.ts) from the API's own functions: the same
 * schemas and messages, the same creation, limits and audit entries (actor `dashboard`).
 */
export function dashboardActions(deps: AppDeps): DashboardActions {
  const limits = deps.accountLimits;
  return {
    signInRateLimit: limits
      ? rateLimit(limits.claims, deps.rateLimits?.trustedProxies ?? NO_PROXIES, "sign-in")
      : null,
    isEmailAddress: (text) => emailAddress.safeParse(text).success,
    checkSettings(values) {
      const errors: Record<string, string> = {};
      const check = (key: string, schema: ZodType) => {
        const value = values[key];
        if (value === undefined) return;
        const result = schema.safeParse(value);
        if (!result.success) errors[key] = result.error.issues[0]?.message ?? "is invalid";
      };
      check("default_name", nonEmptyText(200));
      check("default_address", nonEmptyText(1000));
      check("notification_email", emailAddress);
      return errors;
    },
    invoiceTotal(lines) {
      const parsed = LineItemSchema.array().min(1).safeParse(lines);
      return parsed.success ? priceLineItems(parsed.data).total : null;
    },
    clientOf: (c) => clientOf(c, deps.rateLimits?.trustedProxies ?? NO_PROXIES),
    async requestSignInLink(email, client) {
      const sent = await deps.db.transaction().execute(async (trx) => {
        // Only a verified (claimed) address may sign in: the dashboard is its account's.
        const merchant = await findMerchantByEmail(trx, email);
        if (!merchant?.claimedAt) return false;
        const decision = await emailOneTimeLink(trx, deps, {
          email,
          purpose: "dashboard_sign_in",
          client,
        });
        return decision !== "withheld";
      });
      deps.log.info("dashboard sign-in requested", { link_sent: sent });
    },
    async createInvoice(actor, body, idempotencyKey) {
      const input = validated(CreateInvoiceSchema, body, createInvoiceKnownKeys);
      if (!input.ok) return input;
      try {
        const created = await createInvoice(deps, input.data, idempotencyKey, actor);
        return { ok: true, invoiceId: created.invoice_id };
      } catch (error) {
        return refusal(error);
      }
    },
    async createLink(actor, body, idempotencyKey) {
      const input = validated(CreateLinkSchema, body, createLinkKnownKeys);
      if (!input.ok) return input;
      try {
        const created = await createLink(deps, input.data, idempotencyKey, actor);
        return { ok: true, slug: created.slug };
      } catch (error) {
        return refusal(error);
      }
    },
    linkSnippets: (slug) => linkSnippets(deps.payUrl, slug),
    async redeliver(actor, invoiceId, eventId) {
      try {
        await redeliverInvoiceEvent(deps, actor, invoiceId, eventId);
        return { ok: true };
      } catch (error) {
        return refusal(error);
      }
    },
    async saveSettings(actor, values) {
      const { underpayment_tolerance: amount, ...texts } = values;
      if (amount !== undefined) {
        const input = validated(usdcAmount, amount, () => []);
        if (!input.ok)
          return {
            ...input,
            fields: { underpayment_tolerance: input.fields.form ?? "is invalid" },
          };
      }
      try {
        const saved = await updateSettings(deps, actor, actor.identity.merchantId, {
          ...texts,
          ...(amount === undefined ? {} : { underpayment_tolerance: amount }),
        });
        return { ok: true, pendingNotificationEmail: saved.pendingNotificationEmail };
      } catch (error) {
        return refusal(error);
      }
    },
    confirmNotificationEmail: (token, requestId) =>
      confirmNotificationEmailLink(deps, token, requestId),
    underpaymentTolerance: async (merchantId) =>
      formatUsdc((await findMerchantSettings(deps.db, merchantId)).underpaymentTolerance),
    async voidInvoice(actor, invoiceId) {
      try {
        await voidInvoice(deps, actor, invoiceId);
        return { ok: true };
      } catch (error) {
        return refusal(error);
      }
    },
    async refundInvoice(actor, invoiceId, body) {
      const input = validated(CreateRefundSchema, body, createRefundKnownKeys);
      if (!input.ok) return input;
      try {
        const { row, claimUrl } = await refundInvoice(deps, actor, invoiceId, input.data);
        return { ok: true, amount: formatUsdc(row.amount), claimUrl: claimUrl ?? null };
      } catch (error) {
        return refusal(error);
      }
    },
    async previewRefund(actor, invoiceId, body) {
      const input = validated(CreateRefundSchema, body, createRefundKnownKeys);
      if (!input.ok) return input;
      try {
        const preview = await previewInvoiceRefund(deps, actor, invoiceId, input.data);
        return { ok: true, ...preview, amount: formatUsdc(preview.amount) };
      } catch (error) {
        return refusal(error);
      }
    },
    signupOpen: deps.auth?.signup !== "closed",
    requestClaimLink: (email, client) => requestClaimLink(deps, email, client),
    async createKey(actor, body) {
      const input = validated(CreateApiKeySchema, body, createApiKeyKnownKeys);
      if (!input.ok) return input;
      const { row, key } = await createApiKey(deps, actor, {
        name: input.data.name,
        scope: input.data.scope ?? "write",
      });
      return { ok: true, key, name: row.name };
    },
    revokeKey: async (actor, id) => (await revokeOwnApiKey(deps, actor, id)) !== undefined,
    async addWallet(actor, address) {
      const input = validated(checksummedAddress, address, () => []);
      if (!input.ok) return { ...input, fields: { address: input.fields.form ?? "is invalid" } };
      try {
        await addOwnPayoutWallet(deps, actor, input.data);
        return { ok: true };
      } catch (error) {
        return refusal(error);
      }
    },
    removeWallet: (actor, address) => removeOwnPayoutWallet(deps, actor, address),
    async exportCsv(actor, what, params) {
      // Empty date fields of the dashboard's form mean "no bound", as an absent parameter.
      const given = Object.fromEntries(Object.entries(params).filter(([, v]) => v !== ""));
      const query = validated(ExportQuerySchema, given, () => ["from", "to", "bom"]);
      if (!query.ok) return query;
      try {
        const csv = what === "invoices" ? invoicesCsv : paymentsCsv;
        return {
          ok: true,
          response: await csv(deps, actor.identity.merchantId, given, query.data),
        };
      } catch (error) {
        return refusal(error);
      }
    },
  };
}
