import { getAddress } from "viem";
import type { LinkRow } from "../../db/queries/links.ts";
import { formatUtc } from "../../domain/dates.ts";
import { formatUsdcForDisplay } from "../../domain/money.ts";
import type { IndexedTransfer, PaymentState } from "../../domain/paymentState.ts";
import type { SweepView } from "../../domain/sweepView.ts";
import { Layout } from "../layout.tsx";
import { PaymentRoot, StatusBadge, TxLink } from "../paymentPanels.tsx";

/**
 * `{PAY_URL}/merchant/{slug}`: the merchant's view of a `managed` payment link: status, amount
 * received, every transaction, and the managed wallet the money goes to. Never embeddable.
 */
export function MerchantPortal(props: {
  sweeps: SweepView[];
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
                <td class="num">{formatUsdcForDisplay(link.amount)} USDC</td>
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
                <th>Managed wallet</th>
                <td class="num">
                  <code>{getAddress(link.wallet_address)}</code>
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
        <section class="card" aria-labelledby="sweep-heading">
          <h2 id="sweep-heading">Sweeps to your managed wallet</h2>
          {props.sweeps.length === 0 ? (
            <p class="muted small">Nothing swept yet.</p>
          ) : (
            <table>
              <thead>
                <tr>
                  <th>#</th>
                  <th class="num">Amount (USDC)</th>
                  <th>Status</th>
                  <th>Transaction</th>
                </tr>
              </thead>
              <tbody>
                {props.sweeps.map((sweep) => (
                  <tr>
                    <td>{sweep.sequence}</td>
                    <td class="num">{sweep.amount}</td>
                    <td>{sweep.status}</td>
                    <td>
                      {sweep.tx_hash ? (
                        <TxLink explorerUrl={props.explorerUrl} txHash={sweep.tx_hash} />
                      ) : (
                        (sweep.error ?? "")
                      )}
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
