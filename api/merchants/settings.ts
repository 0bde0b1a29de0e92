import { z } from "@hono/zod-openapi";
import {
  type MerchantSettings,
  ownSettings,
  updateSettings,
} from "../../app/merchants/settings.ts";
import { usdcAmount } from "../../app/schemaFields.ts";
import { formatUsdc } from "../../domain/money.ts";
import { requireKey } from "../auth/authorize.ts";
import { actorOf } from "../auth/identity.ts";
import type { AppDeps } from "../deps.ts";
import { jsonBody, jsonRequestBody } from "../middleware/jsonBody.ts";
import { errorResponses, jsonResponse, keyRoute, type Router, validationHook } from "../openapi.ts";

const toleranceDescription =
  'A shortfall of at most this many USDC still makes an invoice `paid` (exchange withdrawal fees are the usual cause); `paid_amount` always shows what really arrived. "0.00" (the default): only the exact total is `paid`, as spec §3.1 has it. At most "10.00". Applies to invoices created after the change (each invoice keeps the tolerance it was issued with), never to payment links.';

const SettingsSchema = z
  .object({ underpayment_tolerance: z.string().openapi({ description: toleranceDescription }) })
  .openapi("MerchantSettings", { example: { underpayment_tolerance: "0.50" } });

const UpdateSettingsSchema = z
  .strictObject({ underpayment_tolerance: usdcAmount.optional() })
  .openapi("UpdateMerchantSettings", { example: { underpayment_tolerance: "0.50" } });

const getRoute = keyRoute({
  method: "get",
  path: "/api/merchant/settings",
  tags: ["Account"],
  summary: "Read your settings",
  description: "Your account's settings: the underpayment tolerance.",
  responses: {
    200: jsonResponse("Your settings", SettingsSchema),
    ...errorResponses(401),
  },
});

const patchRoute = keyRoute({
  method: "patch",
  path: "/api/merchant/settings",
  tags: ["Account"],
  summary: "Change your settings",
  description: `Changes the fields given (a \`write\` key). \`underpayment_tolerance\`: ${toleranceDescription} A change is audited (\`settings.updated\`, old → new) and the account's email is told of it.`,
  middleware: [jsonBody],
  request: jsonRequestBody(UpdateSettingsSchema),
  responses: {
    200: jsonResponse("The settings now", SettingsSchema),
    ...errorResponses(400, 401, 403, 413, 415),
  },
});

const present = (settings: MerchantSettings) => ({
  underpayment_tolerance: formatUsdc(settings.underpaymentTolerance),
});

/** `GET` and `PATCH /api/merchant/settings`: a merchant's own settings, with its key. */
export function registerMerchantSettings(app: Router, deps: AppDeps): void {
  app.openapi(getRoute, async (c) => {
    requireKey(c);
    return c.json(present(await ownSettings(deps, actorOf(c))), 200);
  });

  app.openapi<typeof patchRoute>(
    patchRoute,
    async (c) => {
      requireKey(c);
      const body = c.req.valid("json");
      if (body.underpayment_tolerance !== undefined)
        await updateSettings(deps, actorOf(c), {
          underpayment_tolerance: body.underpayment_tolerance,
        });
      return c.json(present(await ownSettings(deps, actorOf(c))), 200);
    },
    validationHook((path) => (path === "" ? ["underpayment_tolerance"] : [])),
  );
}
