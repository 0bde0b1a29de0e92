import type { Transaction } from "kysely";
import type { Database, Db } from "../../db/database.ts";
import { reserveDepositIndex } from "../../db/queries/depositAddresses.ts";
import type { NewInvoiceRow } from "../../db/queries/invoices.ts";
import { findNewestInvoiceTime, insertInvoice } from "../../db/queries/invoices.ts";
import {
  findLastInvoiceNumber,
  findMerchantByEmail,
  type MerchantAccount,
  takeNextInvoiceNumber,
} from "../../db/queries/merchants.ts";
import { MAX_TOTAL, priceInvoice } from "../../domain/invoiceTotals.ts";
import { invoiceUrls, x402Url } from "../../domain/invoiceUrls.ts";
import { formatUsdc } from "../../domain/money.ts";
import { sealSecret } from "../../domain/secretBox.ts";
import { sha256Hex } from "../../domain/sha256.ts";
import { newSlug, newWebhookSecret } from "../../domain/tokens.ts";
import { deriveAddress } from "../../keys/hdWallet.ts";
import type { Actor } from "../actor.ts";
import { assertPayoutWalletAllowed } from "../assertPayoutWalletAllowed.ts";
import { assertWebhookUrlAllowed } from "../assertWebhookUrlAllowed.ts";
import {
  assertActsAs,
  assertNameAllowed,
  assertOwnEmail,
  assertPayoutAllowed,
} from "../authorize.ts";
import { type Creation, createIdempotently } from "../createIdempotently.ts";
import type { CoreDeps } from "../deps.ts";
import { chargeEmailToOthers } from "../emailBudget.ts";
import { createKeyedQueue } from "../keyedQueue.ts";
import { provisionAddresses } from "../provisionAddresses.ts";
import { validationError } from "../refusal.ts";
import { renderPdfOrRefuse } from "../renderPdfOrRefuse.ts";
import { createNumberForecasts } from "./invoiceNumberForecast.ts";
import { type InvoiceRecordForPdf, invoicePdfData } from "./invoicePdfData.ts";
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
/** Each database's forecasts of the numbers creations will take (see invoiceNumberForecast). */
const forecastsByDb = new WeakMap<Db, ReturnType<typeof createNumberForecasts>>();

const formatInvoiceNumber = (n: number): string => `INV-${String(n).padStart(4, "0")}`;

