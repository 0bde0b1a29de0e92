import { getAddress } from "viem";
import type { LinkRow } from "../../app/pages/hostedPages.ts";
import { formatUtc } from "../../domain/dates.ts";
import { formatAmountForDisplay, formatUsdcForDisplay } from "../../domain/money.ts";
import type { IndexedTransfer, PaymentState } from "../../domain/paymentState.ts";
import { Layout } from "../layout.tsx";
import { PaymentRoot, StatusBadge, TxLink } from "../paymentPanels.tsx";

/**
 * `{PAY_URL}/merchant/{slug}`: a `managed` payment link's status, amount received and every
 * transaction (spec §4.8). Its slug is public (every shop page embeds it), so it shows only what
 * the checkout already reveals: never the managed wallet, nor the sweeps that would name it (the
 * merchant reads those with its key: GET /api/merchant/wallets). Never embeddable.
 */
export function MerchantPortal(props: {
  link: LinkRow;
  state: PaymentState;
  transfers: IndexedTransfer[];
  explorerUrl: string | null;
}) {
  const { link, state } = props;
  return (
    <Layout title={`Payment link ${link.slug}: ${link.description}`}>
      <PaymentRoot
        slug={link.slug}
        depositAddress={getAddress(link.deposit_address)}
        totalUnits={link.amount}
        state={link.status}
      >
        <section class="card">
          <p class="muted small">Merchant portal · payment link {link.slug}</p>
          <h1>{link.description}</h1>
          <StatusBadge status={link.status} />
          <table>
            <tbody>
              <tr>
                <th>Amount</th>
                <td class="num">{formatAmountForDisplay(link.amount, link.currency)}</td>
              </tr>
              <tr>
                <th>Received</th>
                <td class="num">
                  <span data-field="received">{formatUsdcForDisplay(state.received)}</span> USDC
                </td>
              </tr>
              <tr>
                <th>Deposit address</th>
                <td class="num">
                  <code>{getAddress(link.deposit_address)}</code>
                </td>
              </tr>
              <tr>
                <th>Created</th>
                <td class="num">{formatUtc(link.created_at)} UTC</td>
              </tr>
            </tbody>
          </table>
        </section>
        <section class="card" aria-labelledby="tx-heading">
          <h2 id="tx-heading">Transactions</h2>
          {props.transfers.length === 0 ? (
            <p class="muted small">No payment yet.</p>
          ) : (
            <table>
              <thead>
                <tr>
                  <th>Time (UTC)</th>
                  <th class="num">Amount (USDC)</th>
                  <th>Transaction</th>
                </tr>
              </thead>
              <tbody>
                {props.transfers.map((t) => (
                  <tr>
                    <td>{formatUtc(t.paidAt)}</td>
                    <td class="num">{formatUsdcForDisplay(t.value)}</td>
                    <td>
                      <TxLink explorerUrl={props.explorerUrl} txHash={t.txHash} />
                      {state.counted.includes(t.id) ? "" : " (awaiting confirmations)"}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      </PaymentRoot>
    </Layout>
  );
}
