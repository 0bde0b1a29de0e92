import { createCreditNote } from "../../app/creditNotes/createCreditNote.ts";
import {
  authorizedCreditNoteEInvoice,
  creditNoteDetail,
  creditNoteList,
  creditNotePdf,
} from "../../app/creditNotes/creditNoteDetail.ts";
import {
  CreateCreditNoteSchema,
  CreditNoteIdParamSchema,
  CreditNoteListQuerySchema,
  CreditNoteSchema,
  CreditNotesResponseSchema,
  createCreditNoteKnownKeys,
} from "../../app/creditNotes/schema.ts";
import { InvoiceIdParamSchema } from "../../app/invoices/schema.ts";
import { actorOf } from "../auth/identity.ts";
import { IdempotencyKeyHeadersSchema } from "../creationRoute.ts";
import type { AppDeps } from "../deps.ts";
import { EInvoiceQuerySchema, eInvoiceResponse, eInvoiceResponses } from "../invoices/einvoice.ts";
import { pdfDownload, pdfResponse } from "../invoices/pdfResponse.ts";
import { jsonBody, jsonRequestBody } from "../middleware/jsonBody.ts";
import { errorResponses, jsonResponse, keyRoute, type Router, validationHook } from "../openapi.ts";

const createRouteDef = keyRoute({
  method: "post",
  path: "/api/invoices/{id}/credit-notes",
  tags: ["Credit notes"],
  summary: "Correct or cancel an issued invoice with a credit note",
  description:
    "The one way to correct an issued invoice, which itself never changes: a credit note of its own number (`CN-0001`, `CN-0002`, … per merchant, gap-free), lines and PDF, that lowers what the invoice asks for by its total. " +
    "Give `lines` (shaped and priced like `line_items`; on an invoice with tax, each with one of the invoice's own tax categories and rates) or `full: true` (everything the invoice still asks for). " +
    "The invoice's `amount_due` and status follow: credited down to what it received it is `paid`; credited below it, `excess` (the rest is refundable with POST /api/invoices/{id}/refunds); credited in full with nothing received, `void`. " +
    "400 with the field for: a draft (void it instead) or void invoice, an invoice already credited in full, lines unlike the invoice's, a total above what the invoice still asks for. " +
    "`credit_note.created` goes to your webhook endpoints and event log; the vendor of a sent invoice is emailed the credit note's PDF. " +
    "Retry safely with an `Idempotency-Key` header: the same key and body answer the first credit note again.",
  middleware: [jsonBody],
  request: {
    params: InvoiceIdParamSchema,
    headers: IdempotencyKeyHeadersSchema,
    ...jsonRequestBody(CreateCreditNoteSchema),
  },
  responses: {
    201: jsonResponse("The credit note issued", CreditNoteSchema),
    ...errorResponses(400, 401, 404, 409, 413, 415),
  },
});

const getRoute = keyRoute({
  method: "get",
  path: "/api/credit-notes/{id}",
  tags: ["Credit notes"],
  summary: "Get a credit note",
  request: { params: CreditNoteIdParamSchema },
  responses: {
    200: jsonResponse("The credit note", CreditNoteSchema),
    ...errorResponses(401, 404),
  },
});

const listRoute = keyRoute({
  method: "get",
  path: "/api/credit-notes",
  tags: ["Credit notes"],
  summary: "List your credit notes",
  description: "Your newest 100 credit notes, newest first; `invoice_id` for one invoice's.",
  request: { query: CreditNoteListQuerySchema },
  responses: {
    200: jsonResponse("The credit notes", CreditNotesResponseSchema, { credit_notes: [] }),
    ...errorResponses(400, 401),
  },
});

const pdfRoute = keyRoute({
  method: "get",
  path: "/api/credit-notes/{id}/pdf",
  tags: ["Credit notes"],
  summary: "Download a credit note's PDF",
  description: "Rendered once at issue: byte-identical to the one emailed to the vendor, forever.",
  request: { params: CreditNoteIdParamSchema },
  responses: { 200: pdfDownload, ...errorResponses(401, 404) },
});

const eInvoiceRoute = keyRoute({
  method: "get",
  path: "/api/credit-notes/{id}/einvoice",
  tags: ["Credit notes"],
  summary: "Download a credit note as an EN 16931 e-invoice",
  description:
    "As the invoice's e-invoice (`GET /api/invoices/{id}/einvoice`): a UBL 2.1 `CreditNote` (Peppol BIS Billing 3.0), a CII of type 381, or the credit note's PDF as Factur-X, naming the invoice it corrects (BG-3); 409 `einvoice_fields_missing` when its invoice lacks what EN 16931 requires.",
  request: { params: CreditNoteIdParamSchema, query: EInvoiceQuerySchema },
  responses: eInvoiceResponses("CN-0001-ubl.xml"),
});

export function registerCreditNoteRoutes(app: Router, deps: AppDeps): void {
  app.openapi<typeof createRouteDef>(
    createRouteDef,
    async (c) => {
      const actor = actorOf(c);
      const note = await createCreditNote(
        deps,
        actor,
        c.req.valid("param").id,
        c.req.valid("json"),
        c.req.valid("header")["idempotency-key"],
      );
      return c.json(await creditNoteDetail(deps, actor, note.id), 201);
    },
    validationHook(createCreditNoteKnownKeys),
  );
  app.openapi(listRoute, async (c) =>
    c.json(
      { credit_notes: await creditNoteList(deps, actorOf(c), c.req.valid("query").invoice_id) },
      200,
    ),
  );
  app.openapi(getRoute, async (c) =>
    c.json(await creditNoteDetail(deps, actorOf(c), c.req.valid("param").id), 200),
  );
  app.openapi(eInvoiceRoute, async (c) =>
    eInvoiceResponse(
      c,
      await authorizedCreditNoteEInvoice(
        deps,
        actorOf(c),
        c.req.valid("param").id,
        c.req.valid("query").format,
      ),
    ),
  );
  app.openapi(pdfRoute, async (c) =>
    pdfResponse(c, await creditNotePdf(deps, actorOf(c), c.req.valid("param").id)),
  );
}
