import type { Context } from "hono";
import { createCreditNote } from "../../../app/creditNotes/createCreditNote.ts";
import {
  authorizedCreditNoteEInvoice,
  creditNotePdf,
} from "../../../app/creditNotes/creditNoteDetail.ts";
import {
  CreateCreditNoteSchema,
  createCreditNoteKnownKeys,
} from "../../../app/creditNotes/schema.ts";
import {
  eInvoiceDownloadHeaders,
  pdfDownloadHeaders,
} from "../../../app/invoices/downloadHeaders.ts";
import { merchantInvoiceDetail } from "../../../app/invoices/invoiceDetail.ts";
import {
  authorizedInvoiceEInvoice,
  EINVOICE_FORMATS,
  type EInvoiceFile,
  type EInvoiceFormat,
} from "../../../app/invoices/invoiceEInvoice.ts";
import { newActionKey, runConfirmed } from "../actionKey.ts";
import {
  creditNoteBody,
  creditNoteErrors,
  creditNoteFormState,
  previewCreditNote,
} from "../creditNoteForm.ts";
import { submittedLines } from "../invoiceForm.ts";
import { PlainLayout } from "../layout.tsx";
import { CreditNoteConfirmPage } from "../pages/creditNoteConfirmPage.tsx";
import { InvoiceDetailPage } from "../pages/invoiceDetailPage.tsx";
import { attempt, type FormRefusal, formProblem, validated } from "../refusals.ts";
import type { DashboardEnv } from "../session.ts";
import { actorOf, formOf, notFound, type SignedInRoutes, session } from "./shared.tsx";

/** The credit note form's own fields, posted again by its confirmation. */
const CREDIT_FIELDS = /^(credit|reason|line_items\[\d{1,2}\]\.\w+)$/;

/**
 * Credit notes from an invoice's page (issued through createCreditNote, as the API's route, with
 * a confirmation), and the documents of the session's merchant: a credit note's PDF and the
 * e-invoices of invoices and credit notes, streamed as the API streams them (the API itself
 * takes keys only).
 */
export const registerCreditNotes: SignedInRoutes = (app, deps) => {
  app.post("/invoices/:id/credit-notes", async (c) => {
    const id = c.req.param("id");
    const detail = await merchantInvoiceDetail(deps, actorOf(c), id);
    if (!detail) return notFound(c, "invoice");
    const form = formOf(c);
    const { lines, create } = submittedLines(form);
    const render = (errors: Record<string, string>, status: 200 | FormRefusal["status"]) => {
      const { form: problem, ...fields } = errors;
      return c.html(
        <InvoiceDetailPage
          session={session(c)}
          detail={detail}
          problem={formProblem(errors, "No credit note was issued: see its form below.")}
          creditNote={creditNoteFormState(form, lines, fields, problem)}
        />,
        status,
      );
    };
    // Adding or removing a line, or "Update total" without the script: the form again.
    if (!create) return render({}, 200);
    const body = creditNoteBody(form, lines);
    if (form.confirm !== "1") {
      const checked = previewCreditNote(detail, body);
      if (!checked.ok) return render(creditNoteErrors(checked.fields, lines), 400);
      const fields = Object.fromEntries(
        Object.entries(form).filter(([name]) => CREDIT_FIELDS.test(name)),
      );
      return c.html(
        <CreditNoteConfirmPage
          session={session(c)}
          invoice={detail.invoice}
          asksFor={detail.money.invoiced}
          preview={checked.preview}
          fields={fields}
          actionKey={newActionKey()}
        />,
      );
    }
    // A double click or a reload posts the same key: answered by the first credit note.
    const { done } = await runConfirmed(
      form,
      validated(CreateCreditNoteSchema, body, createCreditNoteKnownKeys),
      (data, key) => createCreditNote(deps, actorOf(c), id, data, key),
    );
    if (!done.ok)
      return render(
        creditNoteErrors(
          Object.keys(done.fields).length > 0 ? done.fields : { form: done.message },
          lines,
        ),
        done.status,
      );
    return c.redirect(`/dashboard/invoices/${id}?notice=credited`, 303);
  });

  app.get("/credit-notes/:id/pdf", async (c) => {
    const pdf = await attempt(() => creditNotePdf(deps, actorOf(c), c.req.param("id")));
    if (!pdf.ok) return notFound(c, "credit note");
    return c.body(pdf.bytes, 200, pdfDownloadHeaders(pdf));
  });

  app.get("/invoices/:id/einvoice", (c) =>
    eInvoiceDownload(c, "invoice", (format) =>
      authorizedInvoiceEInvoice(deps, actorOf(c), c.req.param("id"), format),
    ),
  );
  app.get("/credit-notes/:id/einvoice", (c) =>
    eInvoiceDownload(c, "credit note", (format) =>
      authorizedCreditNoteEInvoice(deps, actorOf(c), c.req.param("id"), format),
    ),
  );
};

const isFormat = (value: string | undefined): value is EInvoiceFormat =>
  (EINVOICE_FORMATS as readonly string[]).includes(value ?? "");

/**
 * An e-invoice as a download; refused, a page saying why (the fields the document lacks). The
 * invoice's page links only to the formats that answer, so this page is for a link kept from
 * before, or typed.
 */
async function eInvoiceDownload(
  c: Context<DashboardEnv>,
  what: string,
  file: (format: EInvoiceFormat) => Promise<EInvoiceFile>,
) {
  const format = c.req.query("format");
  if (!isFormat(format)) return notFound(c, "e-invoice format");
  const done = await attempt(async () => ({ file: await file(format) }));
  if (done.ok)
    return c.body(new Uint8Array(done.file.bytes), 200, eInvoiceDownloadHeaders(done.file));
  if (done.status === 404) return notFound(c, what);
  return c.html(
    <PlainLayout title="No e-invoice">
      <section class="card">
        <p role="alert">{done.message}</p>
        <ul>
          {Object.entries(done.fields).map(([field, message]) => (
            <li data-missing-field={field}>
              <code>{field}</code>: {message}
            </li>
          ))}
        </ul>
        <p>
          <a href="/dashboard/invoices">Back to the invoices</a>
        </p>
      </section>
    </PlainLayout>,
    done.status,
  );
}
