/**
 * The file `remit invoices pdf` writes when no --output is given: the merchant's name made safe
 * for any file system, then the invoice number, so that two merchants' INV-0001 never
 * overwrite each other in one download folder.
 *
 * @example pdfFileName("Acme Ltd.", "INV-0001") // "acme-ltd-INV-0001.pdf"
 * @example pdfFileName("株式会社サンプル", "INV-0002") // "INV-0002.pdf" (nothing Latin to keep)
 */
export function pdfFileName(merchantName: string, invoiceNumber: string): string {
  const merchant = slugify(merchantName);
  const number = invoiceNumber.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[.-]+/, "");
  return `${merchant ? `${merchant}-` : ""}${number || "invoice"}.pdf`;
}

/** Lower case ASCII letters and digits joined by single hyphens, accents dropped, ≤ 60 chars. */
export function slugify(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, 60)
    .replace(/^-+|-+$/g, "");
}
