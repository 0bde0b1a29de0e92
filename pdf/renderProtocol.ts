import type { InvoicePdfData } from "./invoiceDocument.ts";

/** What pdf/renderPool.ts sends a render thread: one invoice to render. */
export type RenderRequest = { id: number; data: InvoicePdfData };

/** What a render thread answers: the PDF, or why pdfmake could not make one. */
export type RenderReply = {
  id: number;
  result: { ok: true; pdf: Uint8Array } | { ok: false; message: string };
};

/** How pdf/renderPool.ts tells a thread its nice value: an entry of its `process.argv`. */
export const NICE_ARG = "--render-nice=";
