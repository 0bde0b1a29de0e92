import { createRoute, z } from "@hono/zod-openapi";
import { requestClaimLink } from "../../app/merchants/claim.ts";
import { emailAddress } from "../../app/schemaFields.ts";
import type { AppDeps } from "../deps.ts";
import { jsonBody } from "../middleware/jsonBody.ts";
import { clientOf, NO_PROXIES } from "../middleware/rateLimit.ts";
import { errorResponses, jsonResponse, type Router, validationHook } from "../openapi.ts";

const ClaimSchema = z
  .strictObject({
    email: emailAddress.openapi({
      example: "billing@acme.example",
      description: "The merchant's email: the one its invoices and links name as `merchant_email`.",
    }),
  })
  .openapi("ClaimRequest", { example: { email: "billing@acme.example" } });

const ACCEPTED =
  "If this email may claim an account, a link valid for 30 minutes is on its way to it.";

const route = createRoute({
  method: "post",
  path: "/api/merchants/claim",
  tags: ["Account"],
  summary: "Claim a merchant account by email (no authentication)",
  description:
    "Emails a one-time link (`{PAY_URL}/claim/{token}`, 30 minutes) to the address; opening it and pressing its button creates an API key, shown once, and signs that browser in to the dashboard. " +
    "Always 202, whether or not a link was sent: nobody learns which emails have accounts. With `MERCHANT_SIGNUP=closed` only existing accounts get a link (a new key). " +
    "At most 5 new links an hour per address and 3 per address and client IP; past either, the newest live link is emailed again instead (at most once every 5 minutes per address), so nobody can spend an owner's links. Rate-limited per client IP (`RATE_LIMIT_CLAIMS_PER_MIN`).",
  middleware: [jsonBody],
  request: { body: { required: true, content: { "application/json": { schema: ClaimSchema } } } },
  responses: {
    202: jsonResponse(
      "Accepted (whether or not an email is sent)",
      z.object({ status: z.literal("accepted"), message: z.string() }),
      { status: "accepted", message: ACCEPTED },
    ),
    ...errorResponses(400, 413, 415, 429),
  },
});

export function registerClaimRoute(app: Router, deps: AppDeps): void {
  app.openapi<typeof route>(
    route,
    async (c) => {
      const email = c.req.valid("json").email.toLowerCase();
      await requestClaimLink(
        deps,
        email,
        clientOf(c, deps.rateLimits?.trustedProxies ?? NO_PROXIES),
      );
      return c.json({ status: "accepted" as const, message: ACCEPTED }, 202);
    },
    validationHook((path) => (path === "" ? ["email"] : [])),
  );
}
