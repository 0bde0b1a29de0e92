import { claimIdempotencyKey, saveIdempotentResponse } from "../../db/queries/idempotency.ts";
import { insertLink } from "../../db/queries/links.ts";
import { findOrCreateMerchant } from "../../db/queries/merchants.ts";
import { findSealedWebhookSecret } from "../../db/queries/webhookSecrets.ts";
import { formatUsdc, usdcToBaseUnits } from "../../domain/money.ts";
import { requestHash } from "../../domain/requestHash.ts";
import { openSecret, sealSecret } from "../../domain/secretBox.ts";
import { newSlug, newWebhookSecret } from "../../domain/tokens.ts";
import { webhookUrlProblem } from "../../domain/webhookUrlPolicy.ts";
import { escapeHtml } from "../../internal/escapeHtml.ts";
import type { AppDeps } from "../deps.ts";
import { ApiError, validationError } from "../errors.ts";
import { provisionAddresses } from "../provisionAddresses.ts";
import type { CreateLinkInput } from "./schema.ts";

export type CreateLinkResponse = {
  link_id: string;
  slug: string;
  payment_link: string;
  iframe_snippet: string;
  js_widget_snippet: string;
  deposit_address: string;
  amount: string;
  status: "pending";
  merchant_portal: string | null;
  webhook_secret?: string;
};

/** The embeddable snippets of spec §2.6 for a link. */
export function linkSnippets(payUrl: string, slug: string) {
  const link = `${payUrl}/pay/${slug}`;
  return {
    payment_link: link,
    iframe_snippet: `<iframe src="${escapeHtml(link)}" width="400" height="600" frameborder="0" title="Pay with USDC" allow="clipboard-write"></iframe>`,
    js_widget_snippet: `<script src="${escapeHtml(`${payUrl}/w.js`)}" data-slug="${escapeHtml(slug)}" async></script>`,
  };
}

/**
 * Creates a payment link in one transaction: merchant (no invoice number taken), managed wallet
 * when asked, its own deposit address, the link. Idempotency works as for invoices.
 */
export async function createLink(
  deps: AppDeps,
  input: CreateLinkInput,
  idempotencyKey: string | undefined,
) {
  const amount = usdcToBaseUnits(input.amount);
  if (amount <= 0n)
    throw validationError([
      { path: "amount", code: "not_positive", message: "must be greater than 0" },
    ]);
  if (input.webhook_url && !deps.allowPrivateWebhooks) {
    const problem = webhookUrlProblem(input.webhook_url);
    if (problem)
      throw validationError([
        { path: "webhook_url", code: "webhook_url_not_allowed", message: problem },
      ]);
  }
  const merchantEmail = input.merchant_email.toLowerCase();
  const hash = requestHash(input);

  return deps.db.transaction().execute(async (trx) => {
    if (idempotencyKey) {
      const previous = await claimIdempotencyKey(trx, "create_link", idempotencyKey, hash);
      if (previous === "conflict") {
        throw new ApiError(
          409,
          "idempotency_key_reused",
          "this Idempotency-Key was used with a different request body",
        );
      }
      if (previous) {
        const body = previous as CreateLinkResponse;
        const sealed = await findSealedWebhookSecret(trx, "app.payment_links", body.link_id);
        return sealed ? { ...body, webhook_secret: openSecret(sealed, deps.webhookKeys) } : body;
      }
    }
    const merchant = await findOrCreateMerchant(trx, merchantEmail);
    const { walletAddress, depositAddress } = await provisionAddresses(trx, deps, merchant, input);
    const id = crypto.randomUUID();
    const slug = newSlug();
    const webhookSecret = input.webhook_url ? newWebhookSecret() : null;
    await insertLink(trx, {
      id,
      slug,
      merchant_id: merchant.id,
      merchant_email: merchantEmail,
      amount,
      description: input.description,
      wallet_type: input.wallet_type,
      wallet_address: walletAddress,
      deposit_address: depositAddress.toLowerCase(),
      webhook_url: input.webhook_url ?? null,
      webhook_secret: webhookSecret && sealSecret(webhookSecret, deps.webhookKeys),
      metadata: JSON.stringify(input.metadata ?? {}),
      redirect_url: input.redirect_url ?? null,
    });
    const body: CreateLinkResponse = {
      link_id: id,
      slug,
      ...linkSnippets(deps.payUrl, slug),
      deposit_address: depositAddress,
      amount: formatUsdc(amount),
      status: "pending",
      merchant_portal: input.wallet_type === "managed" ? `${deps.payUrl}/merchant/${slug}` : null,
    };
    if (idempotencyKey)
      await saveIdempotentResponse(trx, "create_link", idempotencyKey, 201, body, null);
    return webhookSecret ? { ...body, webhook_secret: webhookSecret } : body;
  });
}
