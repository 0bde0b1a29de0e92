import { createHash } from "node:crypto";
import pdfmake from "pdfmake";
import type { TDocumentDefinitions } from "pdfmake/interfaces";
import { fontFiles, pdfFonts } from "./fonts.ts";

pdfmake.setFonts(pdfFonts);
// Documents are built from our own data: pdfmake may read the bundled fonts and fetch nothing.
pdfmake.setUrlAccessPolicy(() => false);
pdfmake.setLocalAccessPolicy((path: string) => fontFiles.has(path));

/** Renders a pdfmake document to PDF bytes (CPU-bound, ~20–80 ms). */
export async function renderPdf(document: TDocumentDefinitions): Promise<Buffer> {
  return pdfmake.createPdf(document).getBuffer();
}

/** Hex SHA-256 of the bytes, stored beside the PDF. */
export const sha256 = (bytes: Uint8Array): string =>
  createHash("sha256").update(bytes).digest("hex");
