import type { PaymentListRow } from "../../../app/lists/merchantLists.ts";
import { DashboardLayout } from "../layout.tsx";
import { ExportForms } from "./exportForms.tsx";
import { Pager, type PagerLinks } from "./pager.tsx";
import type { Session } from "./pageSession.ts";
import { PaymentsTable } from "./paymentsTable.tsx";

export function PaymentsPage(props: {
  session: Session;
  payments: PaymentListRow[];
  pager: PagerLinks;
  explorerUrl: string | null;
}) {
  return (
    <DashboardLayout title="Payments" section="/dashboard/payments" {...props.session}>
      <section class="card">
        <PaymentsTable
          payments={props.payments}
          explorerUrl={props.explorerUrl}
          caption="Every payment counted on your invoices and links, newest first"
        />
        <Pager base="/dashboard/payments" query={{}} links={props.pager} />
      </section>
      <ExportForms />
    </DashboardLayout>
  );
}
