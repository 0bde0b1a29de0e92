import { z } from "@hono/zod-openapi";
import { taxLineProblems } from "../../domain/invoiceTotals.ts";
import {
  CATEGORIES_NEEDING_BOTH_TAX_IDS,
  EXEMPTION_REASONS,
  resolveLineTax,
  TAX_CATEGORIES,
  type TaxCategory,
} from "../../domain/tax.ts";
import { countryCode, nonEmptyText, rule, taxCategory, taxId, taxRate } from "../schemaFields.ts";

/**
 * The tax fields of an invoice (issue 44, an addition to the spec): what POST /api/invoices
 * takes beside the lines' `tax_rate` and `tax_category`, the rules across them, and what the
 * detail answers on an invoice with tax. The rule itself is domain/tax.ts's.
 */

/** The request's fields about tax (spread into CreateInvoiceSchema). */
export const CreateInvoiceTaxFields = {
  merchant_tax_id: taxId.optional().openapi({
    description: "The merchant's VAT identifier, with its country prefix (`DE123456789`).",
  }),
  vendor_tax_id: taxId.optional().openapi({
    description:
      "The payer's VAT identifier; required with a reverse-charge (`AE`) or intra-community (`K`) line.",
  }),
  merchant_country: countryCode.optional().openapi({
    description: "The merchant's country (ISO 3166-1 alpha-2); e-invoices need it.",
  }),
  vendor_country: countryCode.optional().openapi({
    description: "The payer's country (ISO 3166-1 alpha-2); e-invoices need it.",
  }),
  tax_exemption_reason: nonEmptyText(500).optional().openapi({
    description:
      "Why no tax is charged, printed with lines of category `E`, `AE`, `K`, `G` or `O`; required for `E` (the others have standard wording).",
  }),
};

/**
 * The rules of tax across fields (domain/invoiceTotals.ts taxLineProblems, domain/tax.ts): each
 * line's category and rate agree and every line has them once one has; reverse charge and
 * intra-community lines need both VAT identifiers; exempt lines need their reason; a reason
 * needs a line it explains. Lines whose own fields failed are left to those errors.
 */
export function taxRules(body: Record<string, unknown>, ctx: z.RefinementCtx): void {
  const items = Array.isArray(body.line_items) ? (body.line_items as unknown[]) : [];
  const lines = items.map((item) =>
    typeof item === "object" && item !== null ? (item as Record<string, unknown>) : {},
  );
  const wellFormed = lines.every(
    (line) =>
      (line.tax_rate === undefined || taxRate.safeParse(line.tax_rate).success) &&
      (line.tax_category === undefined || taxCategory.safeParse(line.tax_category).success),
  );
  if (!wellFormed) return;
  const taxed = lines as { tax_rate?: string; tax_category?: TaxCategory }[];
  for (const problem of taxLineProblems(taxed))
    ctx.addIssue({
      code: "custom",
      path: ["line_items", problem.index, problem.field],
      ...rule(problem.code, problem.message),
    });
  const categories = new Set(
    taxed.flatMap((line) => {
      const resolved = resolveLineTax(line.tax_rate, line.tax_category);
      return "code" in resolved ? [] : [resolved.category];
    }),
  );
  if (CATEGORIES_NEEDING_BOTH_TAX_IDS.some((category) => categories.has(category)))
    for (const field of ["merchant_tax_id", "vendor_tax_id"])
      if (body[field] === undefined)
        ctx.addIssue({
          code: "custom",
          path: [field],
          ...rule("required", "is required with a reverse-charge (AE) or intra-community (K) line"),
        });
  if (categories.has("E") && body.tax_exemption_reason === undefined)
    ctx.addIssue({
      code: "custom",
      path: ["tax_exemption_reason"],
      ...rule("required", "is required with an exempt (E) line: say which provision exempts it"),
    });
  if (
    body.tax_exemption_reason !== undefined &&
    ![...categories].some((category) => EXEMPTION_REASONS[category])
  )
    ctx.addIssue({
      code: "custom",
      path: ["tax_exemption_reason"],
      ...rule("not_applicable", "explains lines of category E, AE, K, G or O, and there are none"),
    });
}

/** The detail's fields about tax (spread into InvoiceSchema); absent on an invoice without. */
export const InvoiceTaxFields = {
  merchant_tax_id: z.string().optional().openapi({ description: "As given at creation." }),
  vendor_tax_id: z.string().optional().openapi({ description: "As given at creation." }),
  merchant_country: z.string().optional().openapi({ description: "As given at creation." }),
  vendor_country: z.string().optional().openapi({ description: "As given at creation." }),
  tax_exemption_reason: z.string().optional().openapi({ description: "As given at creation." }),
  subtotal_amount: z.string().optional().openapi({
    description:
      "Only on an invoice with tax: the sum of the lines' net amounts; `total_amount` is this plus `tax_amount`.",
  }),
  tax_amount: z.string().optional().openapi({
    description: "Only on an invoice with tax: the sum of `tax_breakdown`'s tax amounts.",
  }),
  tax_breakdown: z
    .array(
      z.object({
        category: z.enum(TAX_CATEGORIES),
        rate: z.string().nullable().openapi({ description: "Percent; null for category `O`." }),
        taxable_amount: z.string(),
        tax_amount: z.string().openapi({
          description: "taxable_amount × rate / 100, rounded half-up to the cent.",
        }),
        exemption_reason: z.string().nullable().openapi({
          description: "Why no tax is charged (categories E, AE, K, G, O); null otherwise.",
        }),
      }),
    )
    .optional()
    .openapi({ description: "Only on an invoice with tax: one row per category and rate." }),
};