/**
 * Creates an invoice in one transaction: number, managed wallet, deposit address, PDF, the
 * invoice rows and (unless send_now is false) the vendor email. Everything commits or nothing
 * does. With an idempotency key, a replay returns the first response and a different body
 * under the same key is a 409 (see createIdempotently).
 *
 * The PDF (~60 ms of CPU, on a render thread: deps.pdf) is rendered before the transaction, so
 * a creation holds its database connection and its merchant's row lock for a few queries only.
 * What it prints that the database decides is taken ahead: the deposit address's index (from
 * its sequence, as before: a failed creation leaves a gap in indexes, never in invoice numbers)
 * and the invoice number, forecast (invoiceNumberForecast.ts); in the rare case the
 * transaction's number differs, it renders again under the lock. A PDF is stored only with the
 * invoice it prints, in the same commit.
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
  // Nobody gets a PDF rendered on a merchant's behalf without the right to act as it (checked
  // again, under the lock, by createIdempotently).
  assertOwnEmail(actor.identity, merchantEmail);

  const invoiceId = crypto.randomUUID();
  const slug = newSlug();
  const urls = invoiceUrls(deps, invoiceId, slug);
  // Millisecond precision: the value stored is exactly the one printed into the PDF.
  const createdAt = new Date();
  const issueDate = input.issue_date ?? createdAt.toISOString().slice(0, 10);
  /** The stored fields the PDF prints, given the ones the database decides. */
  const recordFor = (
    invoiceNumber: number,
    depositAddress: string,
    at: Date = createdAt,
  ): InvoiceRecordForPdf => ({
    invoice_number: formatInvoiceNumber(invoiceNumber),
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
    currency,
  });
  const render = (record: InvoiceRecordForPdf) =>
    renderPdfOrRefuse(deps.pdf, invoicePdfData(record, lines, urls.invoice_url));

  let forecasts = forecastsByDb.get(deps.db);
  if (!forecasts) {
    const db = deps.db;
    forecasts = createNumberForecasts((email) => findLastInvoiceNumber(db, email));
    forecastsByDb.set(db, forecasts);
  }
  // Taken in queue order (both synchronously, here): see invoiceNumberForecast.ts.
  const forecast = forecasts.take(merchantEmail);
  const ahead = (async () => {
    const [known, number, depositIndex] = await Promise.all([
      findMerchantByEmail(deps.db, merchantEmail),
      forecast.expected,
      reserveDepositIndex(deps.db),
    ]);
    if (known) assertActsAs(actor.identity, known);
    const depositAddress = deriveAddress(deps.depositXpub, depositIndex);
    const pdf = await render(recordFor(number, depositAddress));
    return { number, depositIndex, pdf };
  })();
  // Awaited in the queued task below; never left unhandled should that task not run.
  ahead.catch(() => {});

  // The number this creation took, and (once its transaction committed) kept.
  let taken: number | null = null;
  let committed: number | null = null;
  return perMerchant
    .run(merchantEmail, async () => {
      const rendered = await ahead;
      const body = await createIdempotently(
        deps,
        { kind: "invoice", key: idempotencyKey, input, merchantEmail, actor },
        (trx, account) => insertNew(trx, account, rendered),
      );
      committed = taken;
      return body;
    })
    .finally(() => forecast.settle(committed));

  async function insertNew(
    trx: Transaction<Database>,
    account: MerchantAccount,
    rendered: { number: number; depositIndex: number; pdf: Buffer },
  ): Promise<Creation<Omit<CreateInvoiceResponse, "webhook_secret">>> {
    await assertPayoutAllowed(trx, actor.identity, account, input);
    await assertNameAllowed(trx, account.id, input.merchant_name);
    const merchant = await takeNextInvoiceNumber(trx, merchantEmail);
    // The vendor's email is one to another address: within the merchant's budget, or nothing.
    if (sendNow) await chargeEmailToOthers(trx, deps.emailBudget, merchant.id, input.vendor_email);
    const { walletAddress, depositAddress } = await provisionAddresses(
      trx,
      deps,
      merchant,
      input,
      rendered.depositIndex,
    );

    // Numbers and creation times in the same order (issue 42: newest first, INV-0006 sat below
    // INV-0005): a creation that started earlier but took its number later (another process:
    // the worker's schedules, a second API) is timed just after the newest invoice instead. Read
    // under the merchant's row lock that takeNextInvoiceNumber holds until commit.
    const newest = await findNewestInvoiceTime(trx, merchant.id);
    const at =
      newest && newest.getTime() >= createdAt.getTime()
        ? new Date(newest.getTime() + 1)
        : createdAt;
    const record = recordFor(merchant.invoiceNumber, depositAddress, at);
    const webhookSecret = input.webhook_url ? newWebhookSecret() : null;
    const invoice: NewInvoiceRow = {
      ...record,
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
    // The forecast missed (a creation ahead failed, or another process created): render again.
    const pdf =
      merchant.invoiceNumber === rendered.number && at === createdAt
        ? rendered.pdf
        : await render(record);

    await insertInvoice(trx, {
      invoice,
      lines,
      pdf: { pdf, sha256: sha256Hex(pdf) },
      sendToVendor: sendNow,
    });
    // In the same transaction: the schedule moves past its period, or nothing commits.
    if (scheduled) await scheduled.inTransaction(trx);
    taken = merchant.invoiceNumber;

    return {
      body: {
        invoice_id: invoiceId,
        invoice_number: record.invoice_number,
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
