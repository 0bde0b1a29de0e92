import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { getAddress } from "viem";
import type { Db } from "../../db/database.ts";
import { listApiKeys } from "../../db/queries/apiKeys.ts";
import { isClaimTokenUsable, useClaimToken } from "../../db/queries/claimTokens.ts";
import {
  findInvoiceAudit,
  findInvoiceEmails,
  findMerchantLink,
  findMerchantSettings,
  isNotificationEmailTokenUsable,
  merchantOverviewFacts,
} from "../../db/queries/dashboard.ts";
import {
  deleteExpiredDashboardSessions,
  insertDashboardSession,
} from "../../db/queries/dashboardSessions.ts";
import { indexedTransfersTo } from "../../db/queries/indexer.ts";
import { loadInvoiceDetails } from "../../db/queries/invoiceDetails.ts";
import { type InvoiceListStatus, listInvoices } from "../../db/queries/invoiceLists.ts";
import { findInvoice } from "../../db/queries/invoices.ts";
import { listLinks } from "../../db/queries/linkLists.ts";
import { findManagedWallet, findMerchantByEmail } from "../../db/queries/merchants.ts";
import { loadPaymentState } from "../../db/queries/paymentEvents.ts";
import { listPayments } from "../../db/queries/paymentLists.ts";
import { listPayoutWallets } from "../../db/queries/payoutWallets.ts";
import { listRefundsOf } from "../../db/queries/refunds.ts";
import { findWebhookHistory } from "../../db/queries/webhookHistory.ts";
import { CLAIM_TOKEN_PATTERN, hashSecretToken } from "../../domain/apiKeys.ts";
import {
  DASHBOARD_SESSION_ABSOLUTE_MINUTES,
  newDashboardSessionToken,
} from "../../domain/dashboardSession.ts";
import { reportedStatus, utcToday } from "../../domain/invoiceStatus.ts";
import { invoiceUrls, publicPdfUrl } from "../../domain/invoiceUrls.ts";
import { invoiceMoney, monthStartOf, overview, refundedAmount } from "../../domain/moneyRules.ts";
import { REPORTED_INVOICE_STATUSES } from "../../domain/statuses.ts";
import { UUID_PATTERN } from "../../domain/tokens.ts";
import type { Logger } from "../../internal/logger.ts";
import { formPageHeaders, isCrossSite } from "../formGuards.ts";
import type { DashboardActions, DashboardActor } from "./actions.ts";
import { DASHBOARD_CSS, DASHBOARD_JS, dashboardCss, dashboardJs } from "./assets.ts";
import {
  type FormFields,
  formToBody,
  idempotencyKeyOf,
  linesOf,
  lineToBody,
  textFields,
  typedAmount,
  typedAmountErrors,
  typedLinePrices,
} from "./forms.ts";
import { PlainLayout } from "./layout.tsx";
import { type FormState, KeysPage, NewInvoicePage, SettingsPage } from "./pages/forms.tsx";
import {
  type InvoiceDetail,
  InvoiceDetailPage,
  RefundConfirmPage,
  VOIDABLE_STATUSES,
  VoidConfirmPage,
} from "./pages/invoice.tsx";
import { LinkDetailPage, NewLinkPage } from "./pages/links.tsx";
import { InvoicesPage, LinksPage, OverviewPage, PaymentsPage } from "./pages/lists.tsx";
import {
  ClaimSentPage,
  ForbiddenPage,
  NotificationEmailConfirmedPage,
  NotificationEmailConfirmPage,
  NotificationEmailRefusedPage,
  SignInConfirmPage,
  SignInPage,
  SignInRefusedPage,
  SignInSentPage,
} from "./pages/signIn.tsx";
import { dashboardPageOf, pagerLinks } from "./paging.ts";
import {
  type CookieSettings,
  type DashboardEnv,
  endSession,
  hasValidCsrfToken,
  requireSession,
  type SignedIn,
  setSessionCookie,
} from "./session.ts";

