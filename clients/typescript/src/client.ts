import { type FetchLike, Transport } from "./http.js";
import { Operations } from "./operations.js";
import {
  type Audit,
  audit,
  type Keys,
  keys,
  type Members,
  type Merchants,
  members,
  merchants,
  type Settings,
  settings,
  type Wallets,
  wallets,
} from "./resources/account.js";
import { type CreditNotes, creditNotes } from "./resources/creditNotes.js";
import {
  type Events,
  events,
  type WebhookEndpoints,
  webhookEndpoints,
} from "./resources/events.js";
import { type Invoices, invoices } from "./resources/invoices.js";
import { type Links, links } from "./resources/links.js";
import {
  type Payments,
  type Payouts,
  payments,
  payouts,
  type Transactions,
  transactions,
  type X402,
  x402,
} from "./resources/payments.js";
import { csvExports, type Exports, type Receivables, receivables } from "./resources/reports.js";
import { type Reminders, reminders, type Schedules, schedules } from "./resources/schedules.js";

export type RemitOptions = {
  /** Where the Remit API is, such as `http://localhost:3000` (no trailing `/api`). */
  baseUrl: string;
  /** A `remit_sk_…` key (or a read-only one); open mode creates without one. */
  apiKey?: string;
  /** The fetch to use (default: the global one). */
  fetch?: FetchLike;
  /** Retries of a failed request that is safe to repeat (default 2; 0 turns them off). */
  maxRetries?: number;
  /** Each attempt's deadline, in milliseconds (default 60 000). */
  timeoutMs?: number;
  /** The longest wait before a retry (default 60 000 ms); a longer `Retry-After` is not waited for. */
  maxRetryDelayMs?: number;
};

/**
 * A typed client of the Remit API. Request and response types are the OpenAPI document's
 * (schema.ts, generated); errors are RemitError; lists are async iterables that follow
 * `next_cursor`.
 *
 * @example
 * const remit = new Remit({ baseUrl: "http://localhost:3000", apiKey: process.env.REMIT_API_KEY });
 * const invoice = await remit.invoices.create({ merchant_email: "…", … });
 * for await (const unpaid of remit.invoices.list({ status: "sent,overdue" })) console.log(unpaid.invoice_number);
 */
export class Remit {
  private readonly api: Operations;

  readonly invoices: Invoices;
  readonly creditNotes: CreditNotes;
  readonly links: Links;
  readonly payouts: Payouts;
  readonly payments: Payments;
  readonly transactions: Transactions;
  readonly x402: X402;
  readonly merchants: Merchants;
  readonly keys: Keys;
  readonly members: Members;
  readonly wallets: Wallets;
  readonly settings: Settings;
  readonly audit: Audit;
  readonly schedules: Schedules;
  readonly reminders: Reminders;
  readonly receivables: Receivables;
  readonly events: Events;
  readonly webhookEndpoints: WebhookEndpoints;
  readonly exports: Exports;

  constructor(options: RemitOptions) {
    this.api = new Operations(new Transport(options));
    this.invoices = invoices(this.api);
    this.creditNotes = creditNotes(this.api);
    this.links = links(this.api);
    this.payouts = payouts(this.api);
    this.payments = payments(this.api);
    this.transactions = transactions(this.api);
    this.x402 = x402(this.api);
    this.merchants = merchants(this.api);
    this.keys = keys(this.api);
    this.members = members(this.api);
    this.wallets = wallets(this.api);
    this.settings = settings(this.api);
    this.audit = audit(this.api);
    this.schedules = schedules(this.api);
    this.reminders = reminders(this.api);
    this.receivables = receivables(this.api);
    this.events = events(this.api);
    this.webhookEndpoints = webhookEndpoints(this.api);
    this.exports = csvExports(this.api);
  }
}
