import type { InvoiceRow, LineItemRow } from "../../app/pages/hostedPages.ts";
import { formatUsdcForDisplay } from "../../domain/money.ts";
import { Layout } from "../layout.tsx";
import { InvoiceHead } from "./invoicePage.tsx";
import { LineItemsTable } from "./lineItemsTable.tsx";

/**
 * `{PAY_URL}/i/{slug}` of a void invoice: what it was, and that nothing is to be paid. No
 * deposit address, QR code, payment link, wallet button or PDF link (the PDF carries the
 * address), and no status polling: a void invoice offers no way to pay (a payment that still
 * arrives is held for refund).
 */
export function VoidInvoicePage(props: {
  invoice: InvoiceRow;
  lines: LineItemRow[];
  /** What the merchant's confirmed refunds paid back (0 or absent: none). */
  refunded?: bigint;
}) {
  const { invoice } = props;
  return (
    <Layout
      title={`Invoice ${invoice.invoice_number} from ${invoice.merchant_name_snapshot} (void)`}
    >
      <div data-state="void">
        <InvoiceHead invoice={invoice}>
          <span class="badge">void</span>
          <p class="small">
            Billed to <strong>{invoice.vendor_name}</strong> · issued {invoice.issue_date}
          </p>
        </InvoiceHead>
        <section class="card" aria-label="Void">
          <h2>This invoice is void</h2>
          <p>
            {invoice.merchant_name_snapshot} cancelled this invoice
            {invoice.voided_at ? ` on ${invoice.voided_at.toISOString().slice(0, 10)}` : ""}.
            Nothing is due: <strong>do not pay it</strong>.
          </p>
          {(props.refunded ?? 0n) > 0n ? (
            <p class="small" data-refunded>
              <strong>
                Refunded to you:{" "}
                <span data-field="refunded">{formatUsdcForDisplay(props.refunded ?? 0n)}</span>{" "}
                USDC.
              </strong>
            </p>
          ) : (
            <p class="warning">
              Already sent a payment? It is held, not lost: contact {invoice.merchant_name_snapshot}
              , who can refund it to an address you name.
            </p>
          )}
        </section>
        <section class="card" aria-label="Items">
          <LineItemsTable lines={props.lines} detailed={false}>
            <tr class="total">
              <td>Total (USDC), not due</td>
              <td class="num">{formatUsdcForDisplay(invoice.total_amount)}</td>
            </tr>
          </LineItemsTable>
        </section>
      </div>
    </Layout>
  );
}
