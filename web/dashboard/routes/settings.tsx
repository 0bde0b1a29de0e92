import type { Context } from "hono";
import { getAddress } from "viem";
import type { ZodType } from "zod";
import { addOwnPayoutWallet, removeOwnPayoutWallet } from "../../../app/merchants/manageWallets.ts";
import { merchantSettingsView, updateSettings } from "../../../app/merchants/settings.ts";
import {
  createPayout,
  managedWalletOf,
  payoutsOf,
  requestedPayout,
} from "../../../app/payouts/createPayout.ts";
import { CreatePayoutSchema, createPayoutKnownKeys } from "../../../app/payouts/schema.ts";
import {
  checksummedAddress,
  emailAddress,
  nonEmptyText,
  usdcAmount,
} from "../../../app/schemaFields.ts";
import { formatUsdc } from "../../../domain/money.ts";
import { actionKeyOf, newActionKey, runConfirmed } from "../actionKey.ts";
import { type FormFields, formToBody, typedAmount } from "../forms.ts";
import { ManagedWalletCard, PayoutConfirmPage } from "../pages/payouts.tsx";
import { SettingsPage } from "../pages/settingsPage.tsx";
import { attempt, validated } from "../refusals.ts";
import type { DashboardEnv } from "../session.ts";
import { actorOf, formOf, notFound, type SignedInRoutes, session } from "./shared.tsx";

/** The API's messages for the settings' texts; {} when all are valid. */
function checkSettings(values: Record<string, string | undefined>): Record<string, string> {
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
}

/**
 * `/dashboard/settings`: the texts of new invoices and links, the notification email (pending
 * until the link sent to it is followed), the underpayment tolerance, and the payout wallets.
 */
