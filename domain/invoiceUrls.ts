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
