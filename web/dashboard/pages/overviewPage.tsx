import type { Child } from "hono/jsx";
import type { PaymentListRow } from "../../../app/lists/merchantLists.ts";
import type { Overview } from "../../../domain/moneyRules.ts";
import { DashboardLayout } from "../layout.tsx";
import type { Session } from "./pageSession.ts";
import { PaymentsTable } from "./paymentsTable.tsx";
import { usdc } from "./usdc.ts";

/** One figure of the overview: what it is, and the amount (`data-figure` names it for the tests). */
const Stat = (props: { label: Child; figure: string; units: bigint }) => (
  <div class="stat">
    <div class="label">{props.label}</div>
    <div class="value" data-figure={props.figure}>
      {usdc(props.units)}
    </div>
  </div>
);

export function OverviewPage(props: {
  session: Session;
  overview: Overview;
  recent: PaymentListRow[];
  explorerUrl: string | null;
}) {
  const { overview } = props;
  return (
    <DashboardLayout title="Overview" section="/dashboard" {...props.session}>
      <section class="stats" aria-label="Figures">
        <Stat label="Received this month" figure="received" units={overview.receivedThisMonth} />
        <Stat label="Refunded this month" figure="refunded" units={overview.refundedThisMonth} />
        <Stat label="Net this month" figure="net" units={overview.netThisMonth} />
        <Stat
          label={<>Outstanding ({overview.outstandingCount} invoices)</>}
          figure="outstanding"
          units={overview.outstanding}
        />
        <Stat
          label={
            <>
              <a href="/dashboard/invoices?status=overdue">Overdue</a> ({overview.overdueCount}{" "}
              invoices)
            </>
          }
          figure="overdue"
          units={overview.overdue}
        />
      </section>
      <section class="card">
        <h2>Recent payments</h2>
        <PaymentsTable
          payments={props.recent}
          explorerUrl={props.explorerUrl}
          caption="The latest payments to your invoices and links"
        />
        <p class="small">
          <a href="/dashboard/payments">All payments</a>
        </p>
      </section>
    </DashboardLayout>
  );
}
