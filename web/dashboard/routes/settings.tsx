import type { Context } from "hono";
import { getAddress } from "viem";
import type { ZodType } from "zod";
import {
  checksummedAddress,
  emailAddress,
  nonEmptyText,
  usdcAmount,
} from "../../../app/invoices/schema.ts";
import { addOwnPayoutWallet, removeOwnPayoutWallet } from "../../../app/merchants/manageWallets.ts";
import { merchantSettingsView, updateSettings } from "../../../app/merchants/settings.ts";
import { type FormFields, formToBody, typedAmount } from "../forms.ts";
import { SettingsPage } from "../pages/forms.tsx";
import { attempt, validated } from "../refusals.ts";
import type { DashboardEnv } from "../session.ts";
import {
  actorOf,
  type DashboardDeps,
  formOf,
  notFound,
  type SignedInApp,
  session,
} from "./shared.tsx";

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
export function registerSettings(app: SignedInApp, deps: DashboardDeps): void {
  const settingsPage = async (
    c: Context<DashboardEnv>,
    extra: {
      notice?: string;
      values?: FormFields;
      errors?: Record<string, string>;
      walletValues?: FormFields;
      walletErrors?: Record<string, string>;
    },
    status: 200 | 400 = 200,
  ) => {
    const view = await merchantSettingsView(deps, actorOf(c));
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
  app.post("/settings/wallets/remove", async (c) => {
    const removed = await removeOwnPayoutWallet(deps, actorOf(c), formOf(c).address ?? "");
    if (!removed) return notFound(c, "payout wallet");
    return c.redirect("/dashboard/settings?notice=wallet_removed", 303);
  });
}