export const registerSettings: SignedInRoutes = (app, deps) => {
  const settingsPage = async (
    c: Context<DashboardEnv>,
    extra: {
      notice?: string;
      values?: FormFields;
      errors?: Record<string, string>;
      walletValues?: FormFields;
      walletErrors?: Record<string, string>;
      payoutValues?: FormFields;
      payoutErrors?: Record<string, string>;
    },
    status: 200 | 400 | 409 | 429 = 200,
  ) => {
    const actor = actorOf(c);
    const payoutKey = actionKeyOf(c.req.query("payout_action"));
    const [view, wallet, payouts, requested] = await Promise.all([
      merchantSettingsView(deps, actor),
      managedWalletOf(deps, actor),
      payoutsOf(deps, actor),
      payoutKey ? requestedPayout(deps, actor, payoutKey) : undefined,
    ]);
    const { settings } = view;
    const values = extra.values ?? {
      default_name: settings.default_name ?? "",
      default_address: settings.default_address ?? "",
      // The address waiting for its link, when one is: what the merchant last asked for.
      notification_email: settings.pending_notification_email ?? settings.notification_email ?? "",
      underpayment_tolerance: view.underpaymentTolerance,
    };
    return c.html(
      <SettingsPage
        session={session(c)}
        state={{ values, errors: extra.errors ?? {} }}
        wallets={view.wallets.map((w) => ({ ...w, address: getAddress(w.address) }))}
        managedWallet={view.managedWallet && getAddress(view.managedWallet)}
        walletState={{ values: extra.walletValues ?? {}, errors: extra.walletErrors ?? {} }}
        notice={extra.notice}
        payoutRequested={
          requested && {
            amount: formatUsdc(requested.amount),
            to: getAddress(requested.to_address),
          }
        }
        managedWalletCard={
          wallet && (
            <ManagedWalletCard
              session={session(c)}
              wallet={wallet}
              payoutWallets={view.wallets.map((w) => getAddress(w.address))}
              payouts={payouts.slice(0, 5)}
              state={{ values: extra.payoutValues ?? {}, errors: extra.payoutErrors ?? {} }}
            />
          )
        }
        notificationEmail={{
          current: settings.notification_email,
          pending: settings.pending_notification_email,
        }}
      />,
      status,
    );
  };
  app.get("/settings", (c) => settingsPage(c, { notice: c.req.query("notice") }));
  app.post("/settings", async (c) => {
    const form = formOf(c);
    const body = formToBody(form, ["default_name", "default_address", "notification_email"]);
    const errors = checkSettings({
      default_name: body.default_name as string | undefined,
      default_address: body.default_address as string | undefined,
      notification_email: body.notification_email as string | undefined,
    });
    const typedTolerance = form.underpayment_tolerance?.trim();
    const readTolerance = typedTolerance ? typedAmount(typedTolerance) : null;
    if (readTolerance && !readTolerance.ok) errors.underpayment_tolerance = readTolerance.message;
    if (Object.keys(errors).length > 0) return settingsPage(c, { values: form, errors }, 400);
    const tolerance = readTolerance?.ok ? readTolerance.value : undefined;
    const text = (key: string) => (typeof body[key] === "string" ? (body[key] as string) : null);
    const toleranceInput =
      tolerance === undefined ? null : validated(usdcAmount, tolerance, () => []);
    const saved =
      toleranceInput && !toleranceInput.ok
        ? {
            ...toleranceInput,
            fields: { underpayment_tolerance: toleranceInput.fields.form ?? "is invalid" },
          }
        : await attempt(() =>
            updateSettings(deps, actorOf(c), {
              default_name: text("default_name"),
              default_address: text("default_address"),
              notification_email: text("notification_email")?.toLowerCase() ?? null,
              ...(tolerance ? { underpayment_tolerance: tolerance } : {}),
            }),
          );
    // Too many verification links (to that address, or to others from this account): said at
    // the field, as the 429 it is.
    if (!saved.ok && saved.status === 429)
      return settingsPage(c, { values: form, errors: { notification_email: saved.message } }, 429);
    if (!saved.ok) return settingsPage(c, { values: form, errors: saved.fields ?? {} }, 400);
    return c.redirect(
      `/dashboard/settings?notice=${saved.pendingNotificationEmail ? "saved_pending" : "saved"}`,
      303,
    );
  });
  app.post("/settings/wallets", async (c) => {
    const form = formOf(c);
    const address = form.address?.trim() ?? "";
    const input = validated(checksummedAddress, address, () => []);
    const added = input.ok
      ? await attempt(() => addOwnPayoutWallet(deps, actorOf(c), input.data))
      : { ...input, fields: { address: input.fields.form ?? "is invalid" } };
    if (!added.ok)
      return settingsPage(
        c,
        { walletValues: form, walletErrors: { address: added.fields.address ?? added.message } },
        400,
      );
    return c.redirect("/dashboard/settings?notice=wallet_added", 303);
  });
  // Withdraw: the form asks, a second screen confirms with a one-time action key, and the
  // confirmation answers POST → 303 → GET: a reload, a back button or a double click pays once.
  app.post("/settings/payouts", async (c) => {
    const form = formOf(c);
    const body = formToBody(form, ["amount", "to"]);
    const refused = (errors: Record<string, string>, status: 400 | 409 | 429) =>
      settingsPage(c, { payoutValues: form, payoutErrors: errors }, status);
    if (typeof body.amount === "string") {
      const amount = typedAmount(body.amount);
      if (!amount.ok) return refused({ amount: amount.message }, 400);
      body.amount = amount.value;
    }
    const input = validated(CreatePayoutSchema, body, createPayoutKnownKeys);
    if (!input.ok) return refused(input.fields, 400);
    if (form.confirm !== "1") {
      const wallet = await managedWalletOf(deps, actorOf(c));
      if (!wallet) return notFound(c, "managed wallet");
      return c.html(
        <PayoutConfirmPage
          session={session(c)}
          amount={input.data.amount}
          from={wallet.address}
          to={input.data.to}
          actionKey={newActionKey()}
        />,
      );
    }
    const { key, done } = await runConfirmed(form, input, (data, key) =>
      createPayout(deps, actorOf(c), data, { idempotencyKey: key }),
    );
    if (!done.ok)
      return refused(
        Object.keys(done.fields).length > 0 ? done.fields : { amount: done.message },
        done.status === 429 ? 429 : done.status === 409 ? 409 : 400,
      );
    return c.redirect(`/dashboard/settings?payout_action=${encodeURIComponent(key)}`, 303);
  });
  app.post("/settings/wallets/remove", async (c) => {
    const removed = await removeOwnPayoutWallet(deps, actorOf(c), formOf(c).address ?? "");
    if (!removed) return notFound(c, "payout wallet");
    return c.redirect("/dashboard/settings?notice=wallet_removed", 303);
  });
};
