import type { Child } from "hono/jsx";
import type { PaymentListRow } from "../../../app/lists/merchantLists.ts";
import { formatAmountForDisplay } from "../../../domain/money.ts";
import type { Overview } from "../../../domain/moneyRules.ts";
import { DashboardLayout } from "../layout.tsx";
import type { Session } from "./pageSession.ts";
import { PaymentsTable } from "./paymentsTable.tsx";

/**
 * One figure of the overview: what it is, and the amount with its unit, USDC unless another is
 * given (`data-figure` names it for the tests).
 */
const Stat = (props: { label: Child; figure: string; units: bigint; unit?: string }) => (
  <div class="stat">
    <div class="label">{props.label}</div>
    <div class="value" data-figure={props.figure}>
      {formatAmountForDisplay(props.units, props.unit ?? "USDC")}
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
        {/* Owed on invoices priced in a currency: in it, never added to the USDC figures. */}
        {overview.owedInCurrencies.map((owed) => (
          <>
            <Stat
              label={
                <>
                  Outstanding in {owed.currency} ({owed.count} invoices)
                </>
              }
              figure={`outstanding-${owed.currency.toLowerCase()}`}
              units={owed.due}
              unit={owed.currency}
            />
            <Stat
              label={
                <>
                  Overdue in {owed.currency} ({owed.overdueCount} invoices)
                </>
              }
              figure={`overdue-${owed.currency.toLowerCase()}`}
              units={owed.overdue}
              unit={owed.currency}
            />
          </>
        ))}
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
