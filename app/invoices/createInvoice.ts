import type { Transaction } from "kysely";
import type { Database } from "../../db/database.ts";
import type { NewInvoiceRow } from "../../db/queries/invoices.ts";
import { findNewestInvoiceTime, insertInvoice } from "../../db/queries/invoices.ts";
import { type MerchantAccount, takeNextInvoiceNumber } from "../../db/queries/merchants.ts";
import { MAX_TOTAL, priceInvoice } from "../../domain/invoiceTotals.ts";
import { invoiceUrls, x402Url } from "../../domain/invoiceUrls.ts";
import { formatUsdc } from "../../domain/money.ts";
import { sealSecret } from "../../domain/secretBox.ts";
import { newSlug, newWebhookSecret } from "../../domain/tokens.ts";
import type { Actor } from "../actor.ts";
import { assertPayoutWalletAllowed } from "../assertPayoutWalletAllowed.ts";
import { assertWebhookUrlAllowed } from "../assertWebhookUrlAllowed.ts";
import { assertNameAllowed, assertOwnEmail, assertPayoutAllowed } from "../authorize.ts";
import { type Creation, createIdempotently } from "../createIdempotently.ts";
import type { CoreDeps } from "../deps.ts";
import { chargeEmailToOthers } from "../emailBudget.ts";
import { createKeyedQueue } from "../keyedQueue.ts";
import { provisionAddresses } from "../provisionAddresses.ts";
import { validationError } from "../refusal.ts";
import type { CreateInvoiceInput, CreateInvoiceResponse } from "./schema.ts";

/**
 * An invoice a schedule issues (app/schedules/issue.ts): it carries the schedule and its period
 * (unique together), and `inTransaction` runs in the creating transaction after the insert.
 */
export type ScheduledIssue = {
  scheduleId: string;
  periodDate: string;
  inTransaction: (trx: Transaction<Database>) => Promise<void>;
};

/** Creations of one merchant, queued in this process before they take a connection. */
const perMerchant = createKeyedQueue();

const formatInvoiceNumber = (n: number): string => `INV-${String(n).padStart(4, "0")}`;

/**
 * Creates an invoice in one transaction: number, managed wallet, deposit address, the invoice
 * rows, the render of its PDF and (unless send_now is false) the vendor email, queued.
 * Everything commits or nothing does. With an idempotency key, a replay returns the first
 * response and a different body under the same key is a 409 (see createIdempotently).
 *
 * No PDF is rendered here: the invoice is a record, and its PDF a function of that record
 * (invoicePdfData). The worker renders and stores it after the commit (the render_pdf job
 * queued in this transaction); a download or the vendor's email that comes first renders the
 * same record, to the same bytes, and stores them (app/documentPdf.ts). So a creation holds its
 * merchant's row lock for a few queries and spends no render's CPU.
 */
