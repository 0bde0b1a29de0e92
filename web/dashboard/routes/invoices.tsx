import { createInvoice } from "../../../app/invoices/createInvoice.ts";
import {
  CreateInvoiceSchema,
  createInvoiceKnownKeys,
  LineItemSchema,
} from "../../../app/invoices/schema.ts";
import { type InvoiceListStatus, invoiceList } from "../../../app/lists/merchantLists.ts";
import { merchantDefaults } from "../../../app/merchants/settings.ts";
import { utcToday } from "../../../domain/invoiceStatus.ts";
import { priceLineItems } from "../../../domain/invoiceTotals.ts";
import { REPORTED_INVOICE_STATUSES } from "../../../domain/statuses.ts";
import {
  formToBody,
  idempotencyKeyOf,
  linesOf,
  lineToBody,
  typedAmountErrors,
  typedLinePrices,
} from "../forms.ts";
import { type FormState, NewInvoicePage } from "../pages/forms.tsx";
import { InvoicesPage } from "../pages/lists.tsx";
import { dashboardPageOf, pagerLinks } from "../paging.ts";
import { attempt, validated } from "../refusals.ts";
import {
  actorOf,
  type DashboardDeps,
  formOf,
  PAGE_SIZE,
  type SignedInApp,
  session,
} from "./shared.tsx";

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

/** The invoice total as POST /api/invoices computes it, or null while a line is invalid. */
function invoiceTotal(lines: unknown[]): bigint | null {
  const parsed = LineItemSchema.array().min(1).safeParse(lines);
  return parsed.success ? priceLineItems(parsed.data).total : null;
}

/** `/dashboard/invoices`: the list, filtered and searched; and a new invoice's form. */
export function registerInvoices(app: SignedInApp, deps: DashboardDeps): void {
  app.get("/invoices", async (c) => {
    const { page, at } = dashboardPageOf(c, "invoices", PAGE_SIZE);
    const asked = c.req.query("status") ?? "";
    // An unknown status (typed by hand) filters nothing, as before.
    const status = (REPORTED_INVOICE_STATUSES as readonly string[]).includes(asked) ? asked : "";
    const q = (c.req.query("q") ?? "").slice(0, 200);
    const today = utcToday();
    const result = await invoiceList(
      deps,
      actorOf(c),
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

  app.get("/invoices/new", async (c) => {
    const settings = await merchantDefaults(deps, actorOf(c));
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
  app.post("/invoices/new", async (c) => {
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
        total: invoiceTotal(lines.map(lineToBody)),
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
    const input = validated(CreateInvoiceSchema, body, createInvoiceKnownKeys);
    const created = input.ok
      ? await attempt(() => createInvoice(deps, input.data, idempotencyKeyOf(form), actorOf(c)))
      : input;
    if (created.ok)
      return c.redirect(`/dashboard/invoices/${created.invoice_id}?notice=created`, 303);
    // A price that cannot be read: the person's message, not the JSON API's strict one.
    const errors = { ...created.fields, ...typedAmountErrors(typedLinePrices(lines)) };
    const fieldless = Object.keys(errors).length === 0;
    return render(errors, fieldless ? created.message : undefined, 400);
  });
}
