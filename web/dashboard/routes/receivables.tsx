import { ownReceivables, presentReport } from "../../../app/reports/receivables.ts";
import { ReceivablesPage } from "../pages/schedules.tsx";
import { actorOf, type DashboardDeps, type SignedInApp, session } from "./shared.tsx";

/** `/dashboard/receivables`: the aged receivables report, as GET /api/reports/receivables gives it. */
export function registerReceivables(app: SignedInApp, deps: DashboardDeps): void {
  app.get("/receivables", async (c) => {
    const { today, report } = await ownReceivables(deps, actorOf(c));
    return c.html(<ReceivablesPage session={session(c)} report={presentReport(report, today)} />);
  });
}