/** Rows per page of the dashboard's lists. */
const PAGE_SIZE = 25;
/** A dashboard form is small: anything larger is refused before it is read. */
const MAX_FORM_BYTES = 64 * 1024;

/** What the dashboard needs from its process. */
export type DashboardDeps = {
  db: Db;
  indexerSchema: string;
  baseUrl: string;
  payUrl: string;
  explorerUrl: string | null;
  log: Pick<Logger, "info" | "warn">;
  /** Secure (and `__Host-`) session cookies; default: when PAY_URL is https. */
  dashboard?: { secureCookies: boolean };
};

/** Whether the session cookie is Secure (and `__Host-`): outside local mode, or over https. */
export const dashboardCookieSettings = (
  deps: Pick<DashboardDeps, "payUrl" | "dashboard">,
): CookieSettings => ({
  secure: deps.dashboard?.secureCookies ?? deps.payUrl.startsWith("https:"),
});

/**
 * The merchant's dashboard at `{PAY_URL}/dashboard` (docs/dashboard.md): sign-in by a one-time
 * email link, a session cookie, CSRF-checked forms. Every action goes through the same
 * functions as the API (same validation, same audit log, actor `dashboard`). The API itself
 * never accepts the cookie: /api stays key-only, out of CSRF's reach.
 */
