import type { Context } from "hono";
import { type InvoiceDetail, merchantInvoiceDetail } from "../../../app/invoices/invoiceDetail.ts";
import { redeliverInvoiceEvent } from "../../../app/invoices/redeliverEvent.ts";
import { voidInvoice } from "../../../app/invoices/voidInvoice.ts";
import {
  createRefundKnownKeys,
  previewInvoiceRefund,
  refundInvoice,
  requestedInvoiceRefund,
} from "../../../app/refunds/refundInvoice.ts";
import { CreateRefundSchema } from "../../../app/refunds/schema.ts";
import { isVoidable, reportedStatus } from "../../../domain/invoiceStatus.ts";
import { formatUsdc } from "../../../domain/money.ts";
import { actionKeyOf, newActionKey, runConfirmed } from "../actionKey.ts";
import { formToBody, typedAmount } from "../forms.ts";
import { InvoiceDetailPage } from "../pages/invoiceDetailPage.tsx";
import { RefundConfirmPage } from "../pages/refundConfirmPage.tsx";
import { VoidConfirmPage } from "../pages/voidConfirmPage.tsx";
import { attempt, type FormRefusal, formProblem, validated } from "../refusals.ts";
import type { DashboardEnv } from "../session.ts";
import { actorOf, formOf, notFound, type SignedInRoutes, session } from "./shared.tsx";

/** One invoice's page, and what its merchant may do there: redeliver, void, refund. */
export const registerInvoice: SignedInRoutes = (app, deps) => {
  const invoiceDetail = (c: Context<DashboardEnv>, id: string) =>
    merchantInvoiceDetail(deps, actorOf(c), id);

  /** The invoice's page again, with why its action was refused. */
  const refusedOn = (c: Context<DashboardEnv>, detail: InvoiceDetail, refusal: FormRefusal) =>
    c.html(
      <InvoiceDetailPage session={session(c)} detail={detail} problem={refusal.message} />,
      refusal.status,
    );

  /** What refundInvoice would do now, without doing it (the API's own plan and refusals). */
  const previewRefund = async (c: Context<DashboardEnv>, id: string, body: unknown) => {
    const input = validated(CreateRefundSchema, body, createRefundKnownKeys);
    if (!input.ok) return input;
    return attempt(async () => {
      const preview = await previewInvoiceRefund(deps, actorOf(c), id, input.data);
      const { amountInCurrency, ...rest } = preview;
      return {
        ...rest,
        amount: formatUsdc(preview.amount),
        inCurrency: amountInCurrency === null ? null : formatUsdc(amountInCurrency),
      };
    });
  };

  // What a refund without an amount takes now: the API's own plan, for the form's hint.
  const refundDefaultOf = async (c: Context<DashboardEnv>, detail: InvoiceDetail) => {
    if (detail.state.received === 0n) return undefined;
    const plan = await previewRefund(c, detail.invoice.id, {});
    return plan.ok ? { amount: plan.amount } : { refused: plan.message };
  };

  // The refund a confirmed form requested, from its action key: what the page after the
  // redirect shows, again on every reload, without requesting anything.
  const refundedOf = async (c: Context<DashboardEnv>, id: string) => {
    const key = actionKeyOf(c.req.query("refund_action"));
    const requested = key && (await requestedInvoiceRefund(deps, actorOf(c), id, key));
    return requested
      ? { amount: formatUsdc(requested.row.amount), claimUrl: requested.claimUrl }
      : undefined;
  };

  app.get("/invoices/:id", async (c) => {
    const id = c.req.param("id");
    const detail = await invoiceDetail(c, id);
    if (!detail) return notFound(c, "invoice");
    return c.html(
      <InvoiceDetailPage
        session={session(c)}
        detail={detail}
        notice={c.req.query("notice")}
        refunded={await refundedOf(c, id)}
        refundDefault={await refundDefaultOf(c, detail)}
      />,
    );
  });

  app.post("/invoices/:id/events/:event/redeliver", async (c) => {
    const id = c.req.param("id");
    const detail = await invoiceDetail(c, id);
    if (!detail) return notFound(c, "invoice");
    const done = await attempt(async () => {
      await redeliverInvoiceEvent(deps, actorOf(c), id, c.req.param("event"));
      return {};
    });
    if (!done.ok) {
      if (done.retryAfterSeconds) c.header("Retry-After", String(done.retryAfterSeconds));
      return refusedOn(c, detail, done);
    }
    return c.redirect(`/dashboard/invoices/${id}?notice=redelivered`, 303);
  });

  app.post("/invoices/:id/void", async (c) => {
    const id = c.req.param("id");
    const detail = await invoiceDetail(c, id);
    if (!detail) return notFound(c, "invoice");
    // Money-adjacent actions take two steps: the form asks, a second screen confirms.
    if (formOf(c).confirm !== "1") {
      const status = reportedStatus(detail.invoice.status, detail.invoice.due_date, detail.today);
      if (!isVoidable(status))
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
    const done = await attempt(async () => {
      await voidInvoice(deps, actorOf(c), id);
      return {};
    });
    if (!done.ok) return refusedOn(c, detail, done);
    return c.redirect(`/dashboard/invoices/${id}?notice=voided`, 303);
  });

  app.post("/invoices/:id/refunds", async (c) => {
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
          problem={formProblem(
            errors,
            "The refund was not requested: see the form below.",
            message,
          )}
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
      const plan = await previewRefund(c, id, body);
      if (!plan.ok) return refused(plan.fields, plan.message, plan.status);
      // The confirmation carries a one-time action key: a double click, a reload or a back
      // button resubmits the same key, answered by the first refund (app/idempotency.ts).
      return c.html(
        <RefundConfirmPage
          session={session(c)}
          invoice={detail.invoice}
          refund={plan}
          actionKey={newActionKey()}
        />,
      );
    }
    const { key, done } = await runConfirmed(
      form,
      validated(CreateRefundSchema, body, createRefundKnownKeys),
      (data, key) => refundInvoice(deps, actorOf(c), id, data, key),
    );
    if (!done.ok) return refused(done.fields, done.message, done.status);
    // POST → 303 → GET: the page after it shows the refund (and its claim link, opened from
    // its sealed copy under the key), and reloading it requests nothing.
    return c.redirect(`/dashboard/invoices/${id}?refund_action=${encodeURIComponent(key)}`, 303);
  });
};
