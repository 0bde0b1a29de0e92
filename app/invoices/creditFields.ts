import { z } from "@hono/zod-openapi";

/**
 * What an invoice's detail says of its credit notes (issue 44, an addition to the spec;
 * app/creditNotes): present only once it has one, so an invoice never credited answers the
 * spec's body unchanged.
 */
export const InvoiceCreditFields = {
  credited_amount: z.string().optional().openapi({
    description:
      "Only once it has credit notes: the sum of their totals, in USDC. The invoice then asks for `total_amount` less this.",
  }),
  credit_notes: z
    .array(
      z.object({
        credit_note_id: z.uuid(),
        credit_note_number: z.string(),
        total_amount: z.string(),
        reason: z.string(),
        created_at: z.string(),
      }),
    )
    .optional()
    .openapi({ description: "Only once it has credit notes: each of them, oldest first." }),
};
