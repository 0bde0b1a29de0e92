import { getAddress } from "viem";
import type { PaymentListRow } from "../../../app/lists/merchantLists.ts";
import { Time } from "../layout.tsx";
import { DataTable } from "./dataTable.tsx";
import { TxLink } from "./hashes.tsx";
import { usdc } from "./usdc.ts";

export function PaymentsTable(props: {
  payments: PaymentListRow[];
  explorerUrl: string | null;
  caption: string;
}) {
  return (
    <DataTable
      rows={props.payments}
      empty="No payments yet."
      caption={props.caption}
      columns={[
        { label: "Paid", cell: (p) => <Time at={p.block_time} /> },
        {
          label: "For",
          cell: (p) =>
            p.invoice_id ? (
              <a href={`/dashboard/invoices/${p.invoice_id}`}>{p.invoice_number}</a>
            ) : (
              <a href={`/dashboard/links/${p.link_slug}`}>{p.link_description}</a>
            ),
        },
        { label: "From", cell: (p) => <code>{getAddress(p.payer)}</code> },
        { label: "Amount", num: true, cell: (p) => usdc(p.amount) },
        {
          label: "Transaction",
          cell: (p) => <TxLink hash={p.tx_hash} explorerUrl={props.explorerUrl} />,
        },
      ]}
    />
  );
}
