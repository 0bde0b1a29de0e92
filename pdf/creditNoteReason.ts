import type { Content } from "pdfmake/interfaces";
import { label, MUTED } from "./documentStyle.ts";

/** Why a credit note was issued, where an invoice has its payment instructions. */
export function creditNoteReason(
  creditNote: { creditsInvoice: string; reason: string },
  text: (value: string, style?: Record<string, unknown>) => Content,
): Content {
  return {
    margin: [0, 28, 0, 0],
    stack: [
      label("Reason"),
      text(creditNote.reason, { margin: [0, 4, 0, 0] }),
      {
        text: `This credit note lowers what invoice ${creditNote.creditsInvoice} asks for by the amount above. Nothing is to be paid on it; anything already paid above the invoice's new amount is refundable.`,
        color: MUTED,
        margin: [0, 8, 0, 0],
      },
    ],
  };
}
