import type { Context } from "hono";
import { type InvoiceDetail, merchantInvoiceDetail } from "../../../app/invoices/invoiceDetail.ts";
import { redeliverInvoiceEvent } from "../../../app/invoices/redeliverEvent.ts";
import { voidInvoice } from "../../../app/invoices/voidInvoice.ts";
import {
  createRefundKnownKeys,
  previewInvoiceRefund,
  refundInvoice,
} from "../../../app/refunds/refundInvoice.ts";
import { CreateRefundSchema } from "../../../app/refunds/schema.ts";
import { reportedStatus } from "../../../domain/invoiceStatus.ts";
import { formatUsdc } from "../../../domain/money.ts";
import { formToBody, typedAmount } from "../forms.ts";
import {
  InvoiceDetailPage,
  RefundConfirmPage,
  VOIDABLE_STATUSES,
  VoidConfirmPage,
} from "../pages/invoice.tsx";
import { attempt, validated } from "../refusals.ts";
import type { DashboardEnv } from "../session.ts";
import {
  actorOf,
  type DashboardDeps,
  formOf,
  notFound,
  type SignedInApp,
  session,
} from "./shared.tsx";

/** One invoice's page, and what its merchant may do there: redeliver, void, refund. */
export function registerInvoice(app: SignedInApp, deps: DashboardDeps): void {
  const invoiceDetail = (c: Context<DashboardEnv>, id: string) =>
    merchantInvoiceDetail(deps, actorOf(c), id);

  /** What refundInvoice would do now, without doing it (the API's own plan and refusals). */
  const previewRefund = async (c: Context<DashboardEnv>, id: string, body: unknown) => {
    const input = validated(CreateRefundSchema, body, createRefundKnownKeys);
    if (!input.ok) return input;
    return attempt(async () => {
      const preview = await previewInvoiceRefund(deps, actorOf(c), id, input.data);
      return { ...preview, amount: formatUsdc(preview.amount) };
    });
  };

  // What a refund without an amount takes now: the API's own plan, for the form's hint.
  const refundDefaultOf = async (c: Context<DashboardEnv>, detail: InvoiceDetail) => {
    if (detail.money.received === 0n) return undefined;
    const plan = await previewRefund(c, detail.invoice.id, {});
    return plan.ok ? { amount: plan.amount } : { refused: plan.message };
  };

  app.get("/invoices/:id", async (c) => {
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
      return c.html(
        <InvoiceDetailPage session={session(c)} detail={detail} problem={done.message} />,
        done.status,
      );
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
    const done = await attempt(async () => {
      await voidInvoice(deps, actorOf(c), id);
      return {};
    });
    if (!done.ok)
      return c.html(
        <InvoiceDetailPage session={session(c)} detail={detail} problem={done.message} />,
        done.status,
      );
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
      const plan = await previewRefund(c, id, body);
      if (!plan.ok) return refused(plan.fields, plan.message, plan.status);
      return c.html(
        <RefundConfirmPage session={session(c)} invoice={detail.invoice} refund={plan} />,
      );
    }
    const input = validated(CreateRefundSchema, body, createRefundKnownKeys);
    const done = input.ok
      ? await attempt(async () => {
          const { row, claimUrl } = await refundInvoice(deps, actorOf(c), id, input.data);
          return { amount: formatUsdc(row.amount), claimUrl: claimUrl ?? null };
        })
      : input;
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
}
