import type { InvoicePdfData } from "../pdf/invoiceDocument.ts";
import { PdfBusyError } from "../pdf/renderPool.ts";
import type { CoreDeps } from "./deps.ts";
import { Refusal } from "./refusal.ts";

/**
 * Renders a document's PDF (an invoice's, a credit note's) for a request that creates it: a
 * render pool with every thread busy and its queue full is the caller's 503 `busy`, to retry
 * shortly; any other failure is thrown as is.
 */
export function renderPdfOrRefuse(pdf: CoreDeps["pdf"], data: InvoicePdfData): Promise<Buffer> {
  return pdf.render(data).catch((error) => {
    if (error instanceof PdfBusyError)
      throw new Refusal(
        "unavailable",
        "busy",
        "the server is rendering too many PDFs; retry shortly",
      );
    throw error;
  });
}
