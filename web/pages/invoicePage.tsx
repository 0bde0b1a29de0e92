import type { Child } from "hono/jsx";
import { getAddress } from "viem";
import type { InvoiceRow, LineItemRow } from "../../app/pages/hostedPages.ts";
import type { CurrencyFacts } from "../../app/payments/currencyFacts.ts";
import { askedUsdc } from "../../app/payments/presentCurrency.ts";
import { reportedStatus, utcToday } from "../../domain/invoiceStatus.ts";
import { formatUsdcForDisplay } from "../../domain/money.ts";
import { invoiceAmountDue, invoicedAmount, receivedInOwnUnit } from "../../domain/moneyRules.ts";
import type { PaymentState } from "../../domain/paymentState.ts";
import { Layout } from "../layout.tsx";
import { PaymentProgress, PaymentRoot, PayWith, StatusBadge } from "../paymentPanels.tsx";
import { QuoteNote, quotedPage } from "../quoteNote.tsx";
import { WALLET_SCRIPT, type WalletSettings } from "../walletPanel.tsx";
import { LineItemsTable } from "./lineItemsTable.tsx";

/**
 * A hosted invoice's first card: its number, its merchant and their address as issued, then
 * `children` (its status and whom it bills).
 */
export function InvoiceHead(props: { invoice: InvoiceRow; children: Child }) {
  const { invoice } = props;
  return (
    <section class="card">
      <p class="muted small">Invoice {invoice.invoice_number}</p>
      <h1>{invoice.merchant_name_snapshot}</h1>
      <p class="muted small prewrap">{invoice.merchant_address_snapshot}</p>
      {props.children}
    </section>
  );
}

/** `{PAY_URL}/i/{slug}`: the vendor's view of an invoice, with what to pay and how. */
export function InvoicePage(props: {
  invoice: InvoiceRow;
  lines: LineItemRow[];
  state: PaymentState;
  /** What the merchant's confirmed refunds paid back to the payer (0 or absent: none). */
  refunded?: bigint;
  pdfUrl: string;
  qrSvg: string | null;
  /** The wallet button and the `ethereum:` link (absent: only the QR code and copy fields). */
  pay?: { paymentUri: string; wallet: WalletSettings };
  /** The "Paid but not showing?" box (web/paidButNotShowing.tsx). */
  paidCheck?: Child;
  /** The invoice's x402 resource, for payers' accounts-payable software. */
  x402Url?: string;
  /** Priced in a currency: what is asked in USDC now (its quote), or why nothing is. */
  currency?: CurrencyFacts | null;
}) {
  const { invoice, currency } = props;
  const unit = invoice.currency;
  // Amounts read in the invoice's unit: in a currency, what its payments counted for in it.
  const state = { ...props.state, received: receivedInOwnUnit(unit, props.state) };
  const status = reportedStatus(invoice.status, invoice.due_date, utcToday());
  // What it asks for once its credit notes are taken off: what the page's script counts down.
  const invoiced = invoicedAmount(invoice.total_amount, invoice.credited_amount);
  const due = invoiceAmountDue(
    invoice.status,
    invoice.total_amount,
    state.received,
    invoice.credited_amount,
  );
  // What the payer sends, in USDC: the amount due itself, or the quote standing for it.
  const asked = askedUsdc(currency, due);
  return (
    <Layout
      title={`Invoice ${invoice.invoice_number} from ${invoice.merchant_name_snapshot}`}
      scripts={props.pay && asked > 0n ? [WALLET_SCRIPT] : []}
      x402Url={due > 0n ? props.x402Url : undefined}
    >
      <PaymentRoot
        slug={invoice.slug}
        depositAddress={getAddress(invoice.deposit_address)}
        totalUnits={invoiced}
        state={status}
        quoted={quotedPage(currency, props.state.received)}
      >
        <InvoiceHead invoice={invoice}>
          <StatusBadge status={status} />
          <p class="small">
            Billed to <strong>{invoice.vendor_name}</strong>
            {invoice.vendor_address ? ` · ${invoice.vendor_address}` : ""} · issued{" "}
            {invoice.issue_date} · due <strong>{invoice.due_date}</strong>
          </p>
        </InvoiceHead>

        <section class="card" aria-label="Items">
          <LineItemsTable lines={props.lines} detailed>
            <tr class="total">
              <td colspan={3}>Total ({unit})</td>
              <td class="num">{formatUsdcForDisplay(invoice.total_amount)}</td>
            </tr>
            {invoice.credited_amount > 0n ? (
              <>
                <tr>
                  <td colspan={3}>Credited (credit notes)</td>
                  <td class="num">−{formatUsdcForDisplay(invoice.credited_amount)}</td>
                </tr>
                <tr class="total">
                  <td colspan={3}>Now asked for ({unit})</td>
                  <td class="num">{formatUsdcForDisplay(invoiced)}</td>
                </tr>
              </>
            ) : null}
          </LineItemsTable>
          {invoice.notes ? <p class="small muted">{invoice.notes}</p> : null}
          <p class="small">
            <a href={props.pdfUrl}>Download the PDF</a>
          </p>
        </section>

        <PaymentProgress
          state={state}
          due={due}
          total={invoiced}
          refunded={props.refunded}
          doneTitle="Payment received. Thank you!"
          unit={unit}
        />

        {currency && due > 0n ? <QuoteNote currency={currency} due={due} /> : null}
        <PayWith
          due={asked}
          depositAddress={getAddress(invoice.deposit_address)}
          qrSvg={props.qrSvg}
          {...props.pay}
        />
        {props.paidCheck}
        {props.x402Url && due > 0n ? (
          <p class="small muted">
            Paying from accounts-payable software or an agent? This invoice can be paid over x402
            (USDC on Base, no ETH needed): <a href={props.x402Url}>{props.x402Url}</a>
          </p>
        ) : null}
      </PaymentRoot>
    </Layout>
  );
}
