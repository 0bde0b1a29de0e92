import type { InvoiceDetail } from "../../../app/invoices/invoiceDetail.ts";
import type { CurrencyFacts } from "../../../app/payments/currencyFacts.ts";
import { formatAmountForDisplay } from "../../../domain/money.ts";
import { formatRatio } from "../../../domain/rates.ts";
import { Time } from "../layout.tsx";
import { DataTable } from "./dataTable.tsx";
import { TxLink } from "./hashes.tsx";
import { usdc } from "./usdc.ts";

/**
 * An invoice priced in a currency, beside its amounts in it: the USDC that arrived, what a payer
 * is asked to send now (the standing quote, or why no rate can be read) and each counted
 * payment's worth in the currency and its rate. Every figure is the API detail's (invoiceFacts'
 * `currency`), none derived here.
 */
export function InvoiceCurrencyCard(props: { detail: InvoiceDetail; facts: CurrencyFacts }) {
  const { detail, facts } = props;
  const unit = facts.currency;
  const counted = detail.transfers.filter((t) => detail.counted.includes(t.id));
  return (
    <section class="card" aria-labelledby="paid-in-usdc" data-currency={unit}>
      <h2 id="paid-in-usdc">Paid in USDC</h2>
      <p class="muted small">
        Priced in {unit}, paid in USDC on Base at the rate of Chainlink's feed at payment; a payer
        is asked for a quote held for its window.
      </p>
      <dl class="facts">
        <dt>USDC received</dt>
        <dd data-figure="received-usdc">{usdc(detail.state.received)}</dd>
        <dt>Asked now</dt>
        <dd data-figure="ask">
          <AskNow ask={facts.ask} unit={unit} />
        </dd>
      </dl>
      <DataTable
        rows={counted}
        caption={`Payments in ${unit}`}
        empty="No payment counted yet."
        rowAttributes={(t) => ({ "data-payment": t.id })}
        columns={[
          { label: "Paid", cell: (t) => <Time at={t.paidAt} /> },
          {
            label: "Transaction",
            cell: (t) => <TxLink hash={t.txHash} explorerUrl={detail.explorerUrl} />,
          },
          { label: "USDC", num: true, cell: (t) => usdc(t.value) },
          {
            label: `In ${unit}`,
            num: true,
            cell: (t) => {
              const c = facts.converted.find((p) => p.transfer.id === t.id);
              return c ? formatAmountForDisplay(c.amount, unit) : "waiting for a rate";
            },
          },
          {
            label: `Rate (USDC per ${unit})`,
            num: true,
            cell: (t) => {
              const c = facts.converted.find((p) => p.transfer.id === t.id);
              if (!c) return "—";
              return `${formatRatio(c.rate)} (${c.quoteId ? "its quote" : "its block"})`;
            },
          },
        ]}
      />
    </section>
  );
}

/** What a payer is asked to send now: the quote, "rate unavailable" and why, or nothing due. */
function AskNow(props: { ask: CurrencyFacts["ask"]; unit: string }) {
  const { ask, unit } = props;
  if (!ask) return <>Nothing: nothing is due.</>;
  if (ask.unavailable !== undefined)
    return (
      <>
        <strong>Rate unavailable</strong>: {ask.unavailable}. Nothing is asked until a fresh rate
        can be read.
      </>
    );
  const { quote } = ask;
  return (
    <>
      <strong>{usdc(quote.amountDueUsdc)}</strong> for{" "}
      {formatAmountForDisplay(quote.amountDue, unit)} at {formatRatio(quote.rate)} USDC per {unit},
      held until <Time at={quote.expiresAt} />
    </>
  );
}
