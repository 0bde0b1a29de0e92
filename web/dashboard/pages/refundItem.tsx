import type { RefundRow } from "../../../app/invoices/invoiceDetail.ts";
import { Badge } from "../layout.tsx";
import { checksummed, Hash, TxLink } from "./hashes.tsx";
import { usdc } from "./usdc.ts";

/** One refund: its amount, where it goes, its state and its transaction once sent. */
export function RefundItem(props: { refund: RefundRow; explorerUrl: string | null }) {
  const { refund } = props;
  return (
    <>
      <strong>Refund of {usdc(refund.amount)}</strong>
      {refund.to_address ? (
        <>
          {" "}
          to <Hash value={checksummed(refund.to_address)} />
        </>
      ) : (
        " (claim link: the customer names the address)"
      )}
      : <Badge status={refund.status} />
      {refund.error && <span class="muted small"> ({refund.error})</span>}
      {refund.tx_hash && (
        <>
          <br />
          Transaction <TxLink hash={refund.tx_hash} explorerUrl={props.explorerUrl} />
        </>
      )}
    </>
  );
}
