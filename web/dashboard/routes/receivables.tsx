import { ownReceivables, presentReport } from "../../../app/reports/receivables.ts";
import { ReceivablesPage } from "../pages/schedules.tsx";
import { actorOf, type SignedInRoutes, session } from "./shared.tsx";

/** `/dashboard/receivables`: the aged receivables report, as GET /api/reports/receivables gives it. */
export const registerReceivables: SignedInRoutes = (app, deps) => {
  app.get("/receivables", async (c) => {
    const { today, report } = await ownReceivables(deps, actorOf(c));
    return c.html(<ReceivablesPage session={session(c)} report={presentReport(report, today)} />);
  });
};
