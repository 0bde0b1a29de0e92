import type { Executor } from "../../db/database.ts";
import { type AuditDetails, recordAudit } from "../../db/queries/audit.ts";
import {
  confirmNotificationEmail,
  findMerchantSettings as findDashboardSettings,
  saveMerchantSettings,
  setPendingNotificationEmail,
} from "../../db/queries/dashboard.ts";
import { lockEmailBudget, recentNoticeVerifications } from "../../db/queries/emailBudget.ts";
import { queueAccountEmail } from "../../db/queries/emails.ts";
import {
  findMerchantSettings,
  type MerchantSettings,
  setUnderpaymentTolerance,
} from "../../db/queries/merchantSettings.ts";
import {
  findManagedWallet,
  findMerchantEmail,
  findRegisteredName,
} from "../../db/queries/merchants.ts";
import { listPayoutWallets } from "../../db/queries/payoutWallets.ts";
import { hashSecretToken, newClaimToken } from "../../domain/apiKeys.ts";
import { NOTICE_VERIFICATIONS_PER_ADDRESS_PER_HOUR } from "../../domain/emailBudget.ts";
import { formatUsdc, usdcToBaseUnits } from "../../domain/money.ts";
import { sealSecret } from "../../domain/secretBox.ts";
import { MAX_UNDERPAYMENT_TOLERANCE } from "../../domain/underpaymentTolerance.ts";
import { type Actor, auditActor } from "../actor.ts";
import { ownMerchantId } from "../authorize.ts";
import type { CoreDeps } from "../deps.ts";
import { chargeEmailToOthers } from "../emailBudget.ts";
import { RetryLaterError, validationError } from "../refusal.ts";

export type { MerchantSettings };

/** How long the link confirming a new notification email works. */
export const NOTIFICATION_EMAIL_LINK_TTL_HOURS = 24;

/** Settings to change; an absent one stays as it is (null: none, the account email). */
export type SettingsChange = {
  underpayment_tolerance?: string;
  default_name?: string | null;
  default_address?: string | null;
  notification_email?: string | null;
};

/**
 * Changes the actor's own merchant's settings (the API's PATCH and the dashboard's settings form) in one
 * transaction: one `settings.updated` audit entry with each change old → new, and an email to
 * the account's own address saying what changed. A new notification email is only pending:
 * payment notices keep going where they went until the link emailed to it is followed
 * (confirmNotificationEmailLink). Nothing changed: no entry, no email. A 400 on
 * `underpayment_tolerance` above the cap.
 */
export async function updateSettings(
  deps: Pick<CoreDeps, "db" | "webhookKeys" | "emailBudget">,
  actor: Actor,
  change: SettingsChange,
): Promise<{ pendingNotificationEmail: string | null }> {
  const merchantId = ownMerchantId(actor.identity);
  const tolerance =
    change.underpayment_tolerance === undefined
      ? undefined
      : usdcToBaseUnits(change.underpayment_tolerance);
  if (tolerance !== undefined && tolerance > MAX_UNDERPAYMENT_TOLERANCE)
    throw validationError([
      {
        path: "underpayment_tolerance",
        code: "too_large",
        message: `must be at most ${formatUsdc(MAX_UNDERPAYMENT_TOLERANCE)}`,
      },
    ]);
  return deps.db.transaction().execute(async (trx) => {
    const accountEmail = await findMerchantEmail(trx, merchantId);
    const old = await findDashboardSettings(trx, merchantId);
    const changes: AuditDetails = {};
    if (tolerance !== undefined) {
      const before = (await findMerchantSettings(trx, merchantId)).underpaymentTolerance;
      if (before !== tolerance) {
        await setUnderpaymentTolerance(trx, merchantId, tolerance);
        changes.underpayment_tolerance = { from: formatUsdc(before), to: formatUsdc(tolerance) };
      }
    }
    const next = {
      default_name: old.default_name,
      default_address: old.default_address,
      notification_email: old.notification_email,
    };
    for (const field of ["default_name", "default_address"] as const) {
      const value = change[field];
      if (value !== undefined && value !== old[field]) {
        changes[field] = { from: old[field], to: value };
        next[field] = value;
      }
    }
    let pending = old.pending_notification_email;
    let newToken: string | undefined;
    if (change.notification_email !== undefined) {
      const wanted = change.notification_email?.toLowerCase() || null;
      // What the settings show: the address waiting for its link, else the one in use.
      if (wanted !== (pending ?? old.notification_email)) {
        if (wanted === null || wanted === old.notification_email || wanted === accountEmail) {
          // Back to an address already proven (the account's own, or the one in use): at once.
          if (pending) changes.pending_notification_email = { from: pending, to: null };
          pending = null;
          if (wanted !== old.notification_email) {
            changes.notification_email = { from: old.notification_email, to: wanted };
            next.notification_email = wanted;
          }
        } else {
          changes.notification_email = { from: old.notification_email, to: wanted };
          pending = wanted;
          newToken = newClaimToken();
        }
      }
    }
    if (Object.keys(changes).length === 0) return { pendingNotificationEmail: pending };

    await saveMerchantSettings(trx, merchantId, next);
    if (pending !== old.pending_notification_email || newToken)
      await setPendingNotificationEmail(
        trx,
        merchantId,
        pending && newToken
          ? {
              email: pending,
              tokenHash: hashSecretToken(newToken),
              ttlMinutes: NOTIFICATION_EMAIL_LINK_TTL_HOURS * 60,
            }
          : null,
      );
    const by = auditActor(actor.identity);
    await recordAudit(trx, {
      merchantId,
      ...by,
      action: "settings.updated",
      target: Object.keys(changes).join(","),
      requestId: actor.requestId,
      details: changes,
    });
    if (pending && newToken) await chargeNoticeVerification(trx, deps, merchantId, pending);
    if (pending && newToken)
      await queueAccountEmail(trx, {
        kind: "notification_email_verification",
        recipient: pending,
        details: {
          merchant_email: accountEmail,
          hours: String(NOTIFICATION_EMAIL_LINK_TTL_HOURS),
        },
        sealed: sealSecret(newToken, deps.webhookKeys),
      });
    await queueAccountEmail(trx, {
      kind: "settings_changed",
      recipient: accountEmail,
      details: {
        changes: JSON.stringify(changes),
        pending: pending ?? "",
        ...(by.keyId ? { key_id: by.keyId } : {}),
      },
    });
    return { pendingNotificationEmail: pending };
  });
}