export async function createInvoice(
  deps: CoreDeps,
  input: CreateInvoiceInput,
  idempotencyKey: string | undefined,
  actor: Actor,
  scheduled?: ScheduledIssue,
): Promise<CreateInvoiceResponse> {
  const currency = input.currency ?? "USDC";
  const { lines, total } = priceInvoice(input.line_items, currency);
  assertWebhookUrlAllowed(deps, input.webhook_url);
  await assertPayoutWalletAllowed(deps, input.wallet_address);
  if (total > MAX_TOTAL) {
    throw validationError([
      {
        path: "line_items",
        code: "too_large",
        message: `the invoice total must be at most 100000000000.00 ${currency}`,
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
  // Refused before queueing (checked again, under the lock, by createIdempotently).
  assertOwnEmail(actor.identity, merchantEmail);

  const invoiceId = crypto.randomUUID();
  const slug = newSlug();
  const urls = invoiceUrls(deps, invoiceId, slug);
  // Millisecond precision: the value stored is exactly the one the PDF prints.
  const createdAt = new Date();
  const issueDate = input.issue_date ?? createdAt.toISOString().slice(0, 10);

  return perMerchant.run(merchantEmail, () =>
    createIdempotently(
      deps,
      { kind: "invoice", key: idempotencyKey, input, merchantEmail, actor },
      (trx, account) => insertNew(trx, account),
    ),
  );

  async function insertNew(
    trx: Transaction<Database>,
    account: MerchantAccount,
  ): Promise<Creation<Omit<CreateInvoiceResponse, "webhook_secret">>> {
    await assertPayoutAllowed(trx, actor.identity, account, input);
    await assertNameAllowed(trx, account.id, input.merchant_name);
    const merchant = await takeNextInvoiceNumber(trx, merchantEmail);
    // The vendor's email is one to another address: within the merchant's budget, or nothing.
    if (sendNow) await chargeEmailToOthers(trx, deps.emailBudget, merchant.id, input.vendor_email);
    const { walletAddress, depositAddress } = await provisionAddresses(trx, deps, merchant, input);

    // Numbers and creation times in the same order (issue 42: newest first, INV-0006 sat below
    // INV-0005): a creation that started earlier but took its number later (another process:
    // the worker's schedules, a second API) is timed just after the newest invoice instead. Read
    // under the merchant's row lock that takeNextInvoiceNumber holds until commit.
    const newest = await findNewestInvoiceTime(trx, merchant.id);
    const at =
      newest && newest.getTime() >= createdAt.getTime()
        ? new Date(newest.getTime() + 1)
        : createdAt;
    const webhookSecret = input.webhook_url ? newWebhookSecret() : null;
    const invoice: NewInvoiceRow = {
      invoice_number: formatInvoiceNumber(merchant.invoiceNumber),
      issue_date: issueDate,
      due_date: input.due_date,
      created_at: at,
      merchant_name_snapshot: input.merchant_name,
      merchant_address_snapshot: input.merchant_address,
      merchant_email: merchantEmail,
      vendor_name: input.vendor_name,
      vendor_email: input.vendor_email,
      vendor_address: input.vendor_address ?? null,
      notes: input.notes ?? null,
      deposit_address: depositAddress.toLowerCase(),
      total_amount: total,
      merchant_tax_id: input.merchant_tax_id ?? null,
      vendor_tax_id: input.vendor_tax_id ?? null,
      merchant_country: input.merchant_country ?? null,
      vendor_country: input.vendor_country ?? null,
      tax_exemption_reason: input.tax_exemption_reason ?? null,
      id: invoiceId,
      merchant_id: merchant.id,
      slug,
      wallet_type: input.wallet_type,
      wallet_address: walletAddress,
      webhook_url: input.webhook_url ?? null,
      webhook_secret: webhookSecret && sealSecret(webhookSecret, deps.webhookKeys),
      status: sendNow ? "sent" : "draft",
      sent_at: sendNow ? at : null,
      currency,
      metadata: JSON.stringify(input.metadata ?? {}),
      ...(scheduled
        ? { schedule_id: scheduled.scheduleId, schedule_period: scheduled.periodDate }
        : {}),
    };
    // Its PDF's render is queued with it (db/queries/invoices.ts insertInvoice).
    await insertInvoice(trx, { invoice, lines, sendToVendor: sendNow });
    // In the same transaction: the schedule moves past its period, or nothing commits.
    if (scheduled) await scheduled.inTransaction(trx);

    return {
      body: {
        invoice_id: invoiceId,
        invoice_number: invoice.invoice_number,
        slug,
        ...urls,
        x402_url: x402Url(deps, slug),
        deposit_address: depositAddress,
        total_amount: formatUsdc(total),
        ...(currency === "USDC" ? {} : { currency }),
        sent_at: sendNow ? at.toISOString() : null,
        status: sendNow ? "sent" : "draft",
      },
      webhookSecret,
    };
  }
}
