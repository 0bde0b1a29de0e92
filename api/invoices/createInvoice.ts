import type { Transaction } from "kysely";
import type { Database } from "../../db/database.ts";
import type { NewInvoiceRow } from "../../db/queries/invoices.ts";
import { insertInvoice } from "../../db/queries/invoices.ts";
import { type MerchantAccount, takeNextInvoiceNumber } from "../../db/queries/merchants.ts";
import { MAX_TOTAL, priceLineItems } from "../../domain/invoiceTotals.ts";
import { invoiceUrls } from "../../domain/invoiceUrls.ts";
import { formatUsdc } from "../../domain/money.ts";
import { sealSecret } from "../../domain/secretBox.ts";
import { sha256Hex } from "../../domain/sha256.ts";
import { newSlug, newWebhookSecret } from "../../domain/tokens.ts";
import { renderInvoicePdf } from "../../pdf/invoiceDocument.ts";
import { assertPayoutWalletAllowed } from "../assertPayoutWalletAllowed.ts";
import { assertWebhookUrlAllowed } from "../assertWebhookUrlAllowed.ts";
import { assertNameAllowed, assertPayoutAllowed } from "../auth/authorize.ts";
import type { Actor } from "../auth/identity.ts";
import { type Creation, createIdempotently } from "../createIdempotently.ts";
import type { AppDeps } from "../deps.ts";
import { validationError } from "../errors.ts";
import { createKeyedQueue } from "../keyedQueue.ts";
import { provisionAddresses } from "../provisionAddresses.ts";
import { invoicePdfData } from "./invoicePdfData.ts";
import type { CreateInvoiceInput, CreateInvoiceResponse } from "./schema.ts";

/** Creations of one merchant, queued in this process before they take a connection. */
const perMerchant = createKeyedQueue();

const formatInvoiceNumber = (n: number): string => `INV-${String(n).padStart(4, "0")}`;

/**
 * Creates an invoice in one transaction: number, managed wallet, deposit address, PDF, the
 * invoice rows and (unless send_now is false) the vendor email. Everything commits or nothing
 * does. With an idempotency key, a replay returns the first response and a different body
 * under the same key is a 409 (see createIdempotently).
 */
export async function createInvoice(
  deps: AppDeps,
  input: CreateInvoiceInput,
  idempotencyKey: string | undefined,
  actor: Actor,
): Promise<CreateInvoiceResponse> {
  const { lines, total } = priceLineItems(input.line_items);
  assertWebhookUrlAllowed(deps, input.webhook_url);
  await assertPayoutWalletAllowed(deps, input.wallet_address);
  if (total > MAX_TOTAL) {
    throw validationError([
      {
        path: "line_items",
        code: "too_large",
        message: "the invoice total must be at most 100000000000.00 USDC",
      },
    ]);
  }
  if (total <= 0n) {
    throw validationError([
      {
        path: "line_items",
        code: "zero_total",
        message: "the invoice total must be greater than 0",
      },
    ]);
  }
  const sendNow = input.send_now ?? true;
  const merchantEmail = input.merchant_email.toLowerCase();

  return perMerchant.run(merchantEmail, () =>
    createIdempotently(
      deps,
      { kind: "invoice", key: idempotencyKey, input, merchantEmail, actor },
      insertNew,
    ),
  );

  async function insertNew(
    trx: Transaction<Database>,
    account: MerchantAccount,
  ): Promise<Creation<Omit<CreateInvoiceResponse, "webhook_secret">>> {
    await assertPayoutAllowed(trx, actor.identity, account, input);
    await assertNameAllowed(trx, account.id, input.merchant_name);
    const merchant = await takeNextInvoiceNumber(trx, merchantEmail);
    const { walletAddress, depositAddress } = await provisionAddresses(trx, deps, merchant, input);

    const invoiceId = crypto.randomUUID();
    const slug = newSlug();
    const invoiceNumber = formatInvoiceNumber(merchant.invoiceNumber);
    const urls = invoiceUrls(deps, invoiceId, slug);
    // Millisecond precision: the value stored is exactly the one printed into the PDF.
    const createdAt = new Date();
    const issueDate = input.issue_date ?? createdAt.toISOString().slice(0, 10);
    const webhookSecret = input.webhook_url ? newWebhookSecret() : null;

    const invoice: NewInvoiceRow = {
      id: invoiceId,
      merchant_id: merchant.id,
      invoice_number: invoiceNumber,
      slug,
      merchant_email: merchantEmail,
      merchant_name_snapshot: input.merchant_name,
      merchant_address_snapshot: input.merchant_address,
      vendor_email: input.vendor_email,
      vendor_name: input.vendor_name,
      vendor_address: input.vendor_address ?? null,
      issue_date: issueDate,
      due_date: input.due_date,
      notes: input.notes ?? null,
      wallet_type: input.wallet_type,
      wallet_address: walletAddress,
      deposit_address: depositAddress.toLowerCase(),
      total_amount: total,
      webhook_url: input.webhook_url ?? null,
      webhook_secret: webhookSecret && sealSecret(webhookSecret, deps.webhookKeys),
      status: sendNow ? "sent" : "draft",
      sent_at: sendNow ? createdAt : null,
      created_at: createdAt,
    };
    const pdf = await renderInvoicePdf(invoicePdfData(invoice, lines, urls.invoice_url));

    await insertInvoice(trx, {
      invoice,
      lines,
      pdf: { pdf, sha256: sha256Hex(pdf) },
      sendToVendor: sendNow,
    });

    return {
      body: {
        invoice_id: invoiceId,
        invoice_number: invoiceNumber,
        slug,
        ...urls,
        deposit_address: depositAddress,
        total_amount: formatUsdc(total),
        sent_at: sendNow ? createdAt.toISOString() : null,
        status: sendNow ? "sent" : "draft",
      },
      webhookSecret,
    };
  }
}
