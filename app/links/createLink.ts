import type { Transaction } from "kysely";
import type { Database } from "../../db/database.ts";
import { insertLink } from "../../db/queries/links.ts";
import {
  findLatestMerchantName,
  findOrCreateMerchant,
  type MerchantAccount,
} from "../../db/queries/merchants.ts";
import { x402Url } from "../../domain/invoiceUrls.ts";
import { formatUsdc, usdcToBaseUnits } from "../../domain/money.ts";
import { sealSecret } from "../../domain/secretBox.ts";
import { newSlug, newWebhookSecret } from "../../domain/tokens.ts";
import { escapeHtml } from "../../internal/escapeHtml.ts";
import type { Actor } from "../actor.ts";
import { assertPayoutWalletAllowed } from "../assertPayoutWalletAllowed.ts";
import { assertWebhookUrlAllowed } from "../assertWebhookUrlAllowed.ts";
import { assertNameAllowed, assertPayoutAllowed } from "../authorize.ts";
import { type Creation, createIdempotently } from "../createIdempotently.ts";
import type { CoreDeps } from "../deps.ts";
import { provisionAddresses } from "../provisionAddresses.ts";
import { validationError } from "../refusal.ts";
import type { CreateLinkInput, CreateLinkResponse } from "./schema.ts";

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
 * when asked, its own deposit address, the link. Idempotency works as for invoices
 * (createIdempotently).
 */
export async function createLink(
  deps: CoreDeps,
  input: CreateLinkInput,
  idempotencyKey: string | undefined,
  actor: Actor,
): Promise<CreateLinkResponse> {
  const amount = usdcToBaseUnits(input.amount);
  if (amount <= 0n)
    throw validationError([
      { path: "amount", code: "not_positive", message: "must be greater than 0" },
    ]);
  assertWebhookUrlAllowed(deps, input.webhook_url);
  await assertPayoutWalletAllowed(deps, input.wallet_address);
  const merchantEmail = input.merchant_email.toLowerCase();
  const currency = input.currency ?? "USDC";

  return createIdempotently(
    deps,
    { kind: "link", key: idempotencyKey, input, merchantEmail, actor },
    insertNew,
  );

  async function insertNew(
    trx: Transaction<Database>,
    account: MerchantAccount,
  ): Promise<Creation<Omit<CreateLinkResponse, "webhook_secret">>> {
    await assertPayoutAllowed(trx, actor.identity, account, input);
    await assertNameAllowed(trx, account.id, input.merchant_name);
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
      currency,
      description: input.description,
      wallet_type: input.wallet_type,
      wallet_address: walletAddress,
      deposit_address: depositAddress.toLowerCase(),
      webhook_url: input.webhook_url ?? null,
      webhook_secret: webhookSecret && sealSecret(webhookSecret, deps.webhookKeys),
      metadata: JSON.stringify(input.metadata ?? {}),
      redirect_url: input.redirect_url ?? null,
      merchant_name: input.merchant_name ?? (await findLatestMerchantName(trx, merchant.id)),
    });
    return {
      body: {
        link_id: id,
        slug,
        ...linkSnippets(deps.payUrl, slug),
        x402_url: x402Url(deps, slug),
        deposit_address: depositAddress,
        amount: formatUsdc(amount),
        // Priced in a currency: `amount` is in it (a USDC link's body is the spec's, unchanged).
        ...(currency === "USDC" ? {} : { currency }),
        status: "pending",
        merchant_portal: input.wallet_type === "managed" ? `${deps.payUrl}/merchant/${slug}` : null,
      },
      webhookSecret,
    };
  }
}
