import { z } from "@hono/zod-openapi";
import { CURRENCIES } from "../../domain/currencies.ts";
import { TAX_CATEGORIES } from "../../domain/tax.ts";
import { LineItemSchema } from "../invoices/schema.ts";
import { nonEmptyText, rule } from "../schemaFields.ts";

/**
 * The request and response schemas of credit notes (issue 44, an addition to the spec; docs/api.md,
 * "Credit notes"). The API and the dashboard validate with these.
 */

/** `POST /api/invoices/{id}/credit-notes`: lines to credit, or everything still invoiced. */
export const CreateCreditNoteSchema = z
  .strictObject({
    lines: z
      .array(LineItemSchema)
      .min(1, rule("too_few", "give at least one line, or full: true"))
      .max(30, rule("too_many", "at most 30 lines"))
      .optional()
      .openapi({
        description:
          "The lines credited, shaped and priced like an invoice's `line_items` (with the invoice's own tax categories and rates on an invoice with tax). Give `lines` or `full: true`, not both.",
      }),
    full: z.literal(true, rule("invalid_full", "must be true, or left out")).optional().openapi({
      description:
        "Credit everything the invoice still asks for: before any credit note, its own lines; after partial ones, what remains of each tax rate.",
    }),
    reason: nonEmptyText(500).openapi({
      example: "Two hours billed twice",
      description: "Why the invoice is corrected: printed on the credit note.",
    }),
  })
  .superRefine((body, ctx) => {
    if ((body.lines === undefined) === (body.full === undefined))
      ctx.addIssue({
        code: "custom",
        path: body.lines === undefined ? ["lines"] : ["full"],
        message: "give either lines or full: true",
        params: { code: "lines_or_full" },
      });
  })
  .openapi("CreateCreditNoteRequest", {
    example: { full: true, reason: "The order was cancelled" },
  });

export type CreateCreditNoteInput = z.infer<typeof CreateCreditNoteSchema>;

/** The keys a credit note's request may have (the 400 names any other). */
export const createCreditNoteKnownKeys = (path: string) =>
  path === "" ? ["lines", "full", "reason"] : [];

const amount = (description: string) =>
  z.string().openapi({ example: "150.00", description: `${description}, in USDC.` });

export const CreditNoteSchema = z
  .object({
    credit_note_id: z.uuid(),
    credit_note_number: z
      .string()
      .openapi({ description: "Per merchant, gap-free: `CN-0001`, `CN-0002`, …" }),
    invoice_id: z.uuid(),
    invoice_number: z.string().openapi({ description: "The invoice it credits." }),
    reason: z.string(),
    full: z.boolean().openapi({
      description: "Whether it credited everything the invoice still asked for.",
    }),
    issue_date: z.string(),
    line_items: z.array(
      z.object({
        description: z.string(),
        quantity: z.number(),
        unit_price: z.string(),
        line_total: z.string(),
        tax_category: z.enum(TAX_CATEGORIES).optional(),
        tax_rate: z.string().optional(),
      }),
    ),
    subtotal_amount: amount("The sum of the line totals (net amounts)"),
    tax_amount: amount("The tax credited (0.00 on an invoice without tax)"),
    total_amount: amount("What it takes off the invoice: subtotal + tax"),
    tax_breakdown: z
      .array(
        z.object({
          category: z.enum(TAX_CATEGORIES),
          rate: z.string().nullable(),
          taxable_amount: z.string(),
          tax_amount: z.string(),
        }),
      )
      .optional()
      .openapi({ description: "Only when the invoice has tax: one row per category and rate." }),
    currency: z.enum(CURRENCIES).openapi({
      description: "Its invoice's: USDC, or the currency the invoice is priced in.",
    }),
    pdf_url: z.url(),
    pdf_sha256: z.string(),
    created_at: z.string(),
  })
  .openapi("CreditNote", {
    example: {
      credit_note_id: "0f8b6c1e-8d5a-4c7e-9a41-3b2f6d0c9e15",
      credit_note_number: "CN-0001",
      invoice_id: "7c1e2f3a-5b6d-4e8f-9a0b-1c2d3e4f5a6b",
      invoice_number: "INV-0042",
      reason: "Two hours billed twice",
      full: false,
      issue_date: "2026-11-28",
      line_items: [
        { description: "Design work", quantity: 2, unit_price: "75.00", line_total: "150.00" },
      ],
      subtotal_amount: "150.00",
      tax_amount: "0.00",
      total_amount: "150.00",
      currency: "USDC",
      pdf_url: "http://localhost:3000/api/credit-notes/0f8b6c1e-8d5a-4c7e-9a41-3b2f6d0c9e15/pdf",
      pdf_sha256: "9f2c4b1a7e3d5c6b8a9f0e1d2c3b4a5f6e7d8c9b0a1f2e3d4c5b6a7f8e9d0c1b",
      created_at: "2026-11-28T10:02:09.000Z",
    },
  });

export type CreditNote = z.infer<typeof CreditNoteSchema>;

export const CreditNotesResponseSchema = z
  .object({ credit_notes: z.array(CreditNoteSchema) })
  .openapi("CreditNotes");

export const CreditNoteIdParamSchema = z.object({
  id: z.string().openapi({
    param: { name: "id", in: "path" },
    example: "0f8b6c1e-8d5a-4c7e-9a41-3b2f6d0c9e15",
  }),
});

export const CreditNoteListQuerySchema = z.object({
  invoice_id: z
    .uuid(rule("invalid_uuid", "must be an invoice_id"))
    .optional()
    .openapi({
      param: { name: "invoice_id", in: "query" },
      description: "Only this invoice's credit notes.",
    }),
});
