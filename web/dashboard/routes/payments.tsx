import { paymentList } from "../../../app/lists/merchantLists.ts";
import { PaymentsPage } from "../pages/lists.tsx";
import { dashboardPageOf, pagerLinks } from "../paging.ts";
import { actorOf, type DashboardDeps, PAGE_SIZE, type SignedInApp, session } from "./shared.tsx";

/** `/dashboard/payments`: every payment in, newest first. */
export function registerPayments(app: SignedInApp, deps: DashboardDeps): void {
  app.get("/payments", async (c) => {
    const { page, at } = dashboardPageOf(c, "payments", PAGE_SIZE);
    const result = await paymentList(deps, actorOf(c), {}, page);
    return c.html(
      <PaymentsPage
        session={session(c)}
        payments={result.rows}
        pager={pagerLinks(at, result.nextCursor)}
        explorerUrl={deps.explorerUrl}
      />,
    );
  });
}
