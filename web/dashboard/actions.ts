import type { Context, MiddlewareHandler } from "hono";
import type { DashboardSessionIdentity } from "../../domain/dashboardSession.ts";

/**
 * What the dashboard does through the API's own functions (same validation, same audit log):
 * built by the composition root (server/dashboardActions.ts) from api/, so the pages here never
 * import the API layer (docs/architecture.md, layering) and never duplicate its logic.
 */

/** A signed-in merchant acting, in one request. */
export type DashboardActor = { identity: DashboardSessionIdentity; requestId: string | null };

/** An action's refusal: the API's status, its message, and its field messages by path. */
export type Refusal = {
  ok: false;
  status: 400 | 403 | 404 | 409 | 429;
  message: string;
  fields: Record<string, string>;
  retryAfterSeconds?: number;
};

export type Outcome<T> = ({ ok: true } & T) | Refusal;

export type DashboardActions = {
  /**
   * Emails a sign-in link when `email` is a claimed merchant's (rate-limited like claims; capped
   * per address and per address and `client` as claim links are).
   */
  requestSignInLink(email: string, client: string): Promise<void>;
  /** The request's client IP, as the rate limits count it (trusted proxies' X-Forwarded-For). */
  clientOf(c: Context): string;
  /** Per client IP, on the sign-in form's POST, as on claims; none: unlimited. */
  signInRateLimit: MiddlewareHandler | null;
  /** The API's check of an email address (the sign-in and settings forms). */
  isEmailAddress(text: string): boolean;
  /** The API's messages for the settings' texts; {} when all are valid. */
  checkSettings(values: Record<string, string | undefined>): Record<string, string>;
  /** The invoice total as POST /api/invoices computes it, or null while a line is invalid. */
  invoiceTotal(lines: unknown[]): bigint | null;
  createInvoice(
    actor: DashboardActor,
    body: Record<string, unknown>,
    idempotencyKey: string,
  ): Promise<Outcome<{ invoiceId: string }>>;
  createLink(
    actor: DashboardActor,
    body: Record<string, unknown>,
    idempotencyKey: string,
  ): Promise<Outcome<{ slug: string }>>;
  linkSnippets(slug: string): {
    payment_link: string;
    iframe_snippet: string;
    js_widget_snippet: string;
  };
  redeliver(actor: DashboardActor, invoiceId: string, eventId: string): Promise<Outcome<object>>;
  /**
   * The settings form: PATCH /api/merchant/settings's checks and messages for the tolerance,
   * one audit entry (`settings.updated`, old → new), the account's email told; a new
   * notification email only pending until the link sent to it is followed.
   */
  saveSettings(
    actor: DashboardActor,
    values: {
      default_name: string | null;
      default_address: string | null;
      notification_email: string | null;
      underpayment_tolerance?: string;
    },
  ): Promise<Outcome<{ pendingNotificationEmail: string | null }>>;
  /** Follows a notification email's link: its address now, or undefined (unknown, used, expired). */
  confirmNotificationEmail(token: string, requestId: string | null): Promise<string | undefined>;
  /** The merchant's underpayment tolerance, as the API shows it ("0.00"). */
  underpaymentTolerance(merchantId: string): Promise<string>;
  /** POST /api/invoices/{id}/void's logic: the same 409 for an invoice that is not unpaid. */
  voidInvoice(actor: DashboardActor, invoiceId: string): Promise<Outcome<object>>;
  /**
   * POST /api/invoices/{id}/refunds's logic and messages: a refund to `to`, or without one a
   * claim link emailed to the customer (its URL returned, shown once).
   */
  refundInvoice(
    actor: DashboardActor,
    invoiceId: string,
    body: Record<string, unknown>,
  ): Promise<Outcome<{ amount: string; claimUrl: string | null }>>;
  /**
   * What refundInvoice would do now, without doing it (the API's own plan and refusals): the
   * confirmation before money moves, and the form's default amount.
   */
  previewRefund(
    actor: DashboardActor,
    invoiceId: string,
    body: Record<string, unknown>,
  ): Promise<
    Outcome<{
      amount: string;
      source: "deposit" | "managed_wallet";
      from: string;
      to: string | null;
      vendorEmail: string | null;
    }>
  >;
  /** Whether anyone may claim a merchant account (MERCHANT_SIGNUP=open). */
  signupOpen: boolean;
  /**
   * POST /api/merchants/claim's logic: a claim link emailed when the address may claim; says
   * nothing back (the page answers the same whatever happened).
   */
  requestClaimLink(email: string, client: string): Promise<void>;
  createKey(
    actor: DashboardActor,
    body: Record<string, unknown>,
  ): Promise<Outcome<{ key: string; name: string }>>;
  revokeKey(actor: DashboardActor, id: string): Promise<boolean>;
  addWallet(actor: DashboardActor, address: string): Promise<Outcome<object>>;
  removeWallet(actor: DashboardActor, address: string): Promise<boolean>;
  /** The CSV export of GET /api/exports/{what}.csv, streamed, for the query given. */
  exportCsv(
    actor: DashboardActor,
    what: "invoices" | "payments",
    query: Record<string, string>,
  ): Promise<Outcome<{ response: Response }>>;
};
