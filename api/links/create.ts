import { createLink } from "../../app/links/createLink.ts";
import {
  CreateLinkResponseSchema,
  CreateLinkSchema,
  createLinkKnownKeys,
} from "../../app/links/schema.ts";
import { creationRoute, registerCreation } from "../creationRoute.ts";
import type { AppDeps } from "../deps.ts";
import type { Router } from "../openapi.ts";
import { createLinkResponseExample } from "./examples.ts";

const route = creationRoute({
  path: "/api/links",
  tags: ["Payment links"],
  summary: "Create a payment link",
  description:
    "A hosted checkout for one payment of `amount` USDC (or of `amount` in `currency`, paid in USDC at the chain's rate), with its own deposit address and embeddable snippets. " +
    "Create a new link per order so payments match orders. `metadata` is echoed in the status endpoint and webhooks; " +
    "`redirect_url` is where the checkout sends the payer once confirmed. Same validation, error shape and Idempotency-Key rules as invoices.",
  request: CreateLinkSchema,
  response: CreateLinkResponseSchema,
  responseExample: createLinkResponseExample,
});

export function registerCreateLink(app: Router, deps: AppDeps): void {
  registerCreation(app, route, createLinkKnownKeys, (input, key, actor) =>
    createLink(deps, input, key, actor),
  );
}
