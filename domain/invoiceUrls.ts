/** The URLs an invoice is reachable at, from the configured public origins. */
export function invoiceUrls(
  origins: { baseUrl: string; payUrl: string },
  id: string,
  slug: string,
) {
  return {
    invoice_url: `${origins.payUrl}/i/${slug}`,
    pdf_url: `${origins.baseUrl}/api/invoices/${id}/pdf`,
  };
}

/**
 * The PDF as the vendor downloads it, by the invoice's slug (public, like its hosted page):
 * what the hosted page links to, so the page never reveals the invoice's id.
 */
export const publicPdfUrl = (origins: { baseUrl: string }, slug: string): string =>
  `${origins.baseUrl}/api/invoices/by-slug/${slug}/pdf`;

/**
 * The x402 resource of an invoice or payment link (by its slug): what software GETs to be told,
 * in x402 version 2, what to pay, and pays through (api/x402/resource.ts). On the API's origin.
 */
export const x402Url = (origins: { baseUrl: string }, slug: string): string =>
  `${origins.baseUrl}/api/x402/${slug}`;
