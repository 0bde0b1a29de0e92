import { paymentList } from "../../../app/lists/merchantLists.ts";
import { PaymentsPage } from "../pages/paymentsPage.tsx";
import { type DashboardDeps, readList, type SignedInApp } from "./shared.tsx";

/** `/dashboard/payments`: every payment in, newest first. */
export function registerPayments(app: SignedInApp, deps: DashboardDeps): void {
  app.get("/payments", async (c) => {
    const list = await readList(c, "payments", (actor, page) => paymentList(deps, actor, {}, page));
    return c.html(
      <PaymentsPage
        session={list.session}
        payments={list.rows}
        pager={list.pager}
        explorerUrl={deps.explorerUrl}
      />,
    );
  });
}