/**
 * Follows the link sent to a pending notification email: from now on payment notices go there.
 * Audited (`settings.notification_email_verified`, actor `dashboard`: it completes a dashboard
 * change). Answers the new address, or undefined when the link is unknown, used, replaced or
 * expired.
 */
export async function confirmNotificationEmailLink(
  deps: Pick<CoreDeps, "db">,
  token: string,
  requestId: string | null,
): Promise<string | undefined> {
  return deps.db.transaction().execute(async (trx) => {
    const confirmed = await confirmNotificationEmail(trx, hashSecretToken(token));
    if (!confirmed) return undefined;
    await recordAudit(trx, {
      merchantId: confirmed.merchantId,
      actor: "dashboard",
      keyId: null,
      action: "settings.notification_email_verified",
      target: confirmed.to,
      requestId,
      details: { notification_email: { from: confirmed.from, to: confirmed.to } },
    });
    return confirmed.to;
  });
}

/**
 * The merchant's settings as a new invoice starts from them: without a name of its own, the
 * name registered for it (`remit merchants add --name "Acme Ltd"`), so that nobody types it
 * again on the settings page or on every invoice (issue 42). Saved, it becomes its own.
 */
async function settingsWithRegisteredName(db: Executor, merchantId: string) {
  const settings = await findDashboardSettings(db, merchantId);
  if (settings.default_name !== null) return settings;
  const registered = await findRegisteredName(db, merchantId);
  return registered === null ? settings : { ...settings, default_name: registered };
}

/** The actor's defaults for a new invoice or link (its name and address), and its settings. */
export const merchantDefaults = (deps: Pick<CoreDeps, "db">, actor: Actor) =>
  settingsWithRegisteredName(deps.db, ownMerchantId(actor.identity));

/**
 * The actor's settings as its settings page shows them: the texts, the notification email (and
 * the one waiting for its link), the payout wallets, the managed wallet, and the underpayment
 * tolerance as the API shows it ("0.00").
 */
export async function merchantSettingsView(deps: Pick<CoreDeps, "db">, actor: Actor) {
  const merchantId = ownMerchantId(actor.identity);
  const [settings, wallets, managedWallet, tolerance] = await Promise.all([
    settingsWithRegisteredName(deps.db, merchantId),
    listPayoutWallets(deps.db, merchantId),
    findManagedWallet(deps.db, merchantId),
    findMerchantSettings(deps.db, merchantId),
  ]);
  return {
    settings,
    wallets,
    managedWallet,
    underpaymentTolerance: formatUsdc(tolerance.underpaymentTolerance),
  };
}

/** The actor's settings as the API shows them (the underpayment tolerance). */
export const ownSettings = (deps: Pick<CoreDeps, "db">, actor: Actor) =>
  findMerchantSettings(deps.db, ownMerchantId(actor.identity));

/**
 * A verification link to a would-be notice address goes to somebody who never asked for it:
 * capped per address like claim links (whoever asks: two accounts alternating cannot double
 * it), and charged to the merchant's budget of email to others. Over either: a 429 and the
 * settings change rolls back with it.
 */
async function chargeNoticeVerification(
  trx: Executor,
  deps: Pick<CoreDeps, "emailBudget">,
  merchantId: string,
  recipient: string,
): Promise<void> {
  // Requests for one address, from any account, count each other.
  await lockEmailBudget(trx, `notice:${recipient.toLowerCase()}`);
  if (
    (await recentNoticeVerifications(trx, recipient)) >= NOTICE_VERIFICATIONS_PER_ADDRESS_PER_HOUR
  )
    throw new RetryLaterError(
      "rate_limited",
      "rate_limited",
      `at most ${NOTICE_VERIFICATIONS_PER_ADDRESS_PER_HOUR} verification links an hour go to one address; nothing was changed or sent`,
      3600,
    );
  await chargeEmailToOthers(trx, deps.emailBudget, merchantId, recipient);
}