export function dashboardRoutes(
  deps: DashboardDeps,
  actions: DashboardActions,
): Hono<DashboardEnv> {
  const app = new Hono<DashboardEnv>();
  const cookies = dashboardCookieSettings(deps);
  const asset = (body: string, type: string) => (c: Context) => {
    c.header("Content-Type", type);
    c.header("Cache-Control", "public, max-age=300");
    c.header("X-Content-Type-Options", "nosniff");
    return c.body(body);
  };
  app.get(DASHBOARD_CSS, asset(dashboardCss, "text/css; charset=utf-8"));
  app.get(DASHBOARD_JS, asset(dashboardJs, "text/javascript; charset=utf-8"));

  app.use("/dashboard", async (c, next) => {
    formPageHeaders(c);
    await next();
  });
  app.use("/dashboard/*", async (c, next) => {
    formPageHeaders(c);
    await next();
  });
  const forbidden = (c: Context) => c.html(<ForbiddenPage />, 403);
  app.on(
    "POST",
    ["/dashboard/*"],
    bodyLimit({ maxSize: MAX_FORM_BYTES, onError: (c) => c.html(<ForbiddenPage />, 413) }),
    async (c, next) => {
      // A form posted from another site: refused before anything else (login CSRF included).
      if (isCrossSite(c, deps.payUrl)) {
        deps.log.warn("dashboard refused a cross-site form post");
        return forbidden(c);
      }
      await next();
    },
  );

  // ---- Sign-in: outside a session ----------------------------------------------------------
  app.get("/dashboard/sign-in", (c) =>
    c.html(
      <SignInPage
        notice={c.req.query("signed_out") === "1" ? "signed_out" : undefined}
        signupOpen={actions.signupOpen}
      />,
    ),
  );
  if (actions.signInRateLimit) app.post("/dashboard/sign-in", actions.signInRateLimit);
  app.post("/dashboard/sign-in", async (c) => {
    const form = textFields(await c.req.parseBody());
    const email = form.email?.trim() ?? "";
    if (actions.isEmailAddress(email))
      await actions.requestSignInLink(email.toLowerCase(), actions.clientOf(c));
    // One answer whatever happened: nobody learns which emails have accounts.
    return c.html(<SignInSentPage />);
  });
  // The sign-in page's "no account yet?" form: POST /api/merchants/claim's own logic, and as
  // there one answer whatever happened (an account or none, a link sent or withheld).
  if (actions.signInRateLimit) app.post("/dashboard/claim", actions.signInRateLimit);
  app.post("/dashboard/claim", async (c) => {
    const form = textFields(await c.req.parseBody());
    const email = form.email?.trim() ?? "";
    if (actions.isEmailAddress(email))
      await actions.requestClaimLink(email.toLowerCase(), actions.clientOf(c));
    return c.html(<ClaimSentPage />);
  });

  const refused = (c: Context) => c.html(<SignInRefusedPage />, 410);
  app.get("/dashboard/sign-in/:token", async (c) => {
    const token = c.req.param("token");
    if (!CLAIM_TOKEN_PATTERN.test(token)) return refused(c);
    if (!(await isClaimTokenUsable(deps.db, hashSecretToken(token), "dashboard_sign_in")))
      return refused(c);
    return c.html(<SignInConfirmPage />);
  });
  app.post("/dashboard/sign-in/:token", async (c) => {
    const token = c.req.param("token");
    if (!CLAIM_TOKEN_PATTERN.test(token)) return refused(c);
    const sessionToken = newDashboardSessionToken();
    const merchantId = await deps.db.transaction().execute(async (trx) => {
      const email = await useClaimToken(trx, hashSecretToken(token), "dashboard_sign_in");
      const merchant = email ? await findMerchantByEmail(trx, email) : undefined;
      if (!merchant?.claimedAt) return null;
      await insertDashboardSession(trx, {
        merchantId: merchant.id,
        tokenHash: hashSecretToken(sessionToken),
        absoluteMinutes: DASHBOARD_SESSION_ABSOLUTE_MINUTES,
      });
      return merchant.id;
    });
    if (!merchantId) return refused(c);
    // Whatever session this browser carried (a planted one included) ends: a new token always.
    await endSession(c, deps.db, cookies);
    setSessionCookie(c, cookies, sessionToken);
    await deleteExpiredDashboardSessions(deps.db);
    deps.log.info("dashboard signed in");
    return c.redirect("/dashboard", 303);
  });

  // ---- A new notification email's link: outside a session (it is followed from that mailbox) --
  // The GET only asks (mail scanners open links); the button's POST confirms, once.
  const notificationEmailRefused = (c: Context) => c.html(<NotificationEmailRefusedPage />, 410);
  app.get("/dashboard/notification-email/:token", async (c) => {
    const token = c.req.param("token");
    if (!CLAIM_TOKEN_PATTERN.test(token)) return notificationEmailRefused(c);
    if (!(await isNotificationEmailTokenUsable(deps.db, hashSecretToken(token))))
      return notificationEmailRefused(c);
    return c.html(<NotificationEmailConfirmPage />);
  });
  app.post("/dashboard/notification-email/:token", async (c) => {
    const token = c.req.param("token");
    if (!CLAIM_TOKEN_PATTERN.test(token)) return notificationEmailRefused(c);
    const address = await actions.confirmNotificationEmail(token, c.get("requestId") ?? null);
    if (!address) return notificationEmailRefused(c);
    deps.log.info("dashboard notification email confirmed");
    return c.html(<NotificationEmailConfirmedPage address={address} />);
  });

  // ---- Signed in ---------------------------------------------------------------------------
  const signedIn = new Hono<DashboardEnv>();
  signedIn.use("*", requireSession(deps.db, cookies));
  // Every signed-in POST carries its session's CSRF token; the form is read once, here.
  const forms = new WeakMap<Request, FormFields>();
  signedIn.on("POST", "*", async (c, next) => {
    const form = textFields(await c.req.parseBody());
    if (!hasValidCsrfToken(c.get("signedIn"), form)) {
      deps.log.warn("dashboard refused a form post without its CSRF token");
      return forbidden(c);
    }
    forms.set(c.req.raw, form);
    await next();
  });
  const formOf = (c: Context<DashboardEnv>): FormFields => forms.get(c.req.raw) ?? {};
  const session = (c: Context<DashboardEnv>) => {
    const s: SignedIn = c.get("signedIn");
    return { email: s.identity.merchantEmail, csrf: s.csrf };
  };
  const actorOf = (c: Context<DashboardEnv>): DashboardActor => ({
    identity: c.get("signedIn").identity,
    requestId: c.get("requestId") ?? null,
  });
  const merchantIdOf = (c: Context<DashboardEnv>) => c.get("signedIn").identity.merchantId;

  signedIn.post("/sign-out", async (c) => {
    await endSession(c, deps.db, cookies);
    deps.log.info("dashboard signed out");
    return c.redirect("/dashboard/sign-in?signed_out=1", 303);
  });

  signedIn.get("/", async (c) => {
    const merchantId = merchantIdOf(c);
    const today = utcToday();
    const [facts, recent] = await Promise.all([
      merchantOverviewFacts(deps.db, merchantId, monthStartOf(today)),
      listPayments(deps.db, merchantId, {}, { limit: 5 }),
    ]);
    return c.html(
      <OverviewPage
        session={session(c)}
        overview={overview(facts, today)}
        recent={recent.rows}
        explorerUrl={deps.explorerUrl}
      />,
    );
  });

  signedIn.get("/invoices", async (c) => {
    const { page, at } = dashboardPageOf(c, "invoices", PAGE_SIZE);
    const asked = c.req.query("status") ?? "";
    // An unknown status (typed by hand) filters nothing, as before.
    const status = (REPORTED_INVOICE_STATUSES as readonly string[]).includes(asked) ? asked : "";
    const q = (c.req.query("q") ?? "").slice(0, 200);
    const today = utcToday();
    const result = await listInvoices(
      deps.db,
      merchantIdOf(c),
      {
        today,
        ...(status ? { statuses: [status as InvoiceListStatus] } : {}),
        ...(q.trim() ? { q: q.trim() } : {}),
      },
      page,
    );
    return c.html(
      <InvoicesPage
        session={session(c)}
        invoices={result.rows}
        pager={pagerLinks(at, result.nextCursor)}
        filter={{ status, q }}
        today={today}
      />,
    );
  });

  // ---- A new invoice -------------------------------------------------------------------------
  const INVOICE_TEXT = [
    "vendor_name",
    "vendor_email",
    "vendor_address",
    "issue_date",
    "due_date",
    "notes",
    "merchant_name",
    "merchant_address",
    "wallet_type",
    "wallet_address",
    "webhook_url",
  ] as const;
  const blankLine = { description: "", quantity: "", unit_price: "" };
  signedIn.get("/invoices/new", async (c) => {
    const settings = await findMerchantSettings(deps.db, merchantIdOf(c));
    const state: FormState = {
      values: {
        merchant_name: settings.default_name ?? "",
        merchant_address: settings.default_address ?? "",
        wallet_type: "managed",
      },
      lines: [blankLine],
      errors: {},
      idempotencyKey: idempotencyKeyOf({}),
      total: null,
    };
    return c.html(<NewInvoicePage session={session(c)} state={state} />);
  });
  signedIn.post("/invoices/new", async (c) => {
    const form = formOf(c);
    const action = form._action ?? "create";
    let lines = linesOf(form);
    const values: Record<string, string> = { ...form, send_now: form.send_now ? "true" : "false" };
    const render = (
      errors: Record<string, string>,
      problem?: string,
      status: 200 | 400 | 409 = 200,
    ) => {
      const shown = lines.length > 0 ? lines : [blankLine];
      const state: FormState = {
        values,
        lines: shown,
        errors,
        problem,
        idempotencyKey: idempotencyKeyOf(form),
        total: actions.invoiceTotal(lines.map(lineToBody)),
      };
      return c.html(<NewInvoicePage session={session(c)} state={state} />, status);
    };
    // Without the script: adding or removing a line is a round trip that creates nothing.
    if (action === "add_line") {
      if (lines.length < 30) lines = [...lines, blankLine];
      return render({});
    }
    if (action.startsWith("remove_line:")) {
      const index = Number(action.slice("remove_line:".length));
      lines = lines.filter((_, i) => i !== index);
      return render({});
    }
    if (action === "recompute") return render({});

    const body: Record<string, unknown> = {
      ...formToBody(form, INVOICE_TEXT),
      merchant_email: c.get("signedIn").identity.merchantEmail,
      line_items: lines.map(lineToBody),
      send_now: Boolean(form.send_now),
    };
    if (body.wallet_type !== "byo") delete body.wallet_address;
    const created = await actions.createInvoice(actorOf(c), body, idempotencyKeyOf(form));
    if (created.ok)
      return c.redirect(`/dashboard/invoices/${created.invoiceId}?notice=created`, 303);
    // A price that cannot be read: the person's message, not the JSON API's strict one.
    const errors = { ...created.fields, ...typedAmountErrors(typedLinePrices(lines)) };
    const fieldless = Object.keys(errors).length === 0;
    return render(errors, fieldless ? created.message : undefined, 400);
  });

  // ---- One invoice -----------------------------------------------------------------------------
  const invoiceDetail = async (
    c: Context<DashboardEnv>,
    id: string,
  ): Promise<InvoiceDetail | null> => {
    if (!UUID_PATTERN.test(id)) return null;
    const invoice = await findInvoice(deps.db, id);
    // Another merchant's invoice is as unknown as a missing one.
    if (!invoice || invoice.merchant_id !== merchantIdOf(c)) return null;
    // The API's detail's own loader: the same payments, sweeps and refunds as GET /api/invoices/{id}.
    const [{ lines, state, transfers, sweeps, refunds }, history, emails, audit] =
      await Promise.all([
        loadInvoiceDetails(deps.db, deps.indexerSchema, invoice),
        findWebhookHistory(deps.db, invoice.id),
        findInvoiceEmails(deps.db, invoice.id),
        findInvoiceAudit(deps.db, invoice.merchant_id, invoice.id),
      ]);
    const today = utcToday();
    return {
      invoice,
      lines,
      money: invoiceMoney(
        { status: invoice.status, total: invoice.total_amount, dueDate: invoice.due_date },
        state.received,
        refundedAmount(refunds),
        today,
      ),
      refunds,
      counted: state.counted,
      pdfUrl: publicPdfUrl(deps, invoice.slug),
      invoiceUrl: invoiceUrls(deps, invoice.id, invoice.slug).invoice_url,
      transfers,
      history,
      emails,
      sweeps,
      audit,
      today,
      explorerUrl: deps.explorerUrl,
    };
  };
  const notFound = (c: Context<DashboardEnv>, what: string) =>
    c.html(
      <PlainLayout title="Not found">
        <p>
          You have no {what} at this address. <a href="/dashboard">Back to the dashboard</a>.
        </p>
      </PlainLayout>,
      404,
    );

  // What a refund without an amount takes now: the API's own plan, for the form's hint.
  const refundDefaultOf = async (c: Context<DashboardEnv>, detail: InvoiceDetail) => {
    if (detail.money.received === 0n) return undefined;
    const plan = await actions.previewRefund(actorOf(c), detail.invoice.id, {});
    return plan.ok ? { amount: plan.amount } : { refused: plan.message };
  };

  signedIn.get("/invoices/:id", async (c) => {
    const detail = await invoiceDetail(c, c.req.param("id"));
    if (!detail) return notFound(c, "invoice");
    return c.html(
      <InvoiceDetailPage
        session={session(c)}
        detail={detail}
        notice={c.req.query("notice")}
        refundDefault={await refundDefaultOf(c, detail)}
      />,
    );
  });

  signedIn.post("/invoices/:id/events/:event/redeliver", async (c) => {
    const id = c.req.param("id");
    const detail = await invoiceDetail(c, id);
    if (!detail) return notFound(c, "invoice");
    const done = await actions.redeliver(actorOf(c), id, c.req.param("event"));
    if (!done.ok) {
      if (done.retryAfterSeconds) c.header("Retry-After", String(done.retryAfterSeconds));
      return c.html(
        <InvoiceDetailPage session={session(c)} detail={detail} problem={done.message} />,
        done.status,
      );
    }
    return c.redirect(`/dashboard/invoices/${id}?notice=redelivered`, 303);
  });

  signedIn.post("/invoices/:id/void", async (c) => {
    const id = c.req.param("id");
    const detail = await invoiceDetail(c, id);
    if (!detail) return notFound(c, "invoice");
    // Money-adjacent actions take two steps: the form asks, a second screen confirms.
    if (formOf(c).confirm !== "1") {
      const status = reportedStatus(detail.invoice.status, detail.invoice.due_date, detail.today);
      if (!VOIDABLE_STATUSES.has(status))
        return c.html(
          <InvoiceDetailPage
            session={session(c)}
            detail={detail}
            problem="Only an invoice nothing was paid for can be voided."
          />,
          409,
        );
      return c.html(<VoidConfirmPage session={session(c)} invoice={detail.invoice} />);
    }
    const done = await actions.voidInvoice(actorOf(c), id);
    if (!done.ok)
      return c.html(
        <InvoiceDetailPage session={session(c)} detail={detail} problem={done.message} />,
        done.status,
      );
    return c.redirect(`/dashboard/invoices/${id}?notice=voided`, 303);
  });

  signedIn.post("/invoices/:id/refunds", async (c) => {
    const id = c.req.param("id");
    const detail = await invoiceDetail(c, id);
    if (!detail) return notFound(c, "invoice");
    const form = formOf(c);
    const body = formToBody(form, ["amount", "to"]);
    const refused = async (errors: Record<string, string>, message: string, status: number) =>
      c.html(
        <InvoiceDetailPage
          session={session(c)}
          detail={detail}
          problem={
            Object.keys(errors).length > 0
              ? "The refund was not requested: see the form below."
              : message
          }
          refund={{ values: form, errors }}
          refundDefault={await refundDefaultOf(c, detail)}
        />,
        status as 400,
      );
    if (typeof body.amount === "string") {
      const amount = typedAmount(body.amount);
      if (!amount.ok) return refused({ amount: amount.message }, amount.message, 400);
      body.amount = amount.value;
    }
    // The first post only shows what would happen (the API's own plan); `confirm=1` does it.
    if (form.confirm !== "1") {
      const plan = await actions.previewRefund(actorOf(c), id, body);
      if (!plan.ok) return refused(plan.fields, plan.message, plan.status);
      return c.html(
        <RefundConfirmPage session={session(c)} invoice={detail.invoice} refund={plan} />,
      );
    }
    const done = await actions.refundInvoice(actorOf(c), id, body);
    if (!done.ok) return refused(done.fields, done.message, done.status);
    // No redirect: a claim link is in this answer only (it is stored hashed).
    return c.html(
      <InvoiceDetailPage
        session={session(c)}
        detail={(await invoiceDetail(c, id)) ?? detail}
        refunded={{ amount: done.amount, claimUrl: done.claimUrl }}
      />,
      201,
    );
  });

  // ---- Links -----------------------------------------------------------------------------------
  signedIn.get("/links", async (c) => {
    const { page, at } = dashboardPageOf(c, "links", PAGE_SIZE);
    const result = await listLinks(deps.db, merchantIdOf(c), {}, page);
    return c.html(
      <LinksPage
        session={session(c)}
        links={result.rows}
        pager={pagerLinks(at, result.nextCursor)}
      />,
    );
  });
  const LINK_TEXT = [
    "description",
    "amount",
    "merchant_name",
    "wallet_type",
    "wallet_address",
    "webhook_url",
    "redirect_url",
  ] as const;
  signedIn.get("/links/new", async (c) => {
    const settings = await findMerchantSettings(deps.db, merchantIdOf(c));
    const state: FormState = {
      values: { merchant_name: settings.default_name ?? "", wallet_type: "managed" },
      lines: [],
      errors: {},
      idempotencyKey: idempotencyKeyOf({}),
      total: null,
    };
    return c.html(<NewLinkPage session={session(c)} state={state} />);
  });
  signedIn.post("/links/new", async (c) => {
    const form = formOf(c);
    const body: Record<string, unknown> = {
      ...formToBody(form, LINK_TEXT),
      merchant_email: c.get("signedIn").identity.merchantEmail,
    };
    if (body.wallet_type !== "byo") delete body.wallet_address;
    const amountErrors = typedAmountErrors({ amount: form.amount ?? "" });
    const amount = typedAmount(form.amount ?? "");
    if (amount.ok) body.amount = amount.value;
    const render = (errors: Record<string, string>, problem?: string) =>
      c.html(
        <NewLinkPage
          session={session(c)}
          state={{
            values: form,
            lines: [],
            errors,
            problem,
            idempotencyKey: idempotencyKeyOf(form),
            total: null,
          }}
        />,
        400,
      );
    const created = await actions.createLink(actorOf(c), body, idempotencyKeyOf(form));
    if (created.ok) return c.redirect(`/dashboard/links/${created.slug}?notice=created`, 303);
    const errors = { ...created.fields, ...amountErrors };
    return render(errors, Object.keys(errors).length === 0 ? created.message : undefined);
  });
  signedIn.get("/links/:slug", async (c) => {
    const link = await findMerchantLink(deps.db, merchantIdOf(c), c.req.param("slug"));
    if (!link) return notFound(c, "payment link");
    const [state, transfers, refunds] = await Promise.all([
      loadPaymentState(deps.db, link.deposit_address),
      indexedTransfersTo(deps.db, deps.indexerSchema, link.deposit_address),
      listRefundsOf(deps.db, { linkId: link.id }),
    ]);
    return c.html(
      <LinkDetailPage
        session={session(c)}
        link={link}
        received={state.received}
        refunds={refunds}
        snippets={actions.linkSnippets(link.slug)}
        transfers={transfers}
        explorerUrl={deps.explorerUrl}
        notice={c.req.query("notice")}
      />,
    );
  });

  // ---- Payments ------------------------------------------------------------------------------
  signedIn.get("/payments", async (c) => {
    const { page, at } = dashboardPageOf(c, "payments", PAGE_SIZE);
    const result = await listPayments(deps.db, merchantIdOf(c), {}, page);
    return c.html(
      <PaymentsPage
        session={session(c)}
        payments={result.rows}
        pager={pagerLinks(at, result.nextCursor)}
        explorerUrl={deps.explorerUrl}
      />,
    );
  });

  // ---- API keys ------------------------------------------------------------------------------
  const keysPage = async (
    c: Context<DashboardEnv>,
    extra: {
      created?: { key: string; name: string };
      notice?: string;
      values?: FormFields;
      errors?: Record<string, string>;
    },
    status: 200 | 201 | 400 = 200,
  ) => {
    const keys = await listApiKeys(deps.db, merchantIdOf(c));
    return c.html(
      <KeysPage
        session={session(c)}
        keys={keys}
        created={extra.created}
        notice={extra.notice}
        state={{ values: extra.values ?? {}, errors: extra.errors ?? {} }}
      />,
      status,
    );
  };
  signedIn.get("/keys", (c) => keysPage(c, { notice: c.req.query("notice") }));
  signedIn.post("/keys", async (c) => {
    const form = formOf(c);
    const body = formToBody(form, ["name", "scope"]);
    const created = await actions.createKey(actorOf(c), body);
    if (!created.ok) return keysPage(c, { values: form, errors: created.fields }, 400);
    // The key is in this answer only (no redirect: it is never stored to show again).
    return keysPage(c, { created: { key: created.key, name: created.name } }, 201);
  });
  signedIn.post("/keys/:id/revoke", async (c) => {
    if (!(await actions.revokeKey(actorOf(c), c.req.param("id")))) return notFound(c, "API key");
    return c.redirect("/dashboard/keys?notice=revoked", 303);
  });

  // ---- Settings ------------------------------------------------------------------------------
  const settingsPage = async (
    c: Context<DashboardEnv>,
    extra: {
      notice?: string;
      values?: FormFields;
      errors?: Record<string, string>;
      walletValues?: FormFields;
      walletErrors?: Record<string, string>;
    },
    status: 200 | 400 = 200,
  ) => {
    const merchantId = merchantIdOf(c);
    const [settings, wallets, managed] = await Promise.all([
      findMerchantSettings(deps.db, merchantId),
      listPayoutWallets(deps.db, merchantId),
      findManagedWallet(deps.db, merchantId),
    ]);
    const values = extra.values ?? {
      default_name: settings.default_name ?? "",
      default_address: settings.default_address ?? "",
      // The address waiting for its link, when one is: what the merchant last asked for.
      notification_email: settings.pending_notification_email ?? settings.notification_email ?? "",
      underpayment_tolerance: await actions.underpaymentTolerance(merchantId),
    };
    return c.html(
      <SettingsPage
        session={session(c)}
        state={{ values, errors: extra.errors ?? {} }}
        wallets={wallets.map((w) => ({ ...w, address: getAddress(w.address) }))}
        managedWallet={managed && getAddress(managed)}
        walletState={{ values: extra.walletValues ?? {}, errors: extra.walletErrors ?? {} }}
        notice={extra.notice}
        notificationEmail={{
          current: settings.notification_email,
          pending: settings.pending_notification_email,
        }}
      />,
      status,
    );
  };
  signedIn.get("/settings", (c) => settingsPage(c, { notice: c.req.query("notice") }));
  signedIn.post("/settings", async (c) => {
    const form = formOf(c);
    const body = formToBody(form, ["default_name", "default_address", "notification_email"]);
    const errors = actions.checkSettings({
      default_name: body.default_name as string | undefined,
      default_address: body.default_address as string | undefined,
      notification_email: body.notification_email as string | undefined,
    });
    const typedTolerance = form.underpayment_tolerance?.trim();
    const readTolerance = typedTolerance ? typedAmount(typedTolerance) : null;
    if (readTolerance && !readTolerance.ok) errors.underpayment_tolerance = readTolerance.message;
    if (Object.keys(errors).length > 0) return settingsPage(c, { values: form, errors }, 400);
    const tolerance = readTolerance?.ok ? readTolerance.value : undefined;
    const text = (key: string) => (typeof body[key] === "string" ? (body[key] as string) : null);
    const saved = await actions.saveSettings(actorOf(c), {
      default_name: text("default_name"),
      default_address: text("default_address"),
      notification_email: text("notification_email")?.toLowerCase() ?? null,
      ...(tolerance ? { underpayment_tolerance: tolerance } : {}),
    });
    if (!saved.ok) return settingsPage(c, { values: form, errors: saved.fields ?? {} }, 400);
    return c.redirect(
      `/dashboard/settings?notice=${saved.pendingNotificationEmail ? "saved_pending" : "saved"}`,
      303,
    );
  });
  signedIn.post("/settings/wallets", async (c) => {
    const form = formOf(c);
    const address = form.address?.trim() ?? "";
    const added = await actions.addWallet(actorOf(c), address);
    if (!added.ok)
      return settingsPage(
        c,
        { walletValues: form, walletErrors: { address: added.fields.address ?? added.message } },
        400,
      );
    return c.redirect("/dashboard/settings?notice=wallet_added", 303);
  });
  signedIn.post("/settings/wallets/remove", async (c) => {
    const removed = await actions.removeWallet(actorOf(c), formOf(c).address ?? "");
    if (!removed) return notFound(c, "payout wallet");
    return c.redirect("/dashboard/settings?notice=wallet_removed", 303);
  });

  // ---- Exports: the API's CSV, streamed under the session (the API itself takes keys only) ----
  signedIn.get("/exports/:file", async (c) => {
    const file = c.req.param("file");
    const what = file === "invoices.csv" ? "invoices" : file === "payments.csv" ? "payments" : null;
    if (!what) return notFound(c, "export");
    const query = Object.fromEntries(
      ["from", "to", "bom"].flatMap((key) => {
        const value = c.req.query(key);
        return value === undefined ? [] : [[key, value]];
      }),
    );
    const outcome = await actions.exportCsv(actorOf(c), what, query);
    if (outcome.ok) return outcome.response;
    return c.html(
      <PlainLayout title="Export refused">
        <p role="alert">
          {Object.entries(outcome.fields)
            .map(([path, message]) => `${path}: ${message}`)
            .join("; ") || outcome.message}
          . <a href="/dashboard/payments">Back</a>.
        </p>
      </PlainLayout>,
      400,
    );
  });

  app.route("/dashboard", signedIn);
  return app;
}
