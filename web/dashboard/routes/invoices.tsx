import { createInvoice } from "../../../app/invoices/createInvoice.ts";
import { CreateInvoiceSchema, createInvoiceKnownKeys } from "../../../app/invoices/schema.ts";
import { type InvoiceListStatus, invoiceList } from "../../../app/lists/merchantLists.ts";
import { merchantDefaults } from "../../../app/merchants/settings.ts";
import { utcToday } from "../../../domain/invoiceStatus.ts";
import { REPORTED_INVOICE_STATUSES } from "../../../domain/statuses.ts";
import { idempotencyKeyOf } from "../forms.ts";
import {
  blankInvoiceForm,
  invoiceBody,
  NEW_INVOICE_TEXT,
  refusedState,
  submittedLines,
  submittedState,
} from "../invoiceForm.ts";
import type { FormState } from "../pages/formFields.tsx";
import { InvoicesPage } from "../pages/invoicesPage.tsx";
import { NewInvoicePage } from "../pages/newInvoicePage.tsx";
import { attempt, validated } from "../refusals.ts";
import { actorOf, filterOf, formOf, readList, type SignedInRoutes, session } from "./shared.tsx";

/** `/dashboard/invoices`: the list, filtered and searched; and a new invoice's form. */
export const registerInvoices: SignedInRoutes = (app, deps) => {
  app.get("/invoices", async (c) => {
    const status = filterOf(c, "status", REPORTED_INVOICE_STATUSES);
    const q = (c.req.query("q") ?? "").slice(0, 200);
    const today = utcToday();
    const list = await readList(c, "invoices", (actor, page) =>
      invoiceList(
        deps,
        actor,
        {
          today,
          ...(status ? { statuses: [status as InvoiceListStatus] } : {}),
          ...(q.trim() ? { q: q.trim() } : {}),
        },
        page,
      ),
    );
    return c.html(
      <InvoicesPage
        session={list.session}
        invoices={list.rows}
        pager={list.pager}
        filter={{ status, q }}
        today={today}
      />,
    );
  });

  app.get("/invoices/new", async (c) => {
    const state = blankInvoiceForm(await merchantDefaults(deps, actorOf(c)));
    return c.html(<NewInvoicePage session={session(c)} state={state} />);
  });
  app.post("/invoices/new", async (c) => {
    const form = formOf(c);
    const { lines, create } = submittedLines(form);
    const render = (state: FormState, status: 200 | 400 = 200) =>
      c.html(<NewInvoicePage session={session(c)} state={state} />, status);
    if (!create) return render(submittedState(form, lines, {}));
    const body = invoiceBody(
      form,
      lines,
      c.get("signedIn").identity.merchantEmail,
      NEW_INVOICE_TEXT,
    );
    const input = validated(CreateInvoiceSchema, body, createInvoiceKnownKeys);
    const created = input.ok
      ? await attempt(() => createInvoice(deps, input.data, idempotencyKeyOf(form), actorOf(c)))
      : input;
    if (created.ok)
      return c.redirect(`/dashboard/invoices/${created.invoice_id}?notice=created`, 303);
    return render(refusedState(form, lines, created.fields, created.message), 400);
  });
};
